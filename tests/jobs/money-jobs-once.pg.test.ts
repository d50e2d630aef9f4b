import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { eventually } from '../sync/sync-harness.ts';
import { completeDeal, startMoneyFixture, type MoneyFixture } from '../payments/money-fixture.ts';

// Three server instances on one database and one (local) Stripe run the money jobs at the same moment:
// every due deal is paid out once — one Stripe transfer, one ledger row — and a claim left by an
// instance that died is taken over when its lease runs out.

let f: MoneyFixture;
let others: TestServer[] = [];
let brand: TestUser;
let creator: TestUser;
beforeAll(async () => {
  f = await startMoneyFixture();
  brand = await f.server.createUser({ role: 'brand' });
  creator = await f.server.createUser({ role: 'creator' });
  await f.setUpPayouts(creator);
});
afterAll(async () => {
  for (const s of others) await s.close({ keepDatabase: true });
  await f?.close();
});

/** Another instance on the same database and Stripe (its jobs start with it, as `npm run serve`'s do). */
function anotherInstance(): Promise<TestServer> {
  const stripe = f.server.config.stripe!;
  return startTestServer({
    databaseUrl: f.server.databaseUrl,
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.apiBase!,
    },
  });
}

async function fundedDealCompletedDaysAgo(days: number): Promise<string> {
  const dealId = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  await f.fundDeal(brand, dealId);
  await completeDeal(f.server, dealId, days);
  return dealId;
}

const transfersFor = (dealIds: string[]) =>
  dealIds.map(
    (id) =>
      f.localStripe.events.filter((e) => e.type === 'transfer.created' && e.data.object.transfer_group === `deal_${id}`)
        .length,
  );
const ledgerTransfers = async (dealIds: string[]) => {
  const { rows } = await f.server.db.pool.query(
    `select deal_id, count(*)::int as n from public.ledger_entries where kind = 'transfer' and deal_id = any($1) group by deal_id`,
    [dealIds],
  );
  return dealIds.map((id) => rows.find((r) => r.deal_id === id)?.n ?? 0);
};
const jobsOf = (s: TestServer) => s.app.pactaPayments!.jobs;

test('with three instances running the automatic release at once, each due deal is paid once', async () => {
  const due: string[] = [];
  for (let i = 0; i < 8; i++) due.push(await fundedDealCompletedDaysAgo(15));

  // Two more instances start (each runs the jobs as it starts) while all three are asked to run them.
  const [second, third] = await Promise.all([anotherInstance(), anotherInstance(), jobsOf(f.server).run()]);
  others = [second!, third!];
  const runs = await Promise.all([f.server, second!, third!].flatMap((s) => [jobsOf(s).run(), jobsOf(s).run()]));
  // A run waits for the one in progress in its instance, so every start-up run has finished too.

  for (const id of due) expect(await f.escrowStatus(id)).toBe('released');
  await f.localStripe.idle();
  expect(transfersFor(due)).toEqual(due.map(() => 1));
  expect(await ledgerTransfers(due)).toEqual(due.map(() => 1));
  const releasedByRuns = runs.flatMap((r) => r.released);
  expect(new Set(releasedByRuns).size).toBe(releasedByRuns.length);
  const claims = await f.server.db.pool.query(
    `select count(*)::int as n from pacta_private.job_claims where job = 'auto_release' and item_id = any($1) and done_at is not null`,
    [due],
  );
  expect(claims.rows[0].n).toBe(due.length);
});

test('funded deals cancelled before completion are refunded once, with three instances woken by each cancellation', async () => {
  const cancelled: string[] = [];
  for (let i = 0; i < 4; i++) {
    const dealId = await f.dealWithAcceptedCreator(brand, creator, 20_000);
    await f.fundDeal(brand, dealId);
    cancelled.push(dealId);
  }
  // Each cancellation is announced (NOTIFY pacta_money) to every instance, and each runs its jobs.
  await f.server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = any($1)`, [cancelled]),
  );
  await Promise.all([f.server, ...others].map((s) => jobsOf(s).run()));
  await eventually(async () => (await Promise.all(cancelled.map(f.escrowStatus))).every((s) => s === 'refunded'));

  await f.localStripe.idle();
  const charges = (
    await f.server.db.pool.query(`select charge_id from public.deal_escrows where deal_id = any($1)`, [cancelled])
  ).rows.map((r) => r.charge_id as string);
  const refundEvents = charges.map(
    (id) => f.localStripe.events.filter((e) => e.type === 'charge.refunded' && e.data.object.id === id).length,
  );
  expect(refundEvents).toEqual(cancelled.map(() => 1));
  const { rows } = await f.server.db.pool.query(
    `select deal_id, count(*)::int as n from public.ledger_entries where kind = 'refund' and deal_id = any($1) group by deal_id`,
    [cancelled],
  );
  expect(cancelled.map((id) => rows.find((r) => r.deal_id === id)?.n)).toEqual(cancelled.map(() => 1));
});

test('a claim whose instance died is taken over after its lease; a live one is left to its holder', async () => {
  const [abandoned, held] = [await fundedDealCompletedDaysAgo(20), await fundedDealCompletedDaysAgo(20)];
  await f.server.db.pool.query(
    `insert into pacta_private.job_claims (job, item_id, claimed_by, lease_until)
     values ('auto_release', $1, 'a-stopped-instance', now() - interval '1 second'),
            ('auto_release', $2, 'a-busy-instance', now() + interval '1 hour')`,
    [abandoned, held],
  );

  const runs = await Promise.all([f.server, ...others].map((s) => jobsOf(s).run()));

  expect(runs.flatMap((r) => r.released)).toEqual([abandoned]);
  expect(await f.escrowStatus(abandoned)).toBe('released');
  expect(await f.escrowStatus(held)).toBe('pending');
  const { rows } = await f.server.db.pool.query(
    `select item_id, attempts, done_at is not null as done from pacta_private.job_claims where item_id = any($1) order by attempts`,
    [[abandoned, held]],
  );
  expect(rows).toEqual([
    { item_id: held, attempts: 1, done: false },
    { item_id: abandoned, attempts: 2, done: true },
  ]);
  await f.localStripe.idle();
  expect(transfersFor([abandoned, held])).toEqual([1, 0]);
});
