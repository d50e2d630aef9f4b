import { z } from 'zod';
import { jsonObject, syncColumns, uuid } from './fields.ts';

/** Which growth table a growth document comes from. */
export const GROWTH_KINDS = ['xp_log', 'referral', 'referral_badge', 'referral_reward'] as const;
export type GrowthKind = (typeof GROWTH_KINDS)[number];

/**
 * Server-generated per-user growth records (xp log, referrals made, badges, rewards), one read-only
 * collection so the client stays under RxDB's collection limit. `data` holds the source row's own
 * columns (e.g. `xp_gained`, `badge_type`, `amount_cents`); `user_id` is the owner (the referrer
 * for referrals and rewards).
 */
export const growthDocument = z.object({
  id: uuid,
  user_id: uuid,
  kind: z.enum(GROWTH_KINDS),
  data: jsonObject,
  ...syncColumns,
});
export type GrowthDocument = z.infer<typeof growthDocument>;
