import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import {
  LEADERBOARD_PERIODS,
  LEADERBOARD_SIZE,
  leaderboardSince,
  type LeaderboardEntry,
  type LeaderboardResponse,
} from '../../src/domain/leaderboard.ts';

const leaderboardQuery = z.object({ period: z.enum(LEADERBOARD_PERIODS).default('all') });
const rewardsQuery = z.object({ userId: z.guid().optional(), status: z.enum(['pending', 'paid']).optional() });

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
  app.get('/referral-leaderboard', async (request) => {
    const claims = await ctx.authenticate(request);
    const parsed = leaderboardQuery.safeParse(request.query);
    if (!parsed.success)
      throw new HttpError(400, 'invalid_period', `period must be one of ${LEADERBOARD_PERIODS.join(', ')}.`);
    const { period } = parsed.data;
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
  });

  app.get('/user-referral-rewards-list', async (request) => {
    const claims = await ctx.authenticate(request);
    const parsed = rewardsQuery.safeParse(request.query);
    if (!parsed.success)
      throw new HttpError(400, 'invalid_query', 'userId must be a user id and status pending or paid.');
    const userId = parsed.data.userId ?? claims.sub;
    // Who may ask comes before whether the user exists, so the answer never tells one id from another.
    if (userId !== claims.sub) {
      const admin = await ctx.db.asUser(
        claims,
        async (tx) => (await tx.query<{ ok: boolean }>('select public.is_admin() as ok')).rows[0]!.ok,
      );
      if (!admin) throw new HttpError(403, 'forbidden', 'Access denied. You do not have permission for this action.');
    }
    const { rows } = await ctx.db.asUser(claims, (tx) =>
      tx.query(
        `select id, referral_id, reward_type, amount_cents, amount_cents / 100.0 as amount, status, issued_at, paid_at
           from public.referral_rewards
          where referrer_id = $1 and not deleted and ($2::text is null or status = $2)
          order by coalesce(paid_at, issued_at) desc, id`,
        [userId, parsed.data.status ?? null],
      ),
    );
    return { rewards: rows.map((r) => ({ ...r, amount: Number(r.amount) })) };
  });

  app.post('/admin/referral-payouts', async (request, reply) => {
    const claims = await ctx.authenticate(request);
    const run = await ctx.db.asUser(claims, async (tx) => {
      if (!(await tx.query<{ ok: boolean }>('select public.is_admin() as ok')).rows[0]!.ok) return null;
      return true;
    });
    if (!run) throw new HttpError(403, 'forbidden', 'Only Pacta staff can run referral payouts.');
    const { rows } = await ctx.db.asService((tx) =>
      tx.query('select id, rewards_paid, amount_cents, ran_at from public.run_referral_payouts(now(), null, $1)', [
        claims.sub,
      ]),
    );
    return reply.status(201).send({ run: rows[0] });
  });

  const job = setInterval(() => {
    runMonthlyReferralPayouts(ctx.db).catch((err: unknown) => app.log.error({ err }, 'referral payout run failed'));
  }, PAYOUT_JOB_INTERVAL_MS);
  job.unref();
  app.addHook('onClose', async () => clearInterval(job));
}
