import type { Locator, Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** /referrals/leaderboard */
export class LeaderboardPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly ownRow: Locator;
  readonly ownRank: Locator;
  readonly offlineNotice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Referral Leaderboard' });
    this.table = page.getByRole('table');
    this.ownRow = this.table.locator('tr[aria-current="true"]');
    this.ownRank = page.getByTestId('own-rank');
    this.offlineNotice = page.getByRole('status').filter({ hasText: 'the leaderboard needs a connection' });
  }

  period(name: 'This week' | 'This month' | 'All time'): Locator {
    return this.page.getByRole('group', { name: 'Period' }).getByRole('button', { name });
  }

  /** The row of a member, by the name the board shows. */
  row(name: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: false }) });
  }
}

/** /referrals/payouts */
export class PayoutsPage {
  readonly heading: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Referral payouts' });
    this.rows = page.getByRole('table').locator('tbody tr');
  }

  filter(name: 'All' | 'Pending' | 'Paid'): Locator {
    return this.page.getByRole('group', { name: 'Status' }).getByRole('button', { name });
  }
}

/**
 * `count` people who signed up through `referrerEmail`'s link (the sign-up trigger records the
 * referral) and whose referral qualified `daysAgo` days ago — written as the server, as the growth
 * rules would have done when each of them got a deal.
 */
export async function seedQualifiedReferrals(referrerEmail: string, count: number, daysAgo: number): Promise<void> {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string; referral_code: string }>(
      'select p.id, p.referral_code from public.profiles p join auth.users u on u.id = p.id where u.email = $1',
      [referrerEmail],
    );
    const referrer = rows[0]!;
    await client.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
              'referred-' || gen_random_uuid() || '@example.test', '', now(),
              jsonb_build_object('role', 'creator', 'full_name', 'Referred creator', 'ref', $1::text)
       from generate_series(1, $2::int)`,
      [referrer.referral_code, count],
    );
    await client.query(
      `update public.referrals set qualified = true, qualified_at = now() - make_interval(days => $2::int)
        where referrer_id = $1 and not qualified`,
      [referrer.id, daysAgo],
    );
  });
}

/** Referral rewards for the user (as the server issues them), paid ones with their payout date. */
export async function seedRewards(
  referrerEmail: string,
  rewards: { type: string; cents: number; status: 'pending' | 'paid'; daysAgo: number }[],
): Promise<void> {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>('select id from auth.users where email = $1', [referrerEmail]);
    for (const r of rewards) {
      await client.query(
        `insert into public.referral_rewards (referrer_id, reward_type, amount_cents, status, issued_at, paid_at)
         values ($1, $2, $3, $4, now() - make_interval(days => $5::int), case when $4 = 'paid' then now() - make_interval(days => $5::int - 1) end)`,
        [rows[0]!.id, r.type, r.cents, r.status, r.daysAgo],
      );
    }
  });
}

/** Gives the user XP just below a level threshold (as the server), so the next award crosses it. */
export async function setXp(email: string, xp: number): Promise<void> {
  await withE2eDatabase((client) =>
    client.query(
      `update public.profiles set xp = $2, level = public.level_for_xp($2) where id = (select id from auth.users where email = $1)`,
      [email, xp],
    ),
  );
}

/** `count` new members who each referred one person whose referral qualified `daysAgo` days ago (as the server). */
export async function seedTopReferrers(count: number, daysAgo: number): Promise<void> {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
              'referrer-' || gen_random_uuid() || '@example.test', '', now(), '{"role": "creator", "full_name": "Busy referrer"}'::jsonb
       from generate_series(1, $1::int) returning id`,
      [count],
    );
    for (const { id } of rows) {
      const code = (
        await client.query<{ referral_code: string }>('select referral_code from public.profiles where id = $1', [id])
      ).rows[0]!.referral_code;
      await client.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                 'referred-' || gen_random_uuid() || '@example.test', '', now(),
                 jsonb_build_object('role', 'creator', 'full_name', 'Referred creator', 'ref', $1::text))`,
        [code],
      );
    }
    await client.query(
      `update public.referrals set qualified = true, qualified_at = now() - make_interval(days => $2::int)
        where referrer_id = any($1::uuid[]) and not qualified`,
      [rows.map((r) => r.id), daysAgo],
    );
  });
}
