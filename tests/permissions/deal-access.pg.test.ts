import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';
import { insertDeals } from '../sync/sync-harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const access = (id: string, user?: TestUser) =>
  fetch(`${server.url}/api/deals/${id}/access`, {
    headers: user ? { authorization: `Bearer ${user.accessToken}` } : {},
  });

test('a non-Pro creator learns that a Pro-only deal exists, and nothing else; a Pro creator can read it', async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const pro = await server.createUser({ role: 'creator' });
  await server.db.asService((tx) =>
    tx.query(`select public.grant_pro_features($1, array['pro_deals'], interval '30 days')`, [pro.id]),
  );
  const [proDeal] = await insertDeals(server.db, brand.id, 1, { pro_only: true });
  const [openDeal] = await insertDeals(server.db, brand.id, 1);

  const gated = await access(proDeal!, creator);
  expect(gated.status).toBe(200);
  expect(await gated.json()).toEqual({ access: 'pro_only' });
  expect(await (await access(proDeal!, pro)).json()).toMatchObject({ access: 'visible', deal: { id: proDeal } });
  expect(await (await access(proDeal!, brand)).json()).toMatchObject({ access: 'visible', deal: { id: proDeal } });
  expect(await (await access(openDeal!, creator)).json()).toMatchObject({
    access: 'visible',
    deal: { id: openDeal, pro_only: false, _deleted: false },
  });
});

test("unknown and cancelled deals answer 200 { access: 'not_found' } (no error in a visitor's console); a badly written id gets 400; no token 401", async () => {
  const brand = await server.createUser({ role: 'brand' });
  const creator = await server.createUser({ role: 'creator' });
  const [cancelled] = await insertDeals(server.db, brand.id, 1, { pro_only: true });
  await server.db.asService((tx) =>
    tx.query(`update public.deals set status = 'cancelled' where id = $1`, [cancelled]),
  );

  for (const id of ['6f1c1f8e-0000-4000-8000-000000000000', cancelled!]) {
    const res = await access(id, creator);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ access: 'not_found' });
  }
  const bad = await access('not-a-uuid', creator);
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ code: 'invalid_deal_id', message: expect.any(String) });
  const anonymous = await access(cancelled!);
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toMatchObject({ code: 'no_authorization' });
});
