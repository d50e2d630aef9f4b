import { useRegisterSW } from 'virtual:pwa-register/react';

/** How often an open tab checks for a new version (long-lived installed apps rarely navigate). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker and, when a new version is waiting, asks before reloading: a silent
 * reload could throw away a half-filled form.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => {}), UPDATE_CHECK_MS);
    },
  });

  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="alert">
      <p>A new version is ready</p>
      <button
        type="button"
        className="button button-primary button-small"
        onClick={() => void updateServiceWorker(true)}
      >
        Reload
      </button>
      <button type="button" className="button button-ghost button-small" onClick={() => setNeedRefresh(false)}>
        Later
      </button>
    </div>
  );
}
