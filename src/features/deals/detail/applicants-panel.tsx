import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { PactaDatabase } from '../../../db/index.ts';
import type { ApplicationDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { toastError } from '../../../lib/toasts.ts';
import { setApplicationStatus } from '../data/deal-operations.ts';
import { displayName, isWaitingToSync } from '../data/use-deal-data.ts';
import {
  applicantFacts,
  applicantsInOrder,
  SETTABLE_STATUSES,
  statusLabel,
  type SettableStatus,
} from './applicant-facts.ts';
import { RejectionNotice } from './rejection-notice.tsx';
import { SaveToggle } from '../../profiles/index.ts';

async function change(db: PactaDatabase, applicationId: string, status: SettableStatus) {
  try {
    await setApplicationStatus(db, applicationId, status);
  } catch (error) {
    console.warn('application status change failed', error);
    toastError('Failed to update application status.');
  }
}

/**
 * The brand's side of a deal: one list of every applicant with what a brand weighs them by
 * (followers, niches, rating, pitch), the status by name, Accept / Reject while pending, and a status
 * control to change a decision. Changes are local writes; the server keeps the deal's selected
 * creators in step and may refuse (the reason shows on the application).
 */
export function ApplicantsPanel({
  db,
  applications,
  profiles,
  closed,
  invited = [],
}: {
  db: PactaDatabase;
  applications: readonly ApplicationDocument[];
  profiles: ReadonlyMap<string, ProfileDocument>;
  closed: boolean;
  /** Creators the brand invited to this deal (its campaign invitations). */
  invited?: readonly string[];
}) {
  const uid = useId();
  const sorted = applicantsInOrder(applications);
  const name = (a: ApplicationDocument) => displayName(profiles.get(a.creator_id), 'A creator');
  const invitedSet = new Set(invited);
  const applied = new Set(applications.map((a) => a.creator_id.toLowerCase()));
  const invitedOnly = invited.filter((c) => !applied.has(c));
  const invitedBadge = (a: ApplicationDocument) =>
    invitedSet.has(a.creator_id.toLowerCase()) ? <span className="badge badge-invited">Invited</span> : null;

  return (
    <section className="card detail-section" aria-labelledby={`${uid}-applicants`}>
      <h2 id={`${uid}-applicants`}>
        Applicants <span className="muted">({sorted.length})</span>
      </h2>
      {invitedOnly.length ? (
        <ul className="applicant-list" aria-label="Invited creators">
          {invitedOnly.map((c) => (
            <li key={c} className="applicant-row" data-testid="invited-creator">
              <span className="applicant-name">
                <Link to={`/creator/${c}`}>{displayName(profiles.get(c), 'A creator')}</Link>{' '}
                <span className="badge badge-invited">Invited</span>
              </span>
              <span className="muted">Has not applied yet</span>
            </li>
          ))}
        </ul>
      ) : null}
      {sorted.length === 0 ? (
        <p className="empty-state">No applicants yet.</p>
      ) : (
        <ul className="applicant-list">
          {sorted.map((a) => {
            const facts = applicantFacts(profiles.get(a.creator_id));
            return (
              <li key={a.id} className="applicant-row" data-testid="applicant">
                <div className="applicant-who">
                  <span className="applicant-name">
                    <Link to={`/creator/${a.creator_id}`}>{name(a)}</Link>{' '}
                    <span className={`badge badge-status-${a.status}`}>{statusLabel(a.status)}</span> {invitedBadge(a)}
                    {isWaitingToSync(a) ? <span className="badge badge-pending">Waiting to sync</span> : null}
                  </span>
                  {facts.length ? <span className="muted applicant-facts">{facts.join(' · ')}</span> : null}
                  {a.status === 'pending' && a.offer_price_cents !== null ? (
                    <span className="applicant-facts">
                      {a.offer_by === 'brand' ? 'Your offer' : 'Asks'} {formatUsd(a.offer_price_cents)}
                      {a.offer_by === 'brand' ? ': waiting for the creator to answer.' : ''}
                    </span>
                  ) : null}
                  {a.pitch.trim() ? (
                    <blockquote className="applicant-pitch" aria-label={`Pitch from ${name(a)}`}>
                      {a.pitch}
                    </blockquote>
                  ) : null}
                </div>
                <span className="applicant-actions">
                  {a.status === 'pending' ? (
                    <>
                      <SaveToggle kind="shortlist" entry={a.creator_id} name={name(a)} />
                      {/* Accept and Reject are one decision: on a phone they wrap together, never Reject alone. */}
                      <span className="applicant-decision">
                        <button
                          type="button"
                          className="button button-primary button-small"
                          // Accepting takes the creator's offer; over the brand's own counter-offer it waits for the creator.
                          disabled={closed || a.offer_by === 'brand'}
                          title={a.offer_by === 'brand' ? 'Waiting for the creator to answer your offer' : undefined}
                          onClick={() => void change(db, a.id, 'accepted')}
                          aria-label={`Accept ${name(a)}`}
                        >
                          Accept
                        </button>
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={closed}
                          onClick={() => void change(db, a.id, 'rejected')}
                          aria-label={`Reject ${name(a)}`}
                        >
                          Reject
                        </button>
                      </span>
                    </>
                  ) : null}
                  <Link
                    to={`/inbox/new?with=${encodeURIComponent(a.creator_id)}&deal=${encodeURIComponent(a.deal_id)}`}
                    className="button button-secondary button-small"
                    aria-label={`Message ${name(a)}`}
                  >
                    Message
                  </Link>
                  {a.status === 'withdrawn' ? null : (
                    <span className="field applicant-status">
                      <label htmlFor={`${uid}-${a.id}`} className="visually-hidden">
                        Status of {name(a)}
                      </label>
                      <select
                        id={`${uid}-${a.id}`}
                        value={a.status}
                        disabled={closed}
                        onChange={(e) => void change(db, a.id, e.target.value as SettableStatus)}
                      >
                        {SETTABLE_STATUSES.map((s) => (
                          <option key={s} value={s}>
                            {statusLabel(s)}
                          </option>
                        ))}
                      </select>
                    </span>
                  )}
                </span>
                {a.sync_rejection ? <RejectionNotice what="change" message={a.sync_rejection.message} /> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
