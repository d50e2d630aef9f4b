import { z } from 'zod';
import { cents, stringList, syncColumns, timestamp, uuid } from './fields.ts';

/**
 * The deal's work is a log: offers, counter-offers, terms and their acceptances, drafts, reviews of
 * drafts, live links and confirmations are events, one document each, appended by either party and
 * never edited. The server checks each against the state derived from the earlier ones and keeps that
 * state on the application (agreed price, terms version, each deliverable's status, the clocks).
 * Appending needs no merge, so two offline devices cannot conflict: the later of two contradicting
 * events is refused on arrival.
 */

/** A calendar day, 'YYYY-MM-DD' (due dates are days, not instants). */
export const isoDate = z.iso.date();

export const DEAL_EVENT_KINDS = [
  /** A price (and due date) proposed by either side; the creator's first is the application's own. */
  'offer',
  /** The other side accepts the offer on the table (`ref_id`): the creator's price is fixed. */
  'offer_accepted',
  /** A version of the terms sheet (`terms`, `terms_version`); the server writes version 1 on acceptance. */
  'terms',
  /** One side accepts a version (`terms_version`); both sides accepting makes it the agreed one. */
  'terms_accepted',
  /** The other side declines a proposed version (`terms_version`): the version in force stays. */
  'terms_declined',
  /** The creator submits a draft of a deliverable (`deliverable_id`, `note`, `links`, `files`). */
  'draft',
  /** The brand asks for changes to a draft (`ref_id` = the draft, `note` = the comments): one round. */
  'changes_requested',
  /** The brand approves a draft (`ref_id` = the draft). */
  'approved',
  /** The creator agrees to more revision rounds on a deliverable (`rounds`). */
  'extra_rounds',
  /** The creator posted the approved content: the live link (`links[0]`). */
  'live_link',
  /** The brand confirms the live link (`ref_id`), or the server does when the approval window closes. */
  'live_confirmed',
] as const;
export type DealEventKind = (typeof DEAL_EVENT_KINDS)[number];

export const USAGE_RIGHTS = ['organic_only', 'paid_ads', 'perpetual'] as const;
export type UsageRights = (typeof USAGE_RIGHTS)[number];

export const termsDeliverable = z.object({
  /** Stable within the deal's sheets ('d1', 'd2', …): submissions name it. */
  id: z.string().min(1).max(40),
  title: z.string().min(1).max(200),
  due_date: isoDate,
});
export type TermsDeliverable = z.infer<typeof termsDeliverable>;

/** The terms sheet: what both sides accept, versioned; the record a creator can show. */
export const termsSheet = z.object({
  deliverables: z.array(termsDeliverable).min(1).max(20),
  usage_rights: z.enum(USAGE_RIGHTS),
  /** How long paid-ads usage lasts (30 or 90 days, or another count); null for organic only or perpetual. */
  usage_days: z.number().int().min(1).max(3650).nullable(),
  /** Days after the deal in which the creator does not promote a competitor; 0 = none. */
  exclusivity_days: z.number().int().min(0).max(365),
  /** Change requests included per deliverable. */
  revision_rounds: z.number().int().min(0).max(10),
  /** Hours the brand has to confirm a live link before it is confirmed automatically. */
  approval_window_hours: z.number().int().min(1).max(720),
  /** Hours between the work being done and the payout's automatic release. */
  payout_hold_hours: z.number().int().min(0).max(720),
});
export type TermsSheet = z.infer<typeof termsSheet>;

export const dealEventDocument = z.object({
  id: uuid,
  application_id: uuid,
  /** The application's deal (checked by the server; the audience and RLS follow it). */
  deal_id: uuid,
  /** The party who appended it (the signed-in user); null for what the server did on its own. */
  author_id: uuid.nullable().default(null),
  kind: z.enum(DEAL_EVENT_KINDS),
  price_cents: cents.nullable().default(null),
  due_date: isoDate.nullable().default(null),
  terms: termsSheet.nullable().default(null),
  terms_version: z.number().int().min(1).nullable().default(null),
  deliverable_id: z.string().max(40).nullable().default(null),
  /** The earlier event this one answers: the offer accepted, the draft reviewed, the live link confirmed. */
  ref_id: uuid.nullable().default(null),
  note: z.string().default(''),
  /** Links of a draft (e.g. a private video link), or the live link as the only entry. */
  links: stringList.default([]),
  /** Storage object paths of files attached to a draft. */
  files: stringList.default([]),
  rounds: z.number().int().min(1).nullable().default(null),
  ...syncColumns,
});
export type DealEventDocument = z.infer<typeof dealEventDocument>;

export const OFFER_PARTIES = ['creator', 'brand'] as const;
export type OfferParty = (typeof OFFER_PARTIES)[number];

export const DELIVERABLE_STATUSES = [
  'not_started',
  'draft_submitted',
  'changes_requested',
  'approved',
  'live_submitted',
  'live',
] as const;
export type DeliverableStatus = (typeof DELIVERABLE_STATUSES)[number];

/** One deliverable's progress, kept by the server on the application (`work[deliverable_id]`). */
export const deliverableWork = z.object({
  status: z.enum(DELIVERABLE_STATUSES),
  /** Change requests made so far; each counts against the included rounds. */
  rounds_used: z.number().int().min(0),
  /** Rounds included by the terms plus the extra rounds the creator agreed to. */
  rounds_included: z.number().int().min(0),
  /** The newest draft (the one to review), and the live-link event once submitted. */
  draft_id: uuid.nullable(),
  live_id: uuid.nullable(),
  live_url: z.string().nullable(),
  /** When the live link is confirmed automatically if the brand has not confirmed it. */
  confirm_due_at: timestamp.nullable(),
});
export type DeliverableWork = z.infer<typeof deliverableWork>;
