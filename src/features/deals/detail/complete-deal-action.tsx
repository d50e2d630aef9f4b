import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import type { DealDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import type { PactaDatabase } from '../../../db/index.ts';
import { toastError } from '../../../lib/toasts.ts';
import { completeDeal, DealActionError } from '../data/deal-operations.ts';

const NO_SELECTION = 'You must select at least one creator before completing the deal.';

/**
 * The brand's Mark as Completed, on the deal page and on Edit / Manage: a confirmation first that says
 * who is recorded as having done the work and what happens to the money in escrow.
 */
export function CompleteDealAction({
  db,
  deal,
  winnerName,
}: {
  db: PactaDatabase;
  deal: DealDocument;
  /** The creator who will be recorded as the winner (the first selected), by name. */
  winnerName: string | null;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const completed = deal.status === 'completed';

  function ask() {
    if (deal.selected_creator_ids.length === 0) {
      setError(NO_SELECTION);
      return;
    }
    setError(null);
    setConfirming(true);
  }

  async function complete() {
    try {
      await completeDeal(db, deal.id);
      setConfirming(false);
    } catch (err) {
      setConfirming(false);
      if (err instanceof DealActionError) setError(err.message);
      else {
        console.warn('complete deal failed', err);
        toastError('Failed to mark deal as completed');
      }
    }
  }

  const who = winnerName ?? 'the selected creator';
  return (
    <div className="money-action">
      <FormError message={error} />
      <button
        type="button"
        className="button button-primary"
        disabled={completed || deal.status === 'cancelled'}
        onClick={ask}
      >
        {completed ? 'Deal Marked as Completed' : 'Mark as Completed'}
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Mark the deal as completed?"
          confirmLabel="Mark as Completed"
          busyLabel="Completing…"
          onConfirm={complete}
          onCancel={() => setConfirming(false)}
        >
          <p>{who} will be recorded as having done the work, and the deal will close: no more applications or edits.</p>
          <p>{escrowAfterCompletion(deal, who)}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** What completing does to the money, said before it is done. */
function escrowAfterCompletion(deal: DealDocument, who: string): string {
  switch (deal.escrow_status) {
    case 'pending':
      return (
        `The ${formatUsd(deal.amount_cents)} in escrow will stay there until it is released to ${who}: ` +
        'you can release it at once, or it will be released automatically after the hold unless a dispute is opened.'
      );
    case 'disputed':
      return 'The payout will stay on hold until Pacta staff resolve the dispute.';
    case 'none':
      return 'The deal is not funded: no money will move.';
    default:
      return 'No money will move.';
  }
}
