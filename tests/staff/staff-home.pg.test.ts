import { afterAll, beforeAll, expect, test } from 'vitest';
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
