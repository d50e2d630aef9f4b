import { formatDistanceToNowStrict } from 'date-fns';
import type { BriefDraftSummary } from './data/brief-drafts.ts';

function edited(summary: BriefDraftSummary, now: number): string {
  if (summary.lastEditedAt === null) return 'Not edited yet';
  const when =
    summary.lastEditedAt > now - 45_000 ? 'just now' : `${formatDistanceToNowStrict(summary.lastEditedAt)} ago`;
  return `Edited ${when}${summary.device ? ` on ${summary.device}` : ''}`;
}

/** The brand's brief drafts (this device's and those synced from others), newest first. */
export function DraftList({
  drafts,
  currentId,
  now,
  onOpen,
  onDelete,
}: {
  drafts: readonly BriefDraftSummary[];
  currentId: string | null;
  now: number;
  onOpen(id: string): void;
  onDelete(id: string): void;
}) {
  return (
    <section className="card brief-drafts" aria-labelledby="brief-drafts-title">
      <h2 id="brief-drafts-title">Your drafts</h2>
      {drafts.length === 0 ? (
        <p className="muted">No drafts. Everything you type in a brief is saved here as a draft.</p>
      ) : (
        <ul className="brief-draft-list">
          {drafts.map((d) => {
            const title = d.title || 'Untitled brief';
            return (
              <li
                key={d.id}
                className="brief-draft"
                data-testid="brief-draft"
                aria-current={d.id === currentId ? 'true' : undefined}
              >
                <div className="brief-draft-text">
                  <strong className="brief-draft-title">{title}</strong>
                  <span className="muted">
                    Step {d.step + 1} of 4: {d.stepName}
                  </span>
                  <span className="muted">{edited(d, now)}</span>
                  {d.waitingToSync ? <span className="badge badge-pending">Waiting to sync</span> : null}
                </div>
                <span className="brief-draft-actions">
                  {d.id === currentId ? (
                    <span className="badge">Open</span>
                  ) : (
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      onClick={() => onOpen(d.id)}
                      aria-label={`Continue ${title}`}
                    >
                      Continue
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    onClick={() => onDelete(d.id)}
                    aria-label={`Delete ${title}`}
                  >
                    Delete
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
