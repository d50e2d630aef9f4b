import { afterAll, beforeAll, expect, test } from 'vitest';
import { getStaffOverview } from '../../src/domain/contracts/staff.ts';
import { completeDeal, startMoneyFixture, type MoneyFixture } from '../payments/money-fixture.ts';

let f: MoneyFixture;
beforeAll(async () => {
  f = await startMoneyFixture();
});
afterAll(() => f?.close());

test('the staff home counts what waits on staff, with links to each deal; nobody else may read it', async () => {
  const admin = await f.server.createUser({ role: 'admin' });
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });

  const empty = await f.api(admin, 'GET', '/api/admin/overview');
  expect(empty.status).toBe(200);
  expect(empty.body).toEqual({
    tickets: { open: 0, highPriority: 0, oldestOpenAt: null },
    disputes: { count: 0, oldest: [] },
    awaitingRelease: { count: 0, heldCents: 0, oldest: [] },
    jobsBehind: [],
  });

  // A dispute (it opens a support ticket too), a completed deal waiting on its release, and one whose
  // automatic release is 6 days late because the creator has no payout account.
  const disputed = await f.dealWithAcceptedCreator(brand, creator, 10_000);
  await f.fundDeal(brand, disputed);
  expect((await f.api(brand, 'POST', `/api/deals/${disputed}/dispute`, { reason: 'Never posted.' })).status).toBe(200);
  const waiting = await f.dealWithAcceptedCreator(brand, creator, 25_000);
  await f.fundDeal(brand, waiting);
  await completeDeal(f.server, waiting, 2);
  const late = await f.dealWithAcceptedCreator(brand, creator, 5_000);
  await f.fundDeal(brand, late);
  await completeDeal(f.server, late, 20);
  const contact = await f.api(undefined, 'POST', '/api/contact', {
    name: 'Ana',
    email: 'ana@example.test',
    subject: 'billing',
    message: 'Where is my invoice?',
  });
  expect(contact.status).toBeLessThan(300);

  const { status, body } = await f.api(admin, 'GET', '/api/admin/overview');
  expect(status).toBe(200);
  // The dispute's ticket (high priority) and the contact form's.
  expect(body.tickets).toMatchObject({ open: 2, highPriority: 1 });
  expect(body.disputes).toMatchObject({ count: 1, oldest: [expect.objectContaining({ dealId: disputed })] });
  expect(body.awaitingRelease).toMatchObject({
    count: 2,
    heldCents: 30_000,
    oldest: [expect.objectContaining({ dealId: late }), expect.objectContaining({ dealId: waiting })],
  });
  // Only the late release: the pushes the notifications above queued are due for seconds, not behind.
  expect(body.jobsBehind).toEqual([expect.objectContaining({ job: 'auto_release', dueItems: 1 })]);

  // Staff only: 403 for a creator or a brand, 401 signed out.
  expect(await f.api(creator, 'GET', '/api/admin/overview')).toMatchObject({
    status: 403,
    body: { code: 'admin_only' },
  });
  expect((await f.api(brand, 'GET', '/api/admin/overview')).status).toBe(403);
  expect((await f.api(undefined, 'GET', '/api/admin/overview')).status).toBe(401);
});

test('the staff home lists every escrow the job backlog counts as due for release, deleted deals too', async () => {
  const admin = await f.server.createUser({ role: 'admin' });
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  // A completed deal 30 days old whose escrow is still held, then deleted: the money jobs still
  // release it, so the backlog counts it and staff must see it.
  const deal = await f.dealWithAcceptedCreator(brand, creator, 7_000);
  await f.fundDeal(brand, deal);
  await completeDeal(f.server, deal, 30);
  await f.server.db.asService((tx) => tx.query('update public.deals set deleted = true where id = $1', [deal]));

  const due = await f.server.db.asService(async (tx) => {
    const backlog = await tx.query<{ due_items: number }>(
      `select due_items::int from pacta_private.job_backlog() where job = 'auto_release'`,
    );
    const ids = await tx.query<{ id: string }>(
      `select d.id from public.deals d join public.deal_escrows e on e.deal_id = d.id
        where d.status = 'completed' and d.escrow_status = 'pending' and e.charge_id is not null
          and d.completed_at <= now() - interval '14 days'`,
    );
    return { count: backlog.rows[0]!.due_items, ids: ids.rows.map((r) => r.id) };
  });
  expect(due.ids).toContain(deal);
  expect(due.count).toBe(due.ids.length);

  const { body } = await f.api(admin, 'GET', '/api/admin/overview');
  const overview = getStaffOverview.response[200].parse(body);
  const listed = overview.awaitingRelease.oldest.map((l) => l.dealId);
  for (const id of due.ids) expect(listed).toContain(id);
  expect(overview.jobsBehind).toEqual([expect.objectContaining({ job: 'auto_release', dueItems: due.count })]);
});

test('a live link whose confirmation is late shows as a job behind on the staff home', async () => {
  const admin = await f.server.createUser({ role: 'admin' });
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  // The confirmation job is stopped, as if it kept failing on this live link.
  await f.server.app.pactaLiveLinkConfirmations.stop();
  const deal = await f.dealWithAcceptedCreator(brand, creator, 3_000);
  await f.server.db.asService(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `update public.applications
          set work = jsonb_build_object('d1', jsonb_build_object('status', 'live_submitted',
                       'live_url', 'https://ig.example/p/1', 'confirm_due_at', now() - interval '1 hour'))
        where deal_id = $1`,
      [deal],
    );
  });
  const { status, body } = await f.api(admin, 'GET', '/api/admin/overview');
  expect(status).toBe(200);
  expect(getStaffOverview.response[200].parse(body).jobsBehind).toContainEqual(
    expect.objectContaining({ job: 'auto_confirm', dueItems: 1 }),
  );
});

test('a deal whose payout hold ended is due for release alike for the money job, the backlog and staff', async () => {
  const admin = await f.server.createUser({ role: 'admin' });
  const brand = await f.server.createUser({ role: 'brand' });
  const creator = await f.server.createUser({ role: 'creator' });
  // Work submitted and approved: released when the payout hold ends (an hour ago), not 14 days after
  // completion (two days ago). The creator has no payout account, so the release keeps failing.
  const deal = await f.dealWithAcceptedCreator(brand, creator, 4_000);
  await f.fundDeal(brand, deal);
  await completeDeal(f.server, deal, 2);
  await f.server.db.asService(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into public.deal_events (id, application_id, deal_id, author_id, kind, deliverable_id, links)
       select gen_random_uuid(), a.id, a.deal_id, a.creator_id, 'draft', 'd1', '{https://v.example/cut}'
         from public.applications a where a.deal_id = $1`,
      [deal],
    );
    await tx.query(`update public.applications set payout_due_at = now() - interval '1 hour' where deal_id = $1`, [
      deal,
    ]);
  });

  const releasing = await f.server.app.pactaPayments!.escrow.dueForAutoRelease();
  expect(releasing).toContain(deal);
  const { body } = await f.api(admin, 'GET', '/api/admin/overview');
  const overview = getStaffOverview.response[200].parse(body);
  expect(overview.jobsBehind).toContainEqual(
    expect.objectContaining({ job: 'auto_release', dueItems: releasing.length }),
  );
  const listed = overview.awaitingRelease.oldest.map((l) => l.dealId);
  for (const id of releasing) expect(listed).toContain(id);
});
