import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apply, asServer, asUser, makeDeal, makeUser } from '../support/rules-fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { eventually } from '../sync/sync-harness.ts';

// "Confirmed automatically when the approval window closes", with payments off: the confirmation is
// a job of its own, not part of the money jobs (which do not run without Stripe). Two instances on
// one database run it at the same moment; each live link is confirmed once.

let servers: TestServer[] = [];
beforeAll(async () => {
  const first = await startTestServer({ env: { PAYMENTS: 'off' } });
  servers = [first, await startTestServer({ env: { PAYMENTS: 'off' }, databaseUrl: first.databaseUrl })];
});
afterAll(async () => {
  for (const s of servers.slice(1).reverse()) await s.close({ keepDatabase: true });
  await servers[0]?.close();
});

async function liveLinkSubmitted(db: TestServer['db'], brand: string, creator: string) {
  const dealId = await makeDeal(db, brand, { deliverables: ['Reel'] });
  const appId = await apply(db, creator, dealId);
  await asUser(db, brand, `update public.applications set status = 'accepted' where id = $1`, [appId]);
  const add = async (who: string, fields: Record<string, unknown>) => {
    const id = randomUUID();
    const cols = ['id', 'application_id', 'deal_id', 'author_id', ...Object.keys(fields)];
    await asUser(
      db,
      who,
      `insert into public.deal_events (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      [id, appId, dealId, who, ...Object.values(fields)],
    );
    return id;
  };
  await add(creator, { kind: 'terms_accepted', terms_version: 1 });
  await add(brand, { kind: 'terms_accepted', terms_version: 1 });
  // Funded as the money code leaves it (payments are off here): no draft before the escrow is funded.
  await asServer(db, `update public.deals set escrow_status = 'pending' where id = $1`, [dealId]);
  const draft = await add(creator, { kind: 'draft', deliverable_id: 'd1', links: ['https://v.example/cut'] });
  await add(brand, { kind: 'approved', deliverable_id: 'd1', ref_id: draft });
  await add(creator, { kind: 'live_link', deliverable_id: 'd1', links: ['https://ig.example/p/1'] });
  return { dealId, appId };
}

test('with payments off, live links whose approval window closed are confirmed once by the job, however many instances run it', async () => {
  const [server] = servers as [TestServer];
  expect(server.app.pactaPayments).toBeUndefined();
  const db = server.db;
  const brand = await makeUser(db, 'brand');
  const deals = [];
  for (let i = 0; i < 6; i++) deals.push(await liveLinkSubmitted(db, brand, await makeUser(db, 'creator')));
  const appIds = deals.map((d) => d.appId);

  // The window is still open: nothing to confirm.
  expect(await server.app.pactaLiveLinkConfirmations.run()).toEqual({ confirmed: 0 });
  // The windows close (the clock moves past them), and every instance runs the job at the same moment.
  await asServer(
    db,
    `update public.applications set work = jsonb_set(work, '{d1,confirm_due_at}', to_jsonb(now() - interval '1 minute'))
      where id = any($1)`,
    [appIds],
  );
  const backlog = async () =>
    (await asServer(db, `select due_items::int as n from pacta_private.job_backlog() where job = 'auto_confirm'`))
      .rows[0].n;
  expect(await backlog()).toBe(appIds.length);
  const runs = await Promise.all(servers.map((s) => s.app.pactaLiveLinkConfirmations.run()));

  await eventually(async () => {
    const { rows } = await asServer(
      db,
      `select count(*)::int as n from public.applications where id = any($1) and work -> 'd1' ->> 'status' = 'live'`,
      [appIds],
    );
    return rows[0].n === appIds.length;
  });
  const { rows: confirmations } = await asServer(
    db,
    `select application_id, count(*)::int as n from public.deal_events
      where application_id = any($1) and kind = 'live_confirmed' and author_id is null group by application_id`,
    [appIds],
  );
  expect(confirmations.map((r) => r.n)).toEqual(appIds.map(() => 1));
  // Each confirmed by one instance (or by a scheduled run that came first).
  expect(runs.reduce((sum, r) => sum + r.confirmed, 0)).toBeLessThanOrEqual(appIds.length);
  expect(await backlog()).toBe(0);
  // The work is delivered: the deals complete and the payout clock starts, money or not.
  const { rows: completed } = await asServer(
    db,
    `select count(*)::int as n from public.deals where id = any($1) and status = 'completed'`,
    [deals.map((d) => d.dealId)],
  );
  expect(completed[0].n).toBe(deals.length);
});
