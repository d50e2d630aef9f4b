import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { PactaDatabase } from '../../../db/index.ts';
import type { ApplicationDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import { toastError } from '../../../lib/toasts.ts';
import { setApplicationStatus } from '../data/deal-operations.ts';
import { displayName, isWaitingToSync } from '../data/use-deal-data.ts';
import { RejectionNotice } from './rejection-notice.tsx';
import { SaveToggle } from '../../profiles/index.ts';

type Settable = 'pending' | 'accepted' | 'rejected';

const STATUS_LABEL: Record<ApplicationDocument['status'], string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

export function statusLabel(status: ApplicationDocument['status']): string {
  return STATUS_LABEL[status];
}

async function change(db: PactaDatabase, applicationId: string, status: Settable) {
  try {
    await setApplicationStatus(db, applicationId, status);
  } catch (error) {
    console.warn('application status change failed', error);
    toastError('Failed to update application status.');
  }
}

/**
 * The brand's side of a deal: pending applicants with Accept / Reject, and every application with a
 * status dropdown (Pending, Accept, Reject). Changes are local writes; the server keeps the deal's
 * selected creators in step and may refuse (the reason shows on the application).
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
  const sorted = [...applications].sort(
    (a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id.localeCompare(b.id),
  );
  const pending = sorted.filter((a) => a.status === 'pending');
  const name = (a: ApplicationDocument) => displayName(profiles.get(a.creator_id), 'A creator');
  const invitedSet = new Set(invited);
  const applied = new Set(applications.map((a) => a.creator_id.toLowerCase()));
  const invitedOnly = invited.filter((c) => !applied.has(c));
  const invitedBadge = (a: ApplicationDocument) =>
    invitedSet.has(a.creator_id.toLowerCase()) ? <span className="badge badge-invited">Invited</span> : null;

  return (
    <>
      <section className="card detail-section" aria-labelledby={`${uid}-applicants`}>
        <h2 id={`${uid}-applicants`}>Applicants</h2>
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
        {pending.length === 0 ? (
          <p className="empty-state">No applicants yet.</p>
        ) : (
          <ul className="applicant-list">
            {pending.map((a) => (
              <li key={a.id} className="applicant-row" data-testid="applicant">
                <span className="applicant-name">
                  <Link to={`/creator/${a.creator_id}`}>{name(a)}</Link> {invitedBadge(a)}
                </span>
                <span className="applicant-actions">
                  <SaveToggle kind="shortlist" entry={a.creator_id} name={name(a)} />
                  <button
                    type="button"
                    className="button button-primary button-small"
                    disabled={closed}
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
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card detail-section" aria-labelledby={`${uid}-applications`}>
        <h2 id={`${uid}-applications`}>
          Applications <span className="muted">({sorted.length})</span>
        </h2>
        {sorted.length === 0 ? (
          <p className="empty-state">No applications yet.</p>
        ) : (
          <ul className="applicant-list">
            {sorted.map((a) => (
              <li key={a.id} className="applicant-row" data-testid="application">
                <span className="applicant-name">
                  <Link to={`/creator/${a.creator_id}`}>{name(a)}</Link>{' '}
                  <span className={`badge badge-status-${a.status}`}>{statusLabel(a.status)}</span> {invitedBadge(a)}
                  {isWaitingToSync(a) ? <span className="badge badge-pending">Waiting to sync</span> : null}
                </span>
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
                      onChange={(e) => void change(db, a.id, e.target.value as Settable)}
                    >
                      <option value="pending">Pending</option>
                      <option value="accepted">Accept</option>
                      <option value="rejected">Reject</option>
                    </select>
                  </span>
                )}
                {a.sync_rejection ? <RejectionNotice what="change" message={a.sync_rejection.message} /> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
