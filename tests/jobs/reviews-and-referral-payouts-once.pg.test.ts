import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { publishDueReviews } from '../../sync-server/api/review-publisher.ts';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { apply, asServer, asUser, makeDeal, makeUser } from '../support/rules-fixtures.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Three server instances on one database, as the jobs see them: three connection pools running the
// same job at the same moment. Each due item is done once.

let instances: Database[];
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  instances = [createDatabase(database.url), createDatabase(database.url), createDatabase(database.url)];
});
afterAll(async () => {
  await Promise.all(instances.map((db) => db.close()));
  await drop?.();
});

test('reviews whose window closed are published once, however many instances publish at the same moment', async () => {
  const [db] = instances as [Database];
  const brand = await makeUser(db, 'brand');
  const reviewIds: string[] = [];
  for (let i = 0; i < 24; i++) {
    const creator = await makeUser(db, 'creator');
    const dealId = await makeDeal(db, brand);
    await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [
      await apply(db, creator, dealId),
    ]);
    await asUser(db, brand, `update public.deals set status = 'completed' where id = $1`, [dealId]);
    const id = randomUUID();
    await asUser(
      db,
      brand,
      `insert into public.reviews (id, deal_id, reviewer_id, reviewee_id, rating, content) values ($1, $2, $3, $4, 4, 'Good')`,
      [id, dealId, brand, creator],
    );
    reviewIds.push(id);
  }
  // The windows close: as if 14 days had passed (written past the stamping trigger, as time would).
  await db.asService(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query(
      `update public.reviews set published_at = now() - interval '1 minute', updated_at = now() - interval '14 days'
        where id = any($1)`,
      [reviewIds],
    );
  });
  const versions = async () =>
    new Map(
      (await asServer(db, 'select id, version from public.reviews where id = any($1)', [reviewIds])).rows.map((r) => [
        r.id as string,
        Number(r.version),
      ]),
    );
  const before = await versions();

  const published = await Promise.all(instances.flatMap((i) => [publishDueReviews(i), publishDueReviews(i)]));

  expect(published.reduce((a, b) => a + b, 0)).toBe(reviewIds.length);
  const after = await versions();
  for (const id of reviewIds) expect(after.get(id)).toBe(before.get(id)! + 1);
  expect(await Promise.all(instances.map(publishDueReviews))).toEqual([0, 0, 0]);
});

test('the monthly referral payout runs once for the month, from whichever instance comes first', async () => {
  const [db] = instances as [Database];
  const referrers = [await makeUser(db, 'creator'), await makeUser(db, 'brand')];
  for (const referrer of referrers) {
    const code = (await asServer(db, 'select referral_code from public.profiles where id = $1', [referrer])).rows[0]
      .referral_code as string;
    for (let i = 0; i < 3; i++) {
      const referred = randomUUID();
      await asServer(
        db,
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), $3)`,
        [
          referred,
          `referred-${referred.slice(0, 8)}@example.test`,
          { role: 'creator', full_name: 'Referred', ref: code },
        ],
      );
      await asServer(db, `select public.referral_reward_for_pro_subscription($1, $2)`, [referred, `sub_${referred}`]);
    }
  }
  await asServer(db, `update public.referral_rewards set issued_at = now() - interval '40 days'`);

  // Next month's run, started by every instance at once (twice each).
  const runs = await Promise.all(
    instances.flatMap((i) =>
      [1, 2].map(() => asServer(i, "select * from public.run_monthly_referral_payouts(now() + interval '1 month')")),
    ),
  );

  const ran = runs.flatMap((r) => r.rows);
  expect(ran).toHaveLength(1);
  expect(ran[0]).toMatchObject({ rewards_paid: 6, amount_cents: 6_000 });
  const rewards = await asServer(db, 'select status, payout_run_id from public.referral_rewards');
  expect(rewards.rows).toHaveLength(6);
  for (const r of rewards.rows) expect(r).toEqual({ status: 'paid', payout_run_id: ran[0].id });
  const notes = await asServer(
    db,
    `select user_id, count(*)::int as n from public.notifications where type = 'referral_payout' group by user_id`,
  );
  expect(notes.rows.sort((a, b) => a.user_id.localeCompare(b.user_id))).toEqual(
    referrers.sort().map((user_id) => ({ user_id, n: 1 })),
  );
});
