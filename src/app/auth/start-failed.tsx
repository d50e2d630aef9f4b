import { PageHeader } from '../../components/page-header.tsx';

/**
 * What the app shows when the code that restores the session failed to load: without it no screen
 * can tell who is signed in, so "Loading…" would stay for good. The browser keeps a failed import
 * for the page's lifetime, so only a reload fetches it again (from the service worker's copy offline).
 */
export function StartFailed() {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <main id="main" className="container page coming-soon">
      <div className="card" role="alert">
        <PageHeader title="Pacta could not finish starting" />
        <p className="muted">
          {offline
            ? 'Part of the app did not load from this device. Reload to try again; your data is still here.'
            : 'Part of the app did not load. Reload to try again.'}
        </p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </main>
  );
}
