import type {
  ApplicationDocument,
  DealDocument,
  DealEventDocument,
  DeliverableStatus,
  DeliverableWork,
  OfferParty,
  TermsSheet,
} from './collections/index.ts';
import {
  DELIVERABLE_STATUS_TEXT,
  draftBlockedText,
  waitsForFunding,
  OFFER_SENT,
  payoutOnHoldText,
  TERMS_ACCEPTED,
} from './deal-work.ts';
import { formatUsd } from './fees.ts';
import { endSentence } from './end-sentence.ts';

/**
 * One application's work as a screen shows it: the server's state on the application, with this
 * device's own events that have not synced yet played on top (written offline, they show at once; the
 * server re-checks them on arrival and a refused one says why in the timeline).
 */
export type WorkView = {
  /** The offer on the table (null once the price is agreed or the application closed). */
  offer: { priceCents: number; dueDate: string | null; by: OfferParty; id: string | null } | null;
  agreed: { priceCents: number; dueDate: string | null } | null;
  /**
   * The newest terms sheet, who accepted it and who declined it (a declined version leaves the one in
   * force as it was); null until the server writes version 1.
   */
  terms: { version: number; sheet: TermsSheet; acceptedBy: OfferParty[]; declinedBy: OfferParty | null } | null;
  termsAgreedVersion: number;
  /** Every version of the sheet, oldest first: both sides see them all. */
  termsVersions: { version: number; sheet: TermsSheet; by: OfferParty | 'server'; declined: boolean }[];
  deliverables: DeliverableView[];
  deliveredAt: string | null;
  payoutDueAt: string | null;
};

export type DeliverableView = {
  id: string;
  title: string;
  dueDate: string;
  status: DeliverableStatus;
  roundsUsed: number;
  roundsIncluded: number;
  /** The draft to review (or the newest one) and the newest request for changes. */
  draft: DealEventDocument | null;
  changes: DealEventDocument | null;
  liveId: string | null;
  liveUrl: string | null;
  confirmDueAt: string | null;
};

const byTime = (a: DealEventDocument, b: DealEventDocument) =>
  (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id.localeCompare(b.id);

/** A document this device wrote that the server has not stamped yet. */
export const isUnsynced = (doc: { version?: number | null | undefined }) =>
  doc.version === undefined || doc.version === null;

/** Whose event it is: the creator, the brand (or staff on its behalf), or the server itself. */
export function partyOf(app: Pick<ApplicationDocument, 'creator_id'>, ev: DealEventDocument): OfferParty | 'server' {
  if (ev.author_id === null) return 'server';
  return ev.author_id === app.creator_id ? 'creator' : 'brand';
}

function emptyWork(rounds: number): DeliverableWork {
  return {
    status: 'not_started',
    rounds_used: 0,
    rounds_included: rounds,
    draft_id: null,
    live_id: null,
    live_url: null,
    confirm_due_at: null,
  };
}

export function workView(app: ApplicationDocument, events: readonly DealEventDocument[]): WorkView {
  const sorted = [...events].filter((e) => e.application_id === app.id && !e.sync_rejection).sort(byTime);
  const byId = new Map(sorted.map((e) => [e.id, e]));
  let offer: WorkView['offer'] =
    app.offer_by && app.offer_price_cents !== null
      ? { priceCents: app.offer_price_cents, dueDate: app.offer_due_date, by: app.offer_by, id: app.offer_id }
      : null;
  let agreed: WorkView['agreed'] =
    app.agreed_price_cents !== null ? { priceCents: app.agreed_price_cents, dueDate: app.agreed_due_date } : null;
  // A pending application synced before its offer fields existed: the creator's proposed price is on the table.
  if (!offer && !agreed && app.status === 'pending' && app.proposed_price_cents !== null)
    offer = { priceCents: app.proposed_price_cents, dueDate: null, by: 'creator', id: null };

  const sheets = new Map<number, TermsSheet>();
  const termsVersions: WorkView['termsVersions'] = [];
  for (const e of sorted)
    if (e.kind === 'terms' && e.terms && e.terms_version) {
      sheets.set(e.terms_version, e.terms);
      const v = e.terms_version;
      const declined = sorted.some((d) => d.kind === 'terms_declined' && d.terms_version === v);
      termsVersions.push({ version: v, sheet: e.terms, by: partyOf(app, e), declined });
    }
  termsVersions.sort((a, b) => a.version - b.version);
  let termsVersion = app.terms_version;
  let acceptedBy = [...app.terms_accepted_by];
  let termsAgreedVersion = app.terms_agreed_version;
  const work: Record<string, DeliverableWork> = structuredClone(app.work);

  const agreedSheet = () => sheets.get(termsAgreedVersion) ?? null;
  const workOf = (id: string) => (work[id] ??= emptyWork(agreedSheet()?.revision_rounds ?? 0));

  // Play this device's unsynced events on top of the server's state, as the server will.
  for (const e of sorted) {
    if (!isUnsynced(e)) continue;
    const party = partyOf(app, e);
    if (party === 'server') continue;
    switch (e.kind) {
      case 'offer':
        if (e.price_cents !== null) offer = { priceCents: e.price_cents, dueDate: e.due_date, by: party, id: e.id };
        break;
      case 'offer_accepted':
        if (offer) agreed = { priceCents: offer.priceCents, dueDate: offer.dueDate };
        offer = null;
        break;
      case 'terms':
        if (e.terms_version) {
          termsVersion = e.terms_version;
          acceptedBy = [party];
        }
        break;
      case 'terms_accepted':
        if (e.terms_version === termsVersion && !acceptedBy.includes(party)) acceptedBy = [...acceptedBy, party];
        if (acceptedBy.length === 2) termsAgreedVersion = termsVersion;
        break;
      case 'draft':
        if (e.deliverable_id) Object.assign(workOf(e.deliverable_id), { status: 'draft_submitted', draft_id: e.id });
        break;
      case 'changes_requested':
        if (e.deliverable_id) {
          const w = workOf(e.deliverable_id);
          Object.assign(w, { status: 'changes_requested', rounds_used: w.rounds_used + 1 });
        }
        break;
      case 'approved':
        if (e.deliverable_id) workOf(e.deliverable_id).status = 'approved';
        break;
      case 'extra_rounds':
        if (e.deliverable_id) workOf(e.deliverable_id).rounds_included += e.rounds ?? 0;
        break;
      case 'live_link':
        if (e.deliverable_id)
          Object.assign(workOf(e.deliverable_id), {
            status: 'live_submitted',
            live_id: e.id,
            live_url: e.links[0] ?? null,
          });
        break;
      case 'live_confirmed':
        if (e.deliverable_id) workOf(e.deliverable_id).status = 'live';
        break;
    }
  }

  const newest = sheets.get(termsVersion);
  const decline = sorted.find((e) => e.kind === 'terms_declined' && e.terms_version === termsVersion);
  const declinedBy = decline ? partyOf(app, decline) : 'server';
  const terms = newest
    ? { version: termsVersion, sheet: newest, acceptedBy, declinedBy: declinedBy === 'server' ? null : declinedBy }
    : null;
  const sheet = sheets.get(termsAgreedVersion);
  const deliverables: DeliverableView[] = (sheet?.deliverables ?? []).map((d) => {
    const w = work[d.id] ?? emptyWork(sheet?.revision_rounds ?? 0);
    const forThis = sorted.filter((e) => e.deliverable_id === d.id);
    const drafts = forThis.filter((e) => e.kind === 'draft');
    const changes = forThis.filter((e) => e.kind === 'changes_requested');
    return {
      id: d.id,
      title: d.title,
      dueDate: d.due_date,
      status: w.status,
      roundsUsed: w.rounds_used,
      roundsIncluded: w.rounds_included,
      draft: (w.draft_id ? byId.get(w.draft_id) : undefined) ?? drafts[drafts.length - 1] ?? null,
      changes: changes[changes.length - 1] ?? null,
      liveId: w.live_id,
      liveUrl: w.live_url,
      confirmDueAt: w.confirm_due_at,
    };
  });
  return {
    offer,
    agreed,
    terms,
    termsAgreedVersion,
    termsVersions,
    deliverables,
    deliveredAt: app.delivered_at,
    payoutDueAt: app.payout_due_at,
  };
}

/** A version of the terms waits for an answer: newer than the one in force, and not declined. */
export function termsOpen(view: Pick<WorkView, 'terms' | 'termsAgreedVersion'>): boolean {
  return !!view.terms && view.terms.version !== view.termsAgreedVersion && !view.terms.declinedBy;
}

/** What waits, and on whom: the dashboard's lines and the deal page's "Next" are made of these. */
export type WaitingItem =
  | { on: OfferParty; kind: 'offer'; priceCents: number }
  | { on: OfferParty; kind: 'terms' }
  | { on: 'brand'; kind: 'fund' }
  | { on: 'brand'; kind: 'draft_review'; deliverable: string }
  | { on: 'creator'; kind: 'changes'; deliverable: string; dueDate: string }
  | { on: 'creator'; kind: 'draft'; deliverable: string; dueDate: string }
  | { on: 'creator'; kind: 'live_link'; deliverable: string }
  | { on: 'brand'; kind: 'live_confirm'; deliverable: string; confirmDueAt: string | null };

/**
 * `escrowStatus` is the deal's, when known: "the brand funds the deal before the work starts", so
 * with terms agreed and nothing funded the deal waits on the brand, not on the creator's draft.
 */
export function waitingItems(
  app: ApplicationDocument,
  view: WorkView,
  escrowStatus?: DealDocument['escrow_status'],
): WaitingItem[] {
  if (app.status === 'rejected' || app.status === 'withdrawn') return [];
  const items: WaitingItem[] = [];
  if (app.status === 'pending' && view.offer)
    items.push({
      on: view.offer.by === 'creator' ? 'brand' : 'creator',
      kind: 'offer',
      priceCents: view.offer.priceCents,
    });
  if (app.status !== 'accepted') return items;
  if (view.terms && termsOpen(view))
    for (const party of ['creator', 'brand'] as const)
      if (!view.terms.acceptedBy.includes(party)) items.push({ on: party, kind: 'terms' });
  if (view.termsAgreedVersion === 0) return items;
  // Nothing funded yet, or this creator joined a funded deal and waits for the top-up of their price.
  if (escrowStatus !== undefined && waitsForFunding(escrowStatus, app)) items.push({ on: 'brand', kind: 'fund' });
  const draftBlocked = escrowStatus !== undefined && draftBlockedText(escrowStatus, app.price_funded_at) !== null;
  for (const d of view.deliverables) {
    if (draftBlocked && (d.status === 'changes_requested' || d.status === 'not_started')) continue;
    if (d.status === 'draft_submitted') items.push({ on: 'brand', kind: 'draft_review', deliverable: d.title });
    else if (d.status === 'changes_requested')
      items.push({ on: 'creator', kind: 'changes', deliverable: d.title, dueDate: d.dueDate });
    else if (d.status === 'not_started')
      items.push({ on: 'creator', kind: 'draft', deliverable: d.title, dueDate: d.dueDate });
    else if (d.status === 'approved') items.push({ on: 'creator', kind: 'live_link', deliverable: d.title });
    else if (d.status === 'live_submitted')
      items.push({ on: 'brand', kind: 'live_confirm', deliverable: d.title, confirmDueAt: d.confirmDueAt });
  }
  return items;
}

/**
 * The application's status in the words both sides see ('Offer sent', 'Terms accepted', a
 * deliverable's status, 'Payout on hold until {date}'); null when the application's own status says it.
 */
export function workStatusText(
  app: ApplicationDocument,
  view: WorkView,
  formatDate: (iso: string) => string,
): string | null {
  if (app.status === 'pending') return view.offer ? OFFER_SENT : null;
  if (app.status !== 'accepted') return null;
  if (view.payoutDueAt) return payoutOnHoldText(formatDate(view.payoutDueAt));
  if (view.termsAgreedVersion === 0 || termsOpen(view)) return view.terms ? 'Terms to accept' : 'Offer accepted';
  // The deliverable that is furthest behind speaks for the work.
  const order: DeliverableStatus[] = [
    'changes_requested',
    'draft_submitted',
    'not_started',
    'approved',
    'live_submitted',
    'live',
  ];
  const behind = [...view.deliverables].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status))[0];
  if (!behind || behind.status === 'not_started') return TERMS_ACCEPTED;
  return DELIVERABLE_STATUS_TEXT[behind.status];
}

/** One line of the deal's timeline, in words. */
export function timelineText(
  app: ApplicationDocument,
  ev: DealEventDocument,
  names: { creator: string; brand: string },
  sheetTitles: ReadonlyMap<string, string>,
  formatDay: (date: string) => string,
): string {
  const party = partyOf(app, ev);
  const who = party === 'server' ? 'Pacta' : names[party];
  const title = (ev.deliverable_id && sheetTitles.get(ev.deliverable_id)) || 'the content';
  switch (ev.kind) {
    case 'offer':
      return `${who} made an offer: ${formatUsd(ev.price_cents ?? 0)}${ev.due_date ? `, due ${formatDay(ev.due_date)}` : ''}.`;
    case 'offer_accepted':
      return `${who} accepted the offer.`;
    case 'terms':
      return party === 'server'
        ? `Terms sheet version ${ev.terms_version ?? 1} written from the brief.`
        : `${who} proposed terms version ${ev.terms_version ?? ''}.`;
    case 'terms_accepted':
      return `${who} accepted the terms (version ${ev.terms_version ?? ''}).`;
    case 'terms_declined':
      return `${who} declined terms version ${ev.terms_version ?? ''}.`;
    case 'draft':
      return endSentence(`${who} submitted a draft of ${title}`);
    case 'changes_requested':
      return endSentence(`${who} requested changes to ${title}`);
    case 'approved':
      return endSentence(`${who} approved ${title}`);
    case 'extra_rounds':
      return endSentence(
        `${who} agreed to ${ev.rounds ?? 1} more revision round${ev.rounds === 1 ? '' : 's'} on ${title}`,
      );
    case 'live_link':
      return endSentence(`${who} submitted the live link of ${title}`);
    case 'live_confirmed':
      return party === 'server'
        ? `The live link of ${title} was confirmed automatically: the approval window closed.`
        : endSentence(`${who} confirmed the live link of ${title}`);
  }
}

export function sortedEvents(app: ApplicationDocument, events: readonly DealEventDocument[]): DealEventDocument[] {
  return events.filter((e) => e.application_id === app.id).sort(byTime);
}
