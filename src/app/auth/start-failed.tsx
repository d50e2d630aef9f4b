import { ReloadNotice } from '../layout/reload-notice.tsx';

/**
 * What the app shows when the code that restores the session failed to load: without it no screen
 * can tell who is signed in, so "Loading…" would stay for good.
 */
export function StartFailed() {
  return (
    <main id="main">
      <ReloadNotice
        title="Pacta could not finish starting"
        offlineText="Part of the app did not load from this device. Reload to try again; your data is still here."
        onlineText="Part of the app did not load. Reload to try again."
      />
    </main>
  );
}
