/** Shown while a route's code or the session is loading. */
export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="page-loading container" role="status" aria-live="polite">
      {label}
    </div>
  );
}
