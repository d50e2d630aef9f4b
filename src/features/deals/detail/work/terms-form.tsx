import { useId, useState, type FormEvent } from 'react';
import type { PactaDatabase } from '../../../../db/index.ts';
import type { ApplicationDocument, TermsSheet, UsageRights } from '../../../../domain/collections/index.ts';
import { FormError } from '../../../../components/form-error.tsx';
import { proposeTerms } from '../../data/deal-work-operations.ts';
import { draftFromSheet, parseTermsDraft, type TermsDraft } from '../../data/terms-draft.ts';
import { useWorkAction } from './use-work-action.ts';

/**
 * 'Propose changes' to the terms: every line of the sheet, starting from the newest version. Sent as
 * the next version, accepted by its proposer; the other side accepts or declines it.
 */
export function TermsForm({
  db,
  app,
  me,
  start,
  nextVersion,
  earlier,
  unchangedFrom,
  onDone,
}: {
  db: PactaDatabase;
  app: ApplicationDocument;
  me: string;
  start: TermsSheet;
  nextVersion: number;
  earlier: readonly TermsSheet[];
  unchangedFrom: readonly TermsSheet[];
  onDone: () => void;
}) {
  const uid = useId();
  const [draft, setDraft] = useState<TermsDraft>(() => draftFromSheet(start));
  const action = useWorkAction();
  const set = (fields: Partial<TermsDraft>) => {
    action.clearError();
    setDraft((d) => ({ ...d, ...fields }));
  };
  const setDeliverable = (i: number, fields: Partial<TermsDraft['deliverables'][number]>) => {
    action.clearError();
    setDraft((d) => ({ ...d, deliverables: d.deliverables.map((x, j) => (j === i ? { ...x, ...fields } : x)) }));
  };

  async function send(event: FormEvent) {
    event.preventDefault();
    const ok = await action.run(() =>
      proposeTerms(db, app, me, nextVersion, parseTermsDraft(draft, earlier, unchangedFrom)),
    );
    if (ok) onDone();
  }

  return (
    <form className="form work-form terms-form" onSubmit={(e) => void send(e)} aria-labelledby={`${uid}-heading`}>
      <h4 id={`${uid}-heading`}>Propose changes to the terms</h4>
      <p className="muted">The other side accepts or declines them; until then the terms in force stay.</p>
      <fieldset className="terms-form-deliverables">
        <legend>Deliverables</legend>
        {draft.deliverables.map((d, i) => (
          <div className="form-row terms-form-deliverable" key={d.id ?? `new-${i}`}>
            <div className="field">
              <label htmlFor={`${uid}-title-${i}`}>Deliverable {i + 1}</label>
              <input
                id={`${uid}-title-${i}`}
                type="text"
                maxLength={200}
                required
                value={d.title}
                onChange={(e) => setDeliverable(i, { title: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor={`${uid}-due-${i}`}>Due date</label>
              <input
                id={`${uid}-due-${i}`}
                type="date"
                required
                value={d.dueDate}
                onChange={(e) => setDeliverable(i, { dueDate: e.target.value })}
              />
            </div>
            {draft.deliverables.length > 1 ? (
              <button
                type="button"
                className="button button-ghost button-small"
                aria-label={`Remove deliverable ${i + 1}`}
                onClick={() => set({ deliverables: draft.deliverables.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            ) : null}
          </div>
        ))}
        {draft.deliverables.length < 20 ? (
          <button
            type="button"
            className="button button-ghost button-small terms-form-add"
            onClick={() =>
              set({
                deliverables: [
                  ...draft.deliverables,
                  { id: null, title: '', dueDate: draft.deliverables.at(-1)?.dueDate ?? '' },
                ],
              })
            }
          >
            Add a deliverable
          </button>
        ) : null}
      </fieldset>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${uid}-usage`}>Usage rights</label>
          <select
            id={`${uid}-usage`}
            value={draft.usageRights}
            onChange={(e) => set({ usageRights: e.target.value as UsageRights })}
          >
            <option value="organic_only">Organic posts only</option>
            <option value="paid_ads">Organic posts and paid ads</option>
            <option value="perpetual">Organic and paid use, no end date</option>
          </select>
        </div>
        {draft.usageRights === 'paid_ads' ? (
          <div className="field">
            <label htmlFor={`${uid}-usage-days`}>Paid ads for (days)</label>
            <input
              id={`${uid}-usage-days`}
              type="number"
              min={1}
              max={3650}
              required
              value={draft.usageDays}
              onChange={(e) => set({ usageDays: e.target.value })}
            />
          </div>
        ) : null}
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${uid}-exclusivity`}>Exclusivity (days after the deal)</label>
          <input
            id={`${uid}-exclusivity`}
            type="number"
            min={0}
            max={365}
            required
            value={draft.exclusivityDays}
            onChange={(e) => set({ exclusivityDays: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-rounds`}>Revision rounds included</label>
          <input
            id={`${uid}-rounds`}
            type="number"
            min={0}
            max={10}
            required
            value={draft.revisionRounds}
            onChange={(e) => set({ revisionRounds: e.target.value })}
          />
        </div>
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${uid}-window`}>Approval window (hours)</label>
          <input
            id={`${uid}-window`}
            type="number"
            min={1}
            max={720}
            required
            value={draft.approvalWindowHours}
            onChange={(e) => set({ approvalWindowHours: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-hold`}>Payout hold (hours)</label>
          <input
            id={`${uid}-hold`}
            type="number"
            min={0}
            max={720}
            required
            value={draft.payoutHoldHours}
            onChange={(e) => set({ payoutHoldHours: e.target.value })}
          />
        </div>
      </div>
      <FormError message={action.error} />
      <div className="form-actions">
        <button type="submit" className="button button-primary button-small" disabled={action.busy}>
          Propose terms
        </button>
        <button type="button" className="button button-ghost button-small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
