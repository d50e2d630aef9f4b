import { z } from 'zod';
import { LEADERBOARD_PERIODS } from '../leaderboard.ts';

/** Referral growth under /api (online only; the screens say so offline). */

const leaderboardEntry = z.object({
  rank: z.number().int(),
  user_id: z.guid(),
  username: z.string().nullable(),
  full_name: z.string(),
  /** Qualified referrals in the period. */
  referrals: z.number().int(),
  is_pro: z.boolean(),
  xp: z.number().int(),
  level: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;

export const getLeaderboard = {
  summary: 'The top 50 by qualified referrals in the period (then XP), and the caller’s own place',
  querystring: z.object({ period: z.enum(LEADERBOARD_PERIODS).default('all') }),
  response: {
    200: z.object({
      period: z.enum(LEADERBOARD_PERIODS),
      generated_at: z.string(),
      entries: z.array(leaderboardEntry),
      /** The signed-in user's own place, in or outside the top 50 (null for admins, who are not ranked). */
      me: leaderboardEntry.nullable(),
    }),
  },
};
export type LeaderboardResponse = z.infer<(typeof getLeaderboard.response)[200]>;

export const getReferralRewards = {
  summary: "The signed-in user's referral rewards (staff may ask for anyone's)",
  querystring: z.object({ userId: z.guid().optional(), status: z.enum(['pending', 'paid']).optional() }),
  response: {
    200: z.object({
      rewards: z.array(
        z.object({
          id: z.guid(),
          referral_id: z.guid().nullable(),
          reward_type: z.string(),
          amount_cents: z.number().int(),
          amount: z.number(),
          status: z.enum(['pending', 'paid']),
          issued_at: z.string(),
          paid_at: z.string().nullable(),
        }),
      ),
    }),
  },
};

export const postReferralPayouts = {
  summary: 'Staff pay every pending referral reward now',
  response: {
    201: z.object({
      run: z.object({
        id: z.guid(),
        rewards_paid: z.number().int(),
        amount_cents: z.number().int(),
        ran_at: z.string(),
      }),
    }),
  },
};
