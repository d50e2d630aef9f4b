import { useState } from 'react';

/**
 * Long lists render a page at a time: hundreds of cards on one screen help nobody and cost a lot.
 * `reset()` goes back to the first page (e.g. when filters change).
 */
export function usePagedList(pageSize: number) {
  const [limit, setLimit] = useState(pageSize);
  return {
    limit,
    more: () => setLimit((l) => l + pageSize),
    reset: () => setLimit(pageSize),
  };
}

/** "Showing N of M deals", announced politely, and a Show more button while some are hidden. */
export function ShowMore({
  shown,
  total,
  noun,
  onMore,
}: {
  shown: number;
  total: number;
  noun: string;
  onMore: () => void;
}) {
  return (
    <div className="show-more">
      <p className="muted" aria-live="polite">
        Showing {Math.min(shown, total)} of {total} {noun}
      </p>
      {total > shown ? (
        <button type="button" className="button button-secondary" onClick={onMore}>
          Show more {noun}
        </button>
      ) : null}
    </div>
  );
}
