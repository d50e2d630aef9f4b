import { useId, useRef } from 'react';
import type { PactaDatabase } from '../../../../db/index.ts';
import type { ApplicationDocument, OfferParty, TermsSheet } from '../../../../domain/collections/index.ts';
import type { WorkView } from '../../../../domain/deal-work-view.ts';
import { formatUsd } from '../../../../domain/fees.ts';
import { dueDayText } from '../../../../domain/work-dates.ts';
import { FormError } from '../../../../components/form-error.tsx';
import { acceptTerms } from '../../data/deal-work-operations.ts';
import { useWorkAction } from './use-work-action.ts';

function usageText(sheet: TermsSheet): string {
  switch (sheet.usage_rights) {
    case 'organic_only':
      return 'Organic posts only (no paid ads)';
    case 'paid_ads':
      return `Organic posts and paid ads for ${sheet.usage_days ?? 30} days`;
    case 'perpetual':
      return 'Organic and paid use, with no end date';
  }
}

function hoursText(hours: number): string {
  return hours % 24 === 0 && hours >= 48 ? `${hours / 24} days` : `${hours} hours`;
}

/**
 * The terms sheet both sides accept: deliverables and due dates, usage rights, exclusivity, revision
 * rounds, the approval window and the payout timing; versioned, and printable (it is the record a
 * creator can show). 'Accept terms' for a side that has not accepted the newest version.
 */
export function TermsSheetCard({
  db,
  app,
  view,
  me,
  myParty,
  names,
  dealTitle,
}: {
  db: PactaDatabase;
  app: ApplicationDocument;
  view: WorkView;
  me: string;
  myParty: OfferParty;
  names: { creator: string; brand: string };
  dealTitle: string;
}) {
  const uid = useId();
  const box = useRef<HTMLElement>(null);
  const action = useWorkAction();
  const terms = view.terms;
  if (!terms) {
    return app.status === 'accepted' || view.agreed ? (
      <p className="muted">The terms sheet will appear here once the acceptance has synced.</p>
    ) : null;
  }
  const { sheet, version, acceptedBy } = terms;
  const agreed = view.termsAgreedVersion === version;
  const who = (p: OfferParty) => (p === 'creator' ? names.creator : names.brand);

  function print() {
    // Only this sheet is printed (print CSS hides the rest of the page).
    box.current?.setAttribute('data-printing', '');
    window.print();
    box.current?.removeAttribute('data-printing');
  }

  return (
    <section ref={box} className="terms-sheet" aria-labelledby={`${uid}-terms`} data-testid="terms-sheet">
      <h3 id={`${uid}-terms`}>
        Terms sheet <span className="muted">(version {version})</span>
      </h3>
      <p className="terms-print-only">
        {dealTitle} — between {names.brand} (brand) and {names.creator} (creator).
      </p>
      <dl className="terms-list">
        {view.agreed ? (
          <div>
            <dt>Price</dt>
            <dd>{formatUsd(view.agreed.priceCents)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Deliverables</dt>
          <dd>
            <ul className="terms-deliverables">
              {sheet.deliverables.map((d) => (
                <li key={d.id}>
                  {d.title} — due {dueDayText(d.due_date)}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>Usage rights</dt>
          <dd>{usageText(sheet)}</dd>
        </div>
        <div>
          <dt>Exclusivity</dt>
          <dd>{sheet.exclusivity_days ? `${sheet.exclusivity_days} days after the deal` : 'None'}</dd>
        </div>
        <div>
          <dt>Revision rounds included</dt>
          <dd>{sheet.revision_rounds}</dd>
        </div>
        <div>
          <dt>Approval window</dt>
          <dd>{hoursText(sheet.approval_window_hours)} to confirm a live link, then it is confirmed automatically</dd>
        </div>
        <div>
          <dt>Payout</dt>
          <dd>
            Released {hoursText(sheet.payout_hold_hours)} after everything is approved and live, unless a dispute is
            opened
          </dd>
        </div>
      </dl>
      <p data-testid="terms-status">
        {agreed ? (
          <span className="badge badge-status-accepted">Terms accepted</span>
        ) : acceptedBy.length ? (
          `Accepted by ${acceptedBy.map(who).join(' and ')}; waiting for ${who(acceptedBy[0] === 'creator' ? 'brand' : 'creator')}.`
        ) : (
          'Not accepted yet by either side.'
        )}
      </p>
      <div className="form-actions terms-actions">
        {!agreed && !acceptedBy.includes(myParty) ? (
          <button
            type="button"
            className="button button-primary button-small"
            disabled={action.busy}
            onClick={() => void action.run(() => acceptTerms(db, app, me, version))}
          >
            Accept terms
          </button>
        ) : null}
        <button type="button" className="button button-ghost button-small" onClick={print}>
          Print terms
        </button>
      </div>
      <FormError message={action.error} />
    </section>
  );
}
