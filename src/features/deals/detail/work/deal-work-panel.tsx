import { useId } from 'react';
import type { PactaDatabase } from '../../../../db/index.ts';
import type {
  ApplicationDocument,
  DealDocument,
  DealEventDocument,
  OfferParty,
} from '../../../../domain/collections/index.ts';
import { isUnsynced, sortedEvents, timelineText, workStatusText, workView } from '../../../../domain/deal-work-view.ts';
import { dueDayText, instantDateText } from '../../../../domain/work-dates.ts';
import { RejectionNotice } from '../rejection-notice.tsx';
import { DeliverableCard } from './deliverable-card.tsx';
import { OfferBox } from './offer-box.tsx';
import { TermsSheetCard } from './terms-sheet.tsx';

/**
 * One creator's work on the deal, as both sides see it: the price (offers and counter-offers), the
 * terms sheet, each deliverable with its step, and the timeline of everything that happened.
 */
export function DealWorkPanel({
  db,
  deal,
  app,
  events,
  me,
  myParty,
  names,
}: {
  db: PactaDatabase;
  deal: DealDocument;
  app: ApplicationDocument;
  events: readonly DealEventDocument[];
  me: string;
  myParty: OfferParty;
  names: { creator: string; brand: string };
}) {
  const uid = useId();
  const view = workView(app, events);
  const status = workStatusText(app, view, instantDateText);
  const log = sortedEvents(app, events);
  const titles = new Map((view.terms?.sheet.deliverables ?? []).map((d) => [d.id, d.title] as const));
  const otherName = myParty === 'creator' ? names.brand : names.creator;
  const heading = myParty === 'creator' ? 'Your offer and work' : `Work with ${names.creator}`;

  return (
    <section className="card detail-section deal-work" aria-labelledby={`${uid}-work`} data-testid="deal-work">
      <div className="deal-work-head">
        <h2 id={`${uid}-work`}>{heading}</h2>
        {status ? (
          <span className="badge badge-work" data-testid="work-status">
            {status}
          </span>
        ) : null}
      </div>
      <OfferBox db={db} app={app} view={view} me={me} myParty={myParty} otherName={otherName} />
      <TermsSheetCard db={db} app={app} view={view} me={me} myParty={myParty} names={names} dealTitle={deal.title} />
      {view.termsAgreedVersion > 0 && view.deliverables.length ? (
        <section aria-labelledby={`${uid}-deliverables`}>
          <h3 id={`${uid}-deliverables`}>Deliverables</h3>
          <ul className="deliverable-list">
            {view.deliverables.map((item) => (
              <DeliverableCard
                key={item.id}
                db={db}
                app={app}
                item={item}
                me={me}
                myParty={myParty}
                escrowStatus={deal.escrow_status}
              />
            ))}
          </ul>
        </section>
      ) : null}
      {view.payoutDueAt ? (
        <p className="callout" data-testid="payout-hold">
          Everything is approved and live. The payout will be released on {instantDateText(view.payoutDueAt)} unless a
          dispute is opened.
        </p>
      ) : null}
      {log.length ? (
        <section aria-labelledby={`${uid}-timeline`}>
          <h3 id={`${uid}-timeline`}>Timeline</h3>
          <ol className="work-timeline" data-testid="timeline">
            {log.map((ev) => (
              <li key={ev.id}>
                <time dateTime={ev.created_at ?? undefined} className="muted">
                  {ev.created_at ? instantDateText(ev.created_at) : ''}
                </time>{' '}
                {timelineText(app, ev, names, titles, (d) => dueDayText(d))}
                {ev.kind === 'changes_requested' && ev.note ? <q className="work-note-inline">{ev.note}</q> : null}
                {isUnsynced(ev) && !ev.sync_rejection ? (
                  <span className="badge badge-pending">Waiting to sync</span>
                ) : null}
                {ev.sync_rejection ? <RejectionNotice what="change" message={ev.sync_rejection.message} /> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </section>
  );
}
