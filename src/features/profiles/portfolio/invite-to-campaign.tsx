import { useId, useState, type FormEvent } from 'react';
import type { PactaDatabase } from '../../../db/index.ts';
import type { DealDocument } from '../../../domain/collections/index.ts';
import { invitationEntry, invitedCreators } from '../../../domain/saved-lists.ts';
import { toastError, toastSuccess } from '../../../lib/toasts.ts';
import { addToSavedList } from '../data/saved-list.ts';

/**
 * Invite to Campaign: the brand picks one of its open deals; the invitation is kept in the brand's
 * `campaign_invites` list (offline too) and the server tells the creator with a notification. The
 * server's limits (20 invitations an hour) come back as `refusal` and show under the button.
 */
export function InviteToCampaign({
  db,
  brandId,
  creatorId,
  creatorName,
  openDeals,
  invitations,
  refusal,
}: {
  db: PactaDatabase;
  brandId: string;
  creatorId: string;
  creatorName: string;
  openDeals: readonly DealDocument[];
  invitations: readonly string[];
  refusal: string | null;
}) {
  const uid = useId();
  const [open, setOpen] = useState(false);
  const available = openDeals.filter((d) => !invitedCreators(invitations, d.id).includes(creatorId.toLowerCase()));
  const [dealId, setDealId] = useState('');
  const invitedTo = openDeals.filter((d) => invitedCreators(invitations, d.id).includes(creatorId.toLowerCase()));

  async function onInvite(event: FormEvent) {
    event.preventDefault();
    const chosen = dealId || available[0]?.id;
    if (!chosen) return;
    try {
      await addToSavedList(db, brandId, 'campaign_invites', invitationEntry(chosen, creatorId));
      // Told once per campaign per week: a re-invite after a withdrawal sends no second notification.
      toastSuccess(`${creatorName} is invited.`);
      setOpen(false);
      setDealId('');
    } catch (err) {
      console.warn('invitation failed', err);
      toastError('The invitation could not be saved. Please try again.');
    }
  }

  return (
    <div className="invite-to-campaign">
      <button
        type="button"
        className="button button-primary"
        aria-expanded={open}
        aria-controls={`${uid}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        Invite to Campaign
      </button>
      {open ? (
        <div className="card invite-panel" id={`${uid}-panel`}>
          {available.length === 0 ? (
            <p className="muted">
              {openDeals.length === 0
                ? 'You have no open campaigns to invite to. Create one first.'
                : `${creatorName} is invited to all your open campaigns.`}
            </p>
          ) : (
            <form onSubmit={(e) => void onInvite(e)} className="invite-form">
              <div className="field">
                <label htmlFor={`${uid}-deal`}>Campaign</label>
                <select
                  id={`${uid}-deal`}
                  value={dealId || available[0]!.id}
                  onChange={(e) => setDealId(e.target.value)}
                >
                  {available.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.title}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button button-primary button-small">
                Send invitation
              </button>
            </form>
          )}
        </div>
      ) : null}
      {invitedTo.length ? (
        <p className="muted invite-status" data-testid="invited-to">
          Invited to {invitedTo.map((d) => `“${d.title}”`).join(', ')}.
        </p>
      ) : null}
      {refusal ? (
        <p className="field-error" role="alert">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}
