import '../deals.css';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useLocalData } from '../../../db/hooks/use-database.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import type { DealDocument } from '../../../domain/collections/index.ts';
import { toastError, toastSuccess } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { validateEditDeal, type EditDealDraft } from '../data/deal-form.ts';
import { updateDeal } from '../data/deal-operations.ts';
import { displayName, useDeal, useProfiles } from '../data/use-deal-data.ts';
import { RejectionNotice } from '../detail/rejection-notice.tsx';
import { CompleteDealAction } from '../detail/complete-deal-action.tsx';
import { DealPaymentPanel } from '../../billing/index.ts';
import { FormError } from '../../../components/form-error.tsx';
import { useFixableError } from '../../../lib/fixable-errors.ts';
import { DeadlineField } from '../deadline-field.tsx';
import { useServerAnswer } from './use-server-answer.ts';
import { useSyncStatus } from '../../../db/hooks/use-sync-status.ts';

function draftFrom(deal: DealDocument): EditDealDraft {
  return {
    title: deal.title,
    description: deal.description,
    amount: (deal.amount_cents / 100).toFixed(2).replace(/\.00$/, ''),
    requirements: deal.requirements.join(', '),
    category: deal.category ?? '',
    deadline: deal.deadline ?? '',
    proOnly: deal.pro_only,
  };
}

/** /deals/{id}/edit: the owner (or an admin) edits the deal or marks it as completed. */
export function EditDealPage() {
  const { id = '' } = useParams();
  const auth = useAuth();
  const local = useLocalData();
  const deal = useDeal(id);
  usePageTitle('Edit deal');

  const message = (text: string) => (
    <div className="page container narrow">
      <div className="card access-card">
        <h1>Edit deal</h1>
        <p role="alert">{text}</p>
        <Link to={`/deals/${id}`} className="button button-secondary">
          Back to the deal
        </Link>
      </div>
    </div>
  );
  if (auth.role !== 'brand' && auth.role !== 'admin') return message('Only brands can edit deals.');
  if (!local.db || deal.loading) return <PageLoading label="Loading deal..." />;
  if (!deal.value) return message('Deal not found.');
  if (deal.value.brand_id !== auth.user?.id && !auth.isAdmin)
    return message('You do not have permission to edit this deal.');
  return <EditDealForm deal={deal.value} />;
}

function EditDealForm({ deal }: { deal: DealDocument }) {
  const uid = useId();
  const { db } = useLocalData();
  const profiles = useProfiles();
  const [draft, setDraft] = useState<EditDealDraft>(() => draftFrom(deal));
  const checkDraft = useCallback(
    (d: EditDealDraft) => {
      const result = validateEditDeal(d, deal);
      return result.ok ? null : result.message;
    },
    [deal],
  );
  const [formError, setFormError] = useFixableError(draft, checkDraft);
  const save = useServerAnswer(deal);
  const { reset: resetAnswer } = save;
  const sync = useSyncStatus();
  const online = sync.browserOnline && sync.status?.online !== false;
  const completed = deal.status === 'completed';
  const closed = completed || deal.status === 'cancelled';
  const [unchanged, setUnchanged] = useState(false);
  useEffect(() => {
    resetAnswer();
    setUnchanged(false);
  }, [draft, resetAnswer]);
  useEffect(() => {
    if (save.answer === 'saved') toastSuccess('Deal updated!');
  }, [save.answer]);

  const id = (name: string) => `${uid}-${name}`;
  const text = (key: Exclude<keyof EditDealDraft, 'proOnly'>) => ({
    id: id(key),
    value: draft[key],
    disabled: closed,
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  });

  async function onSave(event: FormEvent) {
    event.preventDefault();
    const result = validateEditDeal(draft, deal);
    if (!result.ok) {
      setFormError(result.message);
      return;
    }
    setFormError(null);
    try {
      // "Deal updated!" waits for the server's answer (useServerAnswer): it may still refuse the change.
      if (await updateDeal(db!, deal.id, result.value)) save.sent();
      else setUnchanged(true);
    } catch (error) {
      console.warn('update deal failed', error);
      toastError('Failed to update deal');
    }
  }

  // The winner first (the selection is prefilled from the winner), then the others.
  const selected = deal.winner_id
    ? [deal.winner_id, ...deal.selected_creator_ids.filter((c) => c !== deal.winner_id)]
    : deal.selected_creator_ids;

  return (
    <div className="page container narrow">
      <PageHeader title="Edit / Manage deal" lead={deal.title}>
        <Link to={`/deals/${deal.id}`} className="button button-ghost">
          Back to the deal
        </Link>
      </PageHeader>
      {deal.sync_rejection ? <RejectionNotice what="change" message={deal.sync_rejection.message} /> : null}
      <form className="form card deal-form" noValidate onSubmit={(e) => void onSave(e)}>
        {closed ? <p className="callout">This deal is {deal.status} and can no longer be edited.</p> : null}
        <div className="field">
          <label htmlFor={id('title')}>Title</label>
          <input type="text" required {...text('title')} />
        </div>
        <div className="field">
          <label htmlFor={id('description')}>Description</label>
          <textarea required {...text('description')} />
        </div>
        <div className="field">
          <label htmlFor={id('amount')}>Amount ($)</label>
          <input type="text" inputMode="decimal" required {...text('amount')} />
        </div>
        <div className="field">
          <label htmlFor={id('requirements')}>Requirements (comma separated)</label>
          <input type="text" {...text('requirements')} />
        </div>
        <div className="form-row">
          <div className="field">
            <label htmlFor={id('category')}>Category</label>
            <input type="text" {...text('category')} />
          </div>
          <DeadlineField
            id={id('deadline')}
            value={draft.deadline}
            disabled={closed}
            onChange={(deadline) => setDraft((d) => ({ ...d, deadline }))}
          />
        </div>
        <div className="checkbox-field">
          <input
            type="checkbox"
            id={id('pro')}
            checked={draft.proOnly}
            disabled={closed}
            onChange={(e) => setDraft((d) => ({ ...d, proOnly: e.target.checked }))}
          />
          <label htmlFor={id('pro')}>Pro Creators Only</label>
        </div>
        <FormError message={formError} />
        <p className="form-success" role="status">
          {save.answer === 'saved' ? 'Deal updated!' : null}
          {unchanged ? 'No changes to save.' : null}
          {save.answer === 'waiting'
            ? online
              ? 'Saving…'
              : 'Saved on this device. It will be sent when you are back online.'
            : null}
        </p>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={closed}>
            Save Changes
          </button>
        </div>
      </form>

      <section className="card detail-section complete-section" aria-labelledby={id('complete')}>
        <h2 id={id('complete')}>Complete the deal</h2>
        <p className="muted">Selected creators (accept applicants on the deal page):</p>
        {selected.length === 0 ? (
          <p className="empty-state">No creator selected yet.</p>
        ) : (
          <ul className="applicant-list">
            {selected.map((c, i) => (
              <li key={c} className="applicant-row">
                <span className="applicant-name">{displayName(profiles.byId.get(c), 'A creator')}</span>
                {c === deal.winner_id || (!deal.winner_id && i === 0) ? <span className="badge">Winner</span> : null}
              </li>
            ))}
          </ul>
        )}
        <CompleteDealAction
          db={db!}
          deal={deal}
          winnerName={selected[0] ? displayName(profiles.byId.get(selected[0]), 'A creator') : null}
        />
      </section>
      {deal.selected_creator_ids.length > 0 || deal.escrow_status !== 'none' ? (
        <DealPaymentPanel
          dealId={deal.id}
          escrowStatus={deal.escrow_status}
          dealStatus={deal.status}
          dealVersion={deal.version}
        />
      ) : null}
    </div>
  );
}
