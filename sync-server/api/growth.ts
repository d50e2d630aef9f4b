import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  getLeaderboard,
  getReferralRewards,
  postReferralPayouts,
  type LeaderboardEntry,
  type LeaderboardResponse,
} from '../../src/domain/contracts/growth.ts';
import type { AppContext } from '../app.ts';
import { requireAdmin } from '../auth/authorization.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import type { Database } from '../db/database.ts';
import { LEADERBOARD_PERIODS, LEADERBOARD_SIZE, leaderboardSince } from '../../src/domain/leaderboard.ts';

type LeaderboardRow = Omit<LeaderboardEntry, 'rank' | 'referrals'> & {
  rank: string | number;
  referrals: string | number;
};

const toEntry = (r: LeaderboardRow): LeaderboardEntry => ({
  ...r,
  rank: Number(r.rank),
  referrals: Number(r.referrals),
});

/** How often the server checks whether this month's referral payout run is due. */
export const PAYOUT_JOB_INTERVAL_MS = 60 * 60 * 1000;

/** The monthly referral payout run (once per month across all instances: the period is unique). */
export async function runMonthlyReferralPayouts(
  db: Database,
): Promise<{ rewards_paid: number; amount_cents: number } | null> {
  const { rows } = await db.asService((tx) =>
    tx.query('select rewards_paid, amount_cents from public.run_monthly_referral_payouts()'),
  );
  return rows[0] ?? null;
}

/**
 * Referral growth endpoints (online only; the screens say so offline):
 * - GET /api/referral-leaderboard?period=week|month|all — top 50 by qualified referrals in the period
 *   (then XP), with the caller's own place (`me`) wherever it is.
 * - GET /api/user-referral-rewards-list?userId=&status=pending|paid — `{ rewards }`, the signed-in
 *   user's own (an admin may ask for anyone's); 403 for another user's id, 401 signed out.
 * - POST /api/admin/referral-payouts — an admin runs the payout of every pending reward now.
 */
export async function growthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(ctx);
  const periodWords = `period must be one of ${LEADERBOARD_PERIODS.join(', ')}.`;
  api.get(
    '/referral-leaderboard',
    {
      schema: getLeaderboard,
      preValidation,
      config: { invalid: { code: 'invalid_period', querystring: periodWords } },
    },
    async (request) => {
      const claims = claimsOf(request);
      const { period } = request.query;
      const since = leaderboardSince(period, new Date());
      const { rows } = await ctx.db.asService((tx) =>
        tx.query<LeaderboardRow & { pos: string }>(
          `select * from (select *, row_number() over (order by rank, user_id) as pos from public.referral_leaderboard($1)) b
          where pos <= $3 or user_id = $2 order by pos`,
          [since?.toISOString() ?? null, claims.sub, LEADERBOARD_SIZE],
        ),
      );
      const strip = ({ pos: _pos, ...r }: LeaderboardRow & { pos: string }) => toEntry(r);
      const mine = rows.find((r) => r.user_id === claims.sub);
      const answer: LeaderboardResponse = {
        period,
        generated_at: new Date().toISOString(),
        entries: rows.filter((r) => Number(r.pos) <= LEADERBOARD_SIZE).map(strip),
        me: mine ? strip(mine) : null,
      };
      return answer;
    },
  );

  const rewardsWords = 'userId must be a user id and status pending or paid.';
  api.get(
    '/user-referral-rewards-list',
    {
      schema: getReferralRewards,
      preValidation,
      config: { invalid: { code: 'invalid_query', querystring: rewardsWords } },
    },
    async (request) => {
      const claims = claimsOf(request);
      const userId = request.query.userId ?? claims.sub;
      // Who may ask comes before whether the user exists, so the answer never tells one id from another.
      if (userId !== claims.sub) await ctx.db.asService((tx) => requireAdmin(tx, claims.sub));
      const { rows } = await ctx.db.asUser(claims, (tx) =>
        tx.query(
          `select id, referral_id, reward_type, amount_cents, amount_cents / 100.0 as amount, status, issued_at, paid_at
           from public.referral_rewards
          where referrer_id = $1 and not deleted and ($2::text is null or status = $2)
          order by coalesce(paid_at, issued_at) desc, id`,
          [userId, request.query.status ?? null],
        ),
      );
      return {
        rewards: rows.map((r) => ({
          ...r,
          amount: Number(r.amount),
          issued_at: (r.issued_at as Date).toISOString(),
          paid_at: (r.paid_at as Date | null)?.toISOString() ?? null,
        })),
      };
    },
  );

  api.post('/admin/referral-payouts', { schema: postReferralPayouts, preValidation }, async (request, reply) => {
    const claims = claimsOf(request);
    const { rows } = await ctx.db.asService(async (tx) => {
      await requireAdmin(tx, claims.sub, 'Only Pacta staff can run referral payouts.');
      return tx.query(
        'select id, rewards_paid, amount_cents, ran_at from public.run_referral_payouts(now(), null, $1)',
        [claims.sub],
      );
    });
    const payout = rows[0]!;
    return reply.status(201).send({ run: { ...payout, ran_at: (payout.ran_at as Date).toISOString() } });
  });

  const job = setInterval(() => {
    runMonthlyReferralPayouts(ctx.db).catch((err: unknown) => app.log.error({ err }, 'referral payout run failed'));
  }, PAYOUT_JOB_INTERVAL_MS);
  job.unref();
  app.addHook('onClose', async () => clearInterval(job));
}
