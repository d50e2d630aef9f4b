import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import {
  COMMISSION_BP,
  MIN_DEAL_AMOUNT_CENTS,
  PRO_COMMISSION_BP,
  PRO_MONTHLY_PRICE_CENTS,
  PRO_TRIAL_DAYS,
  PRO_YEARLY_PRICE_CENTS,
  SERVICE_FEE_BP,
  percentOfCents,
} from '../../src/domain/fees.ts';
import { MAX_DEAL_NICHES, NICHES } from '../../src/domain/niches.ts';
import { isProNow, type ProMembership } from '../../src/domain/pro.ts';
import { LEVEL_THRESHOLDS, MAX_LEVEL, XP_AWARDS } from '../../src/domain/xp.ts';
import { apply, asServer, asUser, makeDeal, makeUser } from '../support/rules-fixtures.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Every constant and rule that both src/domain and the database hold, compared: the TypeScript side is
// the source, so when one side changes without the other this test names what differs.

let db: Database;
let drop: () => Promise<void>;
let brand: string;
let creator: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  [brand, creator] = await Promise.all([makeUser(db, 'brand'), makeUser(db, 'creator')]);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
  (await asServer(db, sql, params)).rows[0].value as T;

describe('XP and levels', () => {
  test('public.xp_award gives every action the XP of XP_AWARDS', async () => {
    const sql: Record<string, number | null> = {};
    for (const action of Object.keys(XP_AWARDS))
      sql[action] = await one<number | null>('select public.xp_award($1) as value', [action.toUpperCase()]);
    expect(sql).toEqual(XP_AWARDS);
    expect(await one('select public.xp_award($1) as value', ['SOMETHING_ELSE'])).toBeNull();
  });

  test('applying to a deal earns the DEAL_APPLY award', async () => {
    const dealId = await makeDeal(db, brand);
    const applicant = await makeUser(db, 'creator');
    await apply(db, applicant, dealId);
    const log = (await asServer(db, `select action, xp_gained from public.xp_logs where user_id = $1`, [applicant]))
      .rows;
    expect(log).toEqual([{ action: 'DEAL_APPLY', xp_gained: XP_AWARDS.deal_apply }]);
  });

  test('public.level_for_xp starts each level at its LEVEL_THRESHOLDS entry and stops at the cap', async () => {
    const sql: { xp: number; level: number }[] = [];
    const ts: { xp: number; level: number }[] = [];
    for (const [i, threshold] of LEVEL_THRESHOLDS.entries()) {
      for (const xp of i === 0 ? [0] : [threshold - 1, threshold]) {
        sql.push({ xp, level: await one<number>('select public.level_for_xp($1) as value', [xp]) });
        ts.push({ xp, level: xp === threshold ? i + 1 : i });
      }
    }
    expect(sql).toEqual(ts);
    expect(await one('select public.level_for_xp($1) as value', [1_000_000_000])).toBe(MAX_LEVEL);
  });
});

describe('fees and Pro prices', () => {
  test('service fee, commissions, Pro prices and trial match src/domain/fees.ts', async () => {
    const sql = await asServer(
      db,
      `select public.service_fee_bp() as service_fee_bp, public.commission_bp(false) as commission_bp,
              public.commission_bp(true) as pro_commission_bp, public.pro_price_cents('month')::int as monthly,
              public.pro_price_cents('year')::int as yearly, public.pro_trial_days() as trial_days`,
    );
    expect(sql.rows[0]).toEqual({
      service_fee_bp: SERVICE_FEE_BP,
      commission_bp: COMMISSION_BP,
      pro_commission_bp: PRO_COMMISSION_BP,
      monthly: PRO_MONTHLY_PRICE_CENTS,
      yearly: PRO_YEARLY_PRICE_CENTS,
      trial_days: PRO_TRIAL_DAYS,
    });
  });

  test('public.percent_of_cents rounds like percentOfCents (half up, to the cent)', async () => {
    const edges = [0, 1, 4, 5, 20, 21, 99, 100, 12_345, 999_999_999, Number.MAX_SAFE_INTEGER];
    const amounts = [
      ...edges,
      ...fc.sample(fc.integer({ min: 0, max: 10_000_000_00 }), { numRuns: 200, seed: 20261123 }),
    ];
    const rates = [SERVICE_FEE_BP, COMMISSION_BP, PRO_COMMISSION_BP];
    const sql = await asServer(
      db,
      `select a::text as amount, r as bp, public.percent_of_cents(a, r)::text as cents
       from unnest($1::bigint[]) a cross join unnest($2::int[]) r`,
      [amounts.map(String), rates],
    );
    const differing = sql.rows.filter(
      (row: { amount: string; bp: number; cents: string }) =>
        String(percentOfCents(Number(row.amount), row.bp)) !== row.cents,
    );
    expect(sql.rows).toHaveLength(amounts.length * rates.length);
    expect(differing).toEqual([]);
  });
});

describe('deal and profile limits', () => {
  const niches = (n: number) => Array.from({ length: n }, (_, i) => NICHES[i % NICHES.length]!);

  test(`a deal takes 1 to MAX_DEAL_NICHES (${MAX_DEAL_NICHES}) niches and at least MIN_DEAL_AMOUNT_CENTS`, async () => {
    await expect(makeDeal(db, brand, { niches: niches(MAX_DEAL_NICHES) })).resolves.toBeTruthy();
    await expect(makeDeal(db, brand, { niches: niches(MAX_DEAL_NICHES + 1) })).rejects.toMatchObject({ code: '23514' });
    await expect(makeDeal(db, brand, { niches: [] })).rejects.toMatchObject({ code: '23514' });
    await expect(makeDeal(db, brand, { amount_cents: MIN_DEAL_AMOUNT_CENTS })).resolves.toBeTruthy();
    await expect(makeDeal(db, brand, { amount_cents: MIN_DEAL_AMOUNT_CENTS - 1 })).rejects.toMatchObject({
      code: '23514',
    });
  });

  test(`a profile holds at most all ${NICHES.length} niches`, async () => {
    const update = (n: number) =>
      asUser(db, creator, 'update public.profiles set niches = $2 where id = $1', [creator, niches(n)]);
    await expect(update(NICHES.length)).resolves.toBeTruthy();
    await expect(update(NICHES.length + 1)).rejects.toMatchObject({ code: '23514' });
  });
});

describe('is this user Pro now', () => {
  type Case = { name: string; tier?: string; until?: string; grants?: { feature: string; ends: string | null }[] };
  const cases: Case[] = [
    { name: 'free' },
    { name: 'paid, ends tomorrow', tier: 'basic', until: `now() + interval '1 day'` },
    { name: 'paid, ended a minute ago', tier: 'basic', until: `now() - interval '1 minute'` },
    { name: 'paid, no end', tier: 'premium' },
    { name: 'granted Pro access until tomorrow', grants: [{ feature: 'pro_deals', ends: `now() + interval '1 day'` }] },
    { name: 'granted Pro access that ended', grants: [{ feature: 'pro_deals', ends: `now() - interval '1 minute'` }] },
    { name: 'granted Pro access without end', grants: [{ feature: 'pro_deals', ends: null }] },
    {
      name: 'granted priority support only',
      grants: [{ feature: 'priority_support', ends: `now() + interval '1 day'` }],
    },
    {
      name: 'paid ended, granted access running',
      tier: 'basic',
      until: `now() - interval '1 minute'`,
      grants: [{ feature: 'pro_deals', ends: `now() + interval '1 day'` }],
    },
  ];

  test.each(cases)(
    '$name: src/domain/pro.ts, read from the synced profile, answers as public.is_pro_user',
    async (c) => {
      const user = await makeUser(db, 'creator');
      if (c.tier) {
        await asServer(
          db,
          `update public.profiles set pro_tier = $2, pro_since = now(), pro_until = ${c.until ?? 'null'} where id = $1`,
          [user, c.tier],
        );
      }
      for (const grant of c.grants ?? []) {
        await asServer(db, `select public.grant_pro_features($1, array[$2], interval '1 day')`, [user, grant.feature]);
        await asServer(
          db,
          `update public.user_pro_features u set expires_at = ${grant.ends ?? 'null'}
         from public.pro_features f where f.id = u.feature_id and u.user_id = $1 and f.name = $2`,
          [user, grant.feature],
        );
      }
      const row = (
        await asServer(
          db,
          `select pro_tier, pro_until, granted_pro_features, public.is_pro_user(id) as sql_pro from public.profiles where id = $1`,
          [user],
        )
      ).rows[0] as {
        pro_tier: string;
        pro_until: Date | null;
        granted_pro_features: Record<string, unknown>;
        sql_pro: boolean;
      };
      const profile: ProMembership = {
        pro_tier: row.pro_tier,
        pro_until: row.pro_until?.toISOString() ?? null,
        granted_pro_features: row.granted_pro_features,
      };
      expect({ case: c.name, pro: isProNow(profile) }).toEqual({ case: c.name, pro: row.sql_pro });
    },
  );

  test('the mirror follows grants and cannot be written by the member', async () => {
    const user = await makeUser(db, 'creator');
    await asServer(
      db,
      `select public.grant_pro_features($1, array['pro_deals', 'priority_support'], interval '30 days')`,
      [user],
    );
    const mirrored = (await asServer(db, 'select granted_pro_features as g from public.profiles where id = $1', [user]))
      .rows[0].g as Record<string, string>;
    expect(Object.keys(mirrored).sort()).toEqual(['priority_support', 'pro_deals']);
    await asServer(db, `delete from public.user_pro_features where user_id = $1`, [user]);
    expect(
      (await asServer(db, 'select granted_pro_features as g from public.profiles where id = $1', [user])).rows[0].g,
    ).toEqual({});
    const forged = asUser(
      db,
      user,
      `update public.profiles set granted_pro_features = '{"pro_deals": null}' where id = $1`,
      [user],
    );
    await expect(forged).rejects.toMatchObject({ message: 'server_owned_field' });
  });
});
