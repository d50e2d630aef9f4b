import { useRouteError } from 'react-router-dom';
import { PageHeader } from '../../components/page-header.tsx';

/**
 * What a page shows when it cannot be shown: its code failed to load (offline before the service
 * worker kept it, or a deployment replaced it) or it failed while rendering. The navigation stays, so
 * the user can go elsewhere; Reload fetches the page again, which a failed code chunk needs (the
 * browser does not retry a failed import by itself).
 */
export function PageError() {
  const error = useRouteError();
  console.error(error);
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <div className="container page coming-soon">
      <div className="card" role="alert">
        <PageHeader title="This page could not be loaded" />
        <p className="muted">
          {offline
            ? 'You are offline and this page is not on this device yet. Reload once you are back online.'
            : 'Something went wrong while opening it. Reload to try again.'}
        </p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}
