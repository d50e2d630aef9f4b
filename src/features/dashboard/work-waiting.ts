import type { ApplicationDocument, DealDocument, OfferParty } from '../../domain/collections/index.ts';
import { waitingItems, type WaitingItem, type WorkView } from '../../domain/deal-work-view.ts';
import { dueDayText, instantDateText } from '../../domain/work-dates.ts';

/** One deal's work on the dashboard: the application, its deal and the work's current view. */
export type DealWork = { app: ApplicationDocument; deal: DealDocument | null; view: WorkView };

/** A line of "What waits on whom", linking to the deal when it names one. */
export type WaitingLine = { text: string; dealId: string | null };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What waits on this side and what waits on the other, in a few lines: counts where there are many
 * alike ("2 drafts to review"), a line each where the day matters ("revision requested: due Friday"),
 * and a creator's payouts on hold.
 */
export function waitingLines(
  works: readonly DealWork[],
  side: OfferParty,
  now: Date = new Date(),
): { mine: WaitingLine[]; theirs: WaitingLine[] } {
  const all = works.flatMap((w) => waitingItems(w.app, w.view, w.deal?.escrow_status).map((item) => ({ item, w })));
  const on = (party: OfferParty) => all.filter(({ item }) => item.on === party);
  const other: OfferParty = side === 'creator' ? 'brand' : 'creator';
  const title = (w: DealWork) => w.deal?.title ?? 'a deal';

  function lines(list: { item: WaitingItem; w: DealWork }[], mine: boolean): WaitingLine[] {
    const out: WaitingLine[] = [];
    const count = (kind: WaitingItem['kind'], one: string, many: string) => {
      const of = list.filter(({ item }) => item.kind === kind);
      if (of.length)
        out.push({ text: plural(of.length, one, many), dealId: of.length === 1 ? of[0]!.w.app.deal_id : null });
    };
    const waitingFor = mine ? '' : side === 'creator' ? ' (waiting for the brand)' : ' (waiting for the creator)';
    count('offer', `offer to answer${waitingFor}`, `offers to answer${waitingFor}`);
    count('terms', `terms sheet to accept${waitingFor}`, `terms sheets to accept${waitingFor}`);
    count('fund', `deal to fund${waitingFor}`, `deals to fund${waitingFor}`);
    count('draft_review', `draft to review${waitingFor}`, `drafts to review${waitingFor}`);
    count('live_confirm', `live link to confirm${waitingFor}`, `live links to confirm${waitingFor}`);
    count('live_link', `live link to submit${waitingFor}`, `live links to submit${waitingFor}`);
    for (const { item, w } of list) {
      if (item.kind === 'changes')
        out.push({
          text: `revision requested: due ${dueDayText(item.dueDate, now)} — ${item.deliverable}, ${title(w)}`,
          dealId: w.app.deal_id,
        });
      if (item.kind === 'draft')
        out.push({
          text: `draft due ${dueDayText(item.dueDate, now)} — ${item.deliverable}, ${title(w)}`,
          dealId: w.app.deal_id,
        });
    }
    return out;
  }

  const mine = lines(on(side), true);
  if (side === 'creator')
    for (const w of works)
      if (w.view.payoutDueAt && w.deal?.escrow_status === 'pending')
        mine.push({
          text: `Payout on hold until ${instantDateText(w.view.payoutDueAt)} — ${title(w)}`,
          dealId: w.app.deal_id,
        });
  return { mine, theirs: lines(on(other), false) };
}
