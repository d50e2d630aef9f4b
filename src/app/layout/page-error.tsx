import { useRouteError } from 'react-router-dom';
import { ReloadNotice } from './reload-notice.tsx';

/**
 * What a page shows when it cannot be shown: its code failed to load (offline before the service
 * worker kept it, or a deployment replaced it) or it failed while rendering. The navigation stays, so
 * the user can go elsewhere; Reload fetches the page again, which a failed code chunk needs.
 */
export function PageError() {
  const error = useRouteError();
  console.error(error);
  return (
    <ReloadNotice
      title="This page could not be loaded"
      offlineText="You are offline and this page is not on this device yet. Reload once you are back online."
      onlineText="Something went wrong while opening it. Reload to try again."
    />
  );
}
