import { z } from 'zod';
import { deliverableWork, isoDate, OFFER_PARTIES } from './deal-work.ts';
import { cents, count, stringList, syncColumns, timestamp, uuid } from './fields.ts';

export const DEAL_STATUSES = ['open', 'in_progress', 'completed', 'cancelled'] as const;
export const ESCROW_STATUSES = ['none', 'pending', 'released', 'refunded', 'disputed'] as const;
export const APPLICATION_STATUSES = ['pending', 'accepted', 'rejected', 'withdrawn'] as const;
export const DEAL_TIMELINES = ['1 week', '2 weeks', '1 month', '2 months', '3+ months'] as const;
export const PAYOUT_FORMATS = ['fixed', 'performance', 'commission'] as const;

export const dealDocument = z.object({
  id: uuid,
  brand_id: uuid,
  title: z.string(),
  description: z.string(),
  amount_cents: cents,
  budget_cents: cents.nullable().default(null),
  requirements: stringList.default([]),
  deadline: z.string().nullable().default(null),
  category: z.string().nullable().default(null),
  niches: stringList,
  platforms: stringList.default([]),
  deliverables: stringList.default([]),
  timeline: z.enum(DEAL_TIMELINES).nullable().default(null),
  brand_guidelines: z.string().nullable().default(null),
  target_audience: z.string().nullable().default(null),
  key_messaging: z.string().nullable().default(null),
  product_url: z.string().nullable().default(null),
  pro_only: z.boolean().default(false),
  status: z.enum(DEAL_STATUSES).default('open'),
  payout_format: z.enum(PAYOUT_FORMATS).default('fixed'),
  is_campaign: z.boolean().default(false),
  max_creators: z.number().int().min(1).nullable().default(null),
  performance_rate: z.number().min(0).nullable().default(null),
  selected_creator_ids: z.array(uuid).default([]),
  winner_id: uuid.nullable().default(null),
  completed_at: timestamp.nullable().default(null),
  escrow_status: z.enum(ESCROW_STATUSES).default('none'),
  applications_count: count.default(0),
  ...syncColumns,
});
export type DealDocument = z.infer<typeof dealDocument>;

export const applicationDocument = z.object({
  id: uuid,
  deal_id: uuid,
  creator_id: uuid,
  status: z.enum(APPLICATION_STATUSES).default('pending'),
  pitch: z.string().default(''),
  /** The status of the deal applied to, kept by the server (My Deals counts and filters by it). */
  deal_status: z.enum(DEAL_STATUSES).default('open'),
  /** The creator's proposed price; null: the deal's amount (kept as sent). Later changes are offers. */
  proposed_price_cents: cents.nullable().default(null),
  // Server-kept state derived from the deal's work log (deal_events), below.
  /** The offer on the table and whose it is (the other side may accept it); null once agreed. */
  offer_price_cents: cents.nullable().default(null),
  offer_due_date: isoDate.nullable().default(null),
  offer_by: z.enum(OFFER_PARTIES).nullable().default(null),
  /** The event of the offer on the table (null: the application's own proposed price). */
  offer_id: uuid.nullable().default(null),
  /** Fixed when an offer is accepted: escrow funds this price and fees are computed from it. */
  agreed_price_cents: cents.nullable().default(null),
  agreed_due_date: isoDate.nullable().default(null),
  /** The newest version of the terms sheet (0: none yet) and who has accepted that version. */
  terms_version: z.number().int().min(0).default(0),
  terms_accepted_by: z.array(z.enum(OFFER_PARTIES)).default([]),
  /** The newest version both sides accepted (0: none): the terms in force. */
  terms_agreed_version: z.number().int().min(0).default(0),
  /** Each deliverable of the agreed terms and its progress, by deliverable id. */
  work: z.record(z.string(), deliverableWork).default({}),
  /** When every deliverable was approved and live. */
  delivered_at: timestamp.nullable().default(null),
  /** When the payout is released automatically (the hold's end); null while none runs or a dispute stops it. */
  payout_due_at: timestamp.nullable().default(null),
  /**
   * When escrow took this creator's agreed price (null: not yet). A creator accepted after the deal was
   * funded waits for the brand's top-up: no draft before it.
   */
  price_funded_at: timestamp.nullable().default(null),
  ...syncColumns,
});
export type ApplicationDocument = z.infer<typeof applicationDocument>;

export const reviewDocument = z.object({
  id: uuid,
  deal_id: uuid,
  reviewer_id: uuid,
  reviewee_id: uuid,
  rating: z.number().int().min(1).max(5),
  content: z.string().default(''),
  /** When others may read it (blind reviews): the window's end, or when the other side's review arrived. */
  published_at: timestamp.nullable().default(null),
  ...syncColumns,
});
export type ReviewDocument = z.infer<typeof reviewDocument>;
