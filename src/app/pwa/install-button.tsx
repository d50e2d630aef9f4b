import { promptInstall, useInstallAvailable } from './use-install-prompt.ts';

/** Shown only where the browser offers installation (beforeinstallprompt fired). */
export function InstallButton() {
  const available = useInstallAvailable();
  if (!available) return null;
  return (
    <button type="button" className="button button-primary button-small" onClick={() => void promptInstall()}>
      Install app
    </button>
  );
}
