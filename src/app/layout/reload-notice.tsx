import { PageHeader } from '../../components/page-header.tsx';

/**
 * A card saying what could not be loaded, with Reload: the browser keeps a failed import of the app's
 * code for the page's lifetime, so only a reload fetches it again (from the service worker's copy
 * offline). The wording differs offline and online.
 */
export function ReloadNotice({
  title,
  offlineText,
  onlineText,
}: {
  title: string;
  offlineText: string;
  onlineText: string;
}) {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <div className="container page coming-soon">
      <div className="card" role="alert">
        <PageHeader title={title} />
        <p className="muted">{offline ? offlineText : onlineText}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}
