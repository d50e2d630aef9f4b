import { useId, useRef, useState } from 'react';
import type { PactaDatabase } from '../../../../db/index.ts';
import type { ApplicationDocument, OfferParty, TermsSheet } from '../../../../domain/collections/index.ts';
import { termsOpen, type WorkView } from '../../../../domain/deal-work-view.ts';
import { formatUsd } from '../../../../domain/fees.ts';
import { dueDayText } from '../../../../domain/work-dates.ts';
import { FormError } from '../../../../components/form-error.tsx';
import { exclusivityText, hoursText, termsChanges, usageText } from '../../../../domain/terms-sheet-text.ts';
import { acceptTerms, declineTerms } from '../../data/deal-work-operations.ts';
import { TermsForm } from './terms-form.tsx';
import { useWorkAction } from './use-work-action.ts';
import { endSentence } from '../../../../domain/end-sentence.ts';

/** The lines of one sheet: deliverables and due dates, usage, exclusivity, rounds, window and payout. */
function SheetFacts({ sheet, priceCents }: { sheet: TermsSheet; priceCents?: number | undefined }) {
  return (
    <dl className="terms-list">
      {priceCents !== undefined ? (
        <div>
          <dt>Price</dt>
          <dd>{formatUsd(priceCents)}</dd>
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
        <dd>{exclusivityText(sheet.exclusivity_days)}</dd>
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
  );
}

/**
 * The terms sheet both sides accept: deliverables and due dates, usage rights, exclusivity, revision
 * rounds, the approval window and the payout timing. The version in force is the one shown and
 * printed (it is the record a creator can show); a proposed change is shown beside it with what it
 * changes, for the other side to accept or decline; every version stays listed. Either side may
 * propose changes until the work is delivered.
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
  const [proposing, setProposing] = useState(false);
  const action = useWorkAction();
  const terms = view.terms;
  if (!terms) {
    return app.status === 'accepted' || view.agreed ? (
      <p className="muted">The terms sheet will appear here once the acceptance has synced.</p>
    ) : null;
  }
  const who = (p: OfferParty) => (p === 'creator' ? names.creator : names.brand);
  const other = (p: OfferParty): OfferParty => (p === 'creator' ? 'brand' : 'creator');
  const inForce = view.termsVersions.find((v) => v.version === view.termsAgreedVersion && v.version > 0) ?? null;
  // Before any version is in force, the newest is the one on the table; after, a newer one is a proposed change.
  const shown = inForce ?? { version: terms.version, sheet: terms.sheet };
  const proposal = inForce && termsOpen(view) ? terms : null;
  const declined = inForce && terms.declinedBy && terms.version !== inForce.version ? terms : null;
  const canPropose = app.status === 'accepted' && !view.deliveredAt;
  // 'Propose changes' starts from the proposal waiting for an answer (to revise or counter it), else
  // from the sheet shown: a declined version is never the starting point.
  const iHaveAccepted = terms.acceptedBy.includes(myParty);

  function print() {
    // Only this sheet is printed (print CSS hides the rest of the page).
    box.current?.setAttribute('data-printing', '');
    window.print();
    box.current?.removeAttribute('data-printing');
  }
  const accept = (
    <button
      type="button"
      className="button button-primary button-small"
      disabled={action.busy}
      onClick={() => void action.run(() => acceptTerms(db, app, me, terms.version))}
    >
      Accept terms
    </button>
  );

  return (
    <>
      <section ref={box} className="terms-sheet" aria-labelledby={`${uid}-terms`} data-testid="terms-sheet">
        <h3 id={`${uid}-terms`}>
          Terms sheet <span className="muted">(version {shown.version})</span>
        </h3>
        <p className="terms-print-only">
          {dealTitle} — between {names.brand} (brand) and {names.creator} (creator).
        </p>
        <SheetFacts sheet={shown.sheet} priceCents={view.agreed?.priceCents} />
        <p data-testid="terms-status">
          {inForce ? (
            <span className="badge badge-status-accepted">Terms accepted</span>
          ) : terms.acceptedBy.length ? (
            endSentence(
              `Accepted by ${terms.acceptedBy.map(who).join(' and ')}; waiting for ${who(other(terms.acceptedBy[0]!))}`,
            )
          ) : (
            'Not accepted yet by either side.'
          )}
        </p>
        <div className="form-actions terms-actions">
          {!inForce && !iHaveAccepted ? accept : null}
          <button type="button" className="button button-ghost button-small" onClick={print}>
            Print terms
          </button>
          {canPropose && !proposing ? (
            <button type="button" className="button button-secondary button-small" onClick={() => setProposing(true)}>
              Propose changes
            </button>
          ) : null}
        </div>
        {!proposal ? <FormError message={action.error} /> : null}
      </section>
      {proposal ? (
        <section className="terms-proposal callout" aria-labelledby={`${uid}-proposal`} data-testid="terms-proposal">
          <h4 id={`${uid}-proposal`}>
            Proposed change: version {proposal.version}
            {proposal.acceptedBy[0] ? <span className="muted"> by {who(proposal.acceptedBy[0])}</span> : null}
          </h4>
          <ul className="terms-changes">
            {termsChanges(shown.sheet, proposal.sheet, (d) => dueDayText(d)).map((c, i) => (
              <li key={i}>
                <strong>{c.label}:</strong> {c.before} → {c.after}
              </li>
            ))}
          </ul>
          {iHaveAccepted ? (
            <p className="muted">
              Waiting for {who(other(myParty))} to accept or decline. Version {shown.version} stays in force until then.
            </p>
          ) : (
            <div className="form-actions">
              {accept}
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={action.busy}
                onClick={() => void action.run(() => declineTerms(db, app, me, proposal.version))}
              >
                Decline
              </button>
            </div>
          )}
          <FormError message={action.error} />
        </section>
      ) : null}
      {declined?.declinedBy ? (
        <p className="muted" data-testid="terms-declined">
          {who(declined.declinedBy)} declined version {declined.version}. Version {shown.version} stays in force.
        </p>
      ) : null}
      {proposing ? (
        <TermsForm
          db={db}
          app={app}
          me={me}
          start={proposal ? proposal.sheet : shown.sheet}
          nextVersion={terms.version + 1}
          earlier={view.termsVersions.map((v) => v.sheet)}
          unchangedFrom={[terms.sheet, ...(inForce ? [inForce.sheet] : [])]}
          onDone={() => setProposing(false)}
        />
      ) : null}
      {view.termsVersions.length > 1 ? (
        <details className="terms-versions" data-testid="terms-versions">
          <summary>All versions ({view.termsVersions.length})</summary>
          <ol>
            {view.termsVersions.map((v) => (
              <li key={v.version}>
                <details>
                  <summary>
                    Version {v.version}, {v.by === 'server' ? 'written from the brief' : `proposed by ${who(v.by)}`}:{' '}
                    {v.version === view.termsAgreedVersion
                      ? 'in force'
                      : v.declined
                        ? 'declined'
                        : v.version === terms.version
                          ? 'waiting for an answer'
                          : 'replaced'}
                  </summary>
                  <SheetFacts sheet={v.sheet} />
                </details>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </>
  );
}
