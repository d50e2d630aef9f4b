import { z } from 'zod';
import { portfolioMediaItem } from '../media.ts';
import { cents, count, jsonObject, stringList, syncColumns, timestamp, uuid } from './fields.ts';

export const PROFILE_ROLES = ['creator', 'brand', 'admin'] as const;
export const PRO_TIERS = ['free', 'basic', 'premium'] as const;
/** `blocked_users`: the people the user blocked (ids); they cannot message the user or apply to the user's deals. */
export const SAVED_LIST_KINDS = [
  'shortlist',
  'saved_campaigns',
  'skipped_deals',
  'campaign_invites',
  'blocked_users',
] as const;
export const DRAFT_KINDS = ['campaign_brief', 'deal', 'message'] as const;

export const profileDocument = z.object({
  id: uuid,
  role: z.enum(PROFILE_ROLES).default('creator'),
  full_name: z.string().default(''),
  username: z.string().nullable().default(null),
  avatar_url: z.string().nullable().default(null),
  bio: z.string().default(''),
  niches: stringList.default([]),
  region: z.string().nullable().default(null),
  platforms: stringList.default([]),
  followers: count.default(0),
  engagement_rate: z.number().min(0).max(1).default(0),
  min_deal_amount_cents: cents.nullable().default(null),
  max_deal_amount_cents: cents.nullable().default(null),
  social_links: jsonObject.default({}),
  /** A creator's portfolio images and short videos, in the order shown. */
  portfolio_media: z.array(portfolioMediaItem).default([]),
  verified: z.boolean().default(false),
  email_verified: z.boolean().default(false),
  rating: z.number().default(0),
  total_deals: count.default(0),
  completed_deals: count.default(0),
  pro_tier: z.enum(PRO_TIERS).default('free'),
  pro_since: timestamp.nullable().default(null),
  pro_until: timestamp.nullable().default(null),
  /** Granted Pro features and when each ends (null: never), mirrored from user_pro_features by the database. */
  granted_pro_features: jsonObject.default({}),
  referral_code: z.string().nullable().default(null),
  xp: count.default(0),
  level: z.number().int().min(1).max(20).default(1),
  referrals_count: count.default(0),
  ...syncColumns,
});
export type ProfileDocument = z.infer<typeof profileDocument>;

/** One row per user and kind; clients derive the id from (user_id, kind) so devices converge. */
export const savedListDocument = z.object({
  id: uuid,
  user_id: uuid,
  kind: z.enum(SAVED_LIST_KINDS),
  items: stringList.default([]),
  ...syncColumns,
});
export type SavedListDocument = z.infer<typeof savedListDocument>;

export const draftDocument = z.object({
  id: uuid,
  user_id: uuid,
  kind: z.enum(DRAFT_KINDS),
  title: z.string().default(''),
  payload: jsonObject.default({}),
  ...syncColumns,
});
export type DraftDocument = z.infer<typeof draftDocument>;
