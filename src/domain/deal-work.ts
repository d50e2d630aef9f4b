/**
 * The deal's work, as both sides show it: the defaults of a terms sheet and the statuses the parties
 * read. The rules themselves run in Postgres (public.deal_events' triggers); the database reads the
 * same defaults (pacta_private.deal_work_defaults), and tests/deals/ compares the two.
 */
import type { ApplicationDocument, DealDocument } from './collections/marketplace.ts';
import type { DeliverableStatus, TermsSheet } from './collections/deal-work.ts';

/** "The revision rounds included (default 2)." */
export const DEFAULT_REVISION_ROUNDS = 2;
/** "Confirmed automatically when the approval window closes (default 72 hours)." */
export const DEFAULT_APPROVAL_WINDOW_HOURS = 72;
/** "Released automatically after a short hold (default 72 hours)." */
export const DEFAULT_PAYOUT_HOLD_HOURS = 72;

/** The sheet the server writes as version 1 when an offer is accepted, from the deal's brief. */
export function defaultTermsSheet(deliverables: readonly string[], dueDate: string): TermsSheet {
  const titles = deliverables.length > 0 ? deliverables : ['Content'];
  return {
    deliverables: titles.map((title, i) => ({ id: `d${i + 1}`, title, due_date: dueDate })),
    usage_rights: 'organic_only',
    usage_days: null,
    exclusivity_days: 0,
    revision_rounds: DEFAULT_REVISION_ROUNDS,
    approval_window_hours: DEFAULT_APPROVAL_WINDOW_HOURS,
    payout_hold_hours: DEFAULT_PAYOUT_HOLD_HOURS,
  };
}

/** What a deliverable's status reads as, word for word on both sides. */
export const DELIVERABLE_STATUS_TEXT: Record<DeliverableStatus, string> = {
  not_started: 'Not started',
  draft_submitted: 'Draft submitted',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  live_submitted: 'Approved',
  live: 'Live',
};

export const OFFER_SENT = 'Offer sent';
export const TERMS_ACCEPTED = 'Terms accepted';

/** 'Payout on hold until {date}', the date as the pages print it. */
export function payoutOnHoldText(date: string): string {
  return `Payout on hold until ${date}`;
}

/**
 * Why the creator cannot submit a draft, or null when they can: "the brand funds the deal before the
 * work starts" — for a creator accepted after the deal was funded, the top-up of their own price
 * (`priceFundedAt`, the application's `price_funded_at`) — and money refunded to the brand ends the
 * work. The same sentences as the server's refusal (pacta_private.deal_event_funded_check).
 */
export function draftBlockedText(
  escrowStatus: DealDocument['escrow_status'],
  priceFundedAt: string | null,
): string | null {
  if (escrowStatus === 'refunded') return 'This deal was refunded to the brand: no more work is submitted.';
  if (escrowStatus === 'none' || priceFundedAt === null)
    return 'The brand funds the deal before the work starts: submit the draft once it is funded.';
  return null;
}

/** The brand's funding is what the accepted creator waits for: the deal's, or a top-up of their price. */
export const waitsForFunding = (
  escrowStatus: DealDocument['escrow_status'],
  app: Pick<ApplicationDocument, 'status' | 'price_funded_at'>,
): boolean =>
  app.status === 'accepted' &&
  (escrowStatus === 'none' || (escrowStatus === 'pending' && app.price_funded_at === null));

type ApplicationState = Pick<
  ApplicationDocument,
  'status' | 'offer_by' | 'terms_version' | 'terms_agreed_version' | 'payout_due_at' | 'delivered_at'
>;

/**
 * Where an application stands, as one status line: 'Offer sent' while an offer waits, 'Terms
 * accepted' once both sides accepted the newest sheet, the payout hold once the work is delivered.
 * `formatDate` prints the hold's end the way the screen prints dates. Undefined: nothing to say.
 */
export function applicationStatusText(app: ApplicationState, formatDate: (iso: string) => string): string | undefined {
  if (app.status === 'pending' && app.offer_by) return OFFER_SENT;
  if (app.status !== 'accepted') return undefined;
  if (app.payout_due_at) return payoutOnHoldText(formatDate(app.payout_due_at));
  if (app.terms_agreed_version > 0 && app.terms_agreed_version === app.terms_version) return TERMS_ACCEPTED;
  return undefined;
}

/** A step that waits on one party of an application, for the dashboard ("2 drafts to review"). */
export type WaitingStep =
  | { step: 'answer_offer' }
  | { step: 'accept_terms'; version: number }
  | { step: 'review_draft'; deliverableId: string }
  | { step: 'confirm_live'; deliverableId: string; confirmDueAt: string | null }
  | { step: 'submit_draft'; deliverableId: string }
  | { step: 'revise_draft'; deliverableId: string }
  | { step: 'submit_live_link'; deliverableId: string };

type WorkState = Pick<
  ApplicationDocument,
  'status' | 'offer_by' | 'terms_version' | 'terms_accepted_by' | 'terms_agreed_version' | 'work'
>;

/**
 * What waits on `party` in this application, from the state the server keeps: an offer of the other
 * side to answer, terms to accept, drafts to review and live links to confirm (the brand), drafts to
 * submit or revise and live links to post (the creator).
 */
export function whatWaitsOn(app: WorkState, party: 'creator' | 'brand'): WaitingStep[] {
  if (app.status === 'pending') return app.offer_by && app.offer_by !== party ? [{ step: 'answer_offer' }] : [];
  if (app.status !== 'accepted') return [];
  const steps: WaitingStep[] = [];
  if (app.terms_version > app.terms_agreed_version && !app.terms_accepted_by.includes(party))
    steps.push({ step: 'accept_terms', version: app.terms_version });
  if (app.terms_agreed_version === 0) return steps;
  for (const [deliverableId, w] of Object.entries(app.work)) {
    if (party === 'brand') {
      if (w.status === 'draft_submitted') steps.push({ step: 'review_draft', deliverableId });
      if (w.status === 'live_submitted')
        steps.push({ step: 'confirm_live', deliverableId, confirmDueAt: w.confirm_due_at });
    } else {
      if (w.status === 'not_started') steps.push({ step: 'submit_draft', deliverableId });
      if (w.status === 'changes_requested') steps.push({ step: 'revise_draft', deliverableId });
      if (w.status === 'approved') steps.push({ step: 'submit_live_link', deliverableId });
    }
  }
  return steps;
}
