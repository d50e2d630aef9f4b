import { useId, useState, type FormEvent } from 'react';
import type { PactaDatabase } from '../../../../db/index.ts';
import type { ApplicationDocument, OfferParty } from '../../../../domain/collections/index.ts';
import type { WorkView } from '../../../../domain/deal-work-view.ts';
import { formatUsd } from '../../../../domain/fees.ts';
import { dueDayText } from '../../../../domain/work-dates.ts';
import { FormError } from '../../../../components/form-error.tsx';
import { acceptOffer, makeOffer, parseOffer } from '../../data/deal-work-operations.ts';
import { useWorkAction } from './use-work-action.ts';

/**
 * The price: the offer on the table and whose it is, 'Accept offer' for the other side, and 'Make an
 * offer' (a price and a due date) for either side while the application is open; then the agreed price.
 */
export function OfferBox({
  db,
  app,
  view,
  me,
  myParty,
  otherName,
}: {
  db: PactaDatabase;
  app: ApplicationDocument;
  view: WorkView;
  me: string;
  myParty: OfferParty;
  otherName: string;
}) {
  const uid = useId();
  const [open, setOpen] = useState(false);
  const [price, setPrice] = useState('');
  const [due, setDue] = useState('');
  const action = useWorkAction();

  async function send(event: FormEvent) {
    event.preventDefault();
    if (await action.run(() => makeOffer(db, app, me, parseOffer(price, due)))) {
      setOpen(false);
      setPrice('');
      setDue('');
    }
  }

  if (view.agreed) {
    return (
      <p className="work-price" data-testid="agreed-price">
        Agreed price: <strong>{formatUsd(view.agreed.priceCents)}</strong>
        {view.agreed.dueDate ? `, due ${dueDayText(view.agreed.dueDate)}` : ''}
      </p>
    );
  }
  if (!view.offer || app.status !== 'pending') return null;
  const offer = view.offer;
  const mine = offer.by === myParty;
  return (
    <div className="work-offer" data-testid="offer">
      <p>
        {mine ? 'Your offer' : `Offer from ${otherName}`}: <strong>{formatUsd(offer.priceCents)}</strong>
        {offer.dueDate ? `, due ${dueDayText(offer.dueDate)}` : ''}
        {mine ? <span className="muted"> — waiting for {otherName} to answer.</span> : null}
      </p>
      <div className="form-actions">
        {mine ? null : (
          <button
            type="button"
            className="button button-primary button-small"
            disabled={action.busy}
            onClick={() => void action.run(() => acceptOffer(db, app, me, offer.id))}
          >
            Accept offer
          </button>
        )}
        {open ? null : (
          <button type="button" className="button button-secondary button-small" onClick={() => setOpen(true)}>
            Make an offer
          </button>
        )}
      </div>
      {open ? (
        <form className="form work-form" onSubmit={(e) => void send(e)} aria-label="Make an offer">
          <div className="form-row">
            <div className="field">
              <label htmlFor={`${uid}-price`}>Price ($)</label>
              <input
                id={`${uid}-price`}
                type="text"
                inputMode="decimal"
                required
                value={price}
                onChange={(e) => setPrice(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${uid}-due`}>Due date (optional)</label>
              <input id={`${uid}-due`} type="date" value={due} onChange={(e) => setDue(e.target.value)} />
            </div>
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary button-small" disabled={action.busy}>
              Send offer
            </button>
            <button type="button" className="button button-ghost button-small" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <FormError message={action.error} />
    </div>
  );
}
