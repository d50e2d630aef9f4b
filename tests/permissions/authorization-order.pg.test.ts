import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestUser } from '../support/test-server.ts';
import { startMoneyFixture, type MoneyFixture } from '../payments/money-fixture.ts';

// One order for every authorization question (sync-server/auth/authorization.ts): who asks (401),
// then the request's shape (400), then staff-only routes (403 before any row is read), then the row:
// a caller who is no party to the deal gets exactly the answer for a deal that does not exist (404),
// and only a party learns that the action is not theirs (403).

let f: MoneyFixture;
let brand: TestUser;
let creator: TestUser;
let stranger: TestUser;
let dealId: string;
beforeAll(async () => {
  f = await startMoneyFixture();
  brand = await f.server.createUser({ role: 'brand' });
  creator = await f.server.createUser({ role: 'creator' });
  stranger = await f.server.createUser({ role: 'creator' });
  dealId = await f.dealWithAcceptedCreator(brand, creator, 20_000);
});
afterAll(() => f?.close());

type Call = { method: 'GET' | 'POST'; path: (id: string) => string; body?: (id: string) => unknown };
const dealRoutes: Record<string, Call> = {
  payment: { method: 'GET', path: (id) => `/api/deals/${id}/payment` },
  fund: { method: 'POST', path: (id) => `/api/deals/${id}/fund` },
  cancelCheckout: { method: 'POST', path: (id) => `/api/deals/${id}/fund/cancel` },
  askToCancel: { method: 'POST', path: (id) => `/api/deals/${id}/cancellation` },
  consentToCancel: { method: 'POST', path: (id) => `/api/deals/${id}/cancellation/consent` },
  dispute: {
    method: 'POST',
    path: (id) => `/api/deals/${id}/dispute`,
    body: () => ({ reason: 'The deliverables never arrived as agreed.' }),
  },
  release: { method: 'POST', path: () => '/api/release-escrow', body: (id) => ({ dealId: id }) },
};
const call = (user: TestUser | undefined, route: Call, id: string) =>
  f.api(user, route.method, route.path(id), route.body?.(id));
/** The answer without its request id, so two answers can be compared whole. */
const shape = ({ status, body }: { status: number; body: Record<string, unknown> }) => {
  const { request_id: _requestId, ...rest } = body;
  return { status, body: rest };
};

test('a stranger to a deal gets the same answer as for a deal that does not exist, on every money route', async () => {
  for (const [name, route] of Object.entries(dealRoutes)) {
    const existing = shape(await call(stranger, route, dealId));
    const missing = shape(await call(stranger, route, randomUUID()));
    expect({ name, ...existing }).toEqual({ name, ...missing });
    expect({ name, ...existing }).toMatchObject({ name, status: 404, body: { code: 'deal_not_found' } });
  }
});

test('a party without the right to an action is told so (403), with the action’s words', async () => {
  const asCreator = await call(creator, dealRoutes.fund!, dealId);
  expect(asCreator).toMatchObject({ status: 403, body: { code: 'not_deal_owner' } });
  const asBrand = await call(brand, dealRoutes.consentToCancel!, dealId);
  expect(asBrand).toMatchObject({ status: 403, body: { code: 'not_a_participant' } });
  // Both parties may read the payment.
  expect((await call(creator, dealRoutes.payment!, dealId)).status).toBe(200);
  expect((await call(brand, dealRoutes.payment!, dealId)).status).toBe(200);
});

test('who asks comes before the shape of the request: signed out, a malformed id is 401, not 400', async () => {
  for (const route of Object.values(dealRoutes)) {
    expect((await call(undefined, route, 'not-a-uuid')).status).toBe(401);
  }
  expect((await call(stranger, dealRoutes.payment!, 'not-a-uuid')).body).toMatchObject({ code: 'invalid_request' });
});

test('staff-only routes refuse everyone else (403) before reading any row', async () => {
  const resolve = (id: string) =>
    f.api(brand, 'POST', `/api/admin/deals/${id}/resolve-dispute`, { refundCents: 0 }).then(shape);
  expect(await resolve(dealId)).toEqual(await resolve(randomUUID()));
  expect(await resolve(dealId)).toMatchObject({ status: 403, body: { code: 'admin_only' } });
  expect(await f.api(brand, 'GET', '/api/admin/ledger')).toMatchObject({ status: 403, body: { code: 'admin_only' } });
  // Staff read any deal's payment.
  const admin = await f.server.createUser({ role: 'admin' });
  expect(await call(admin, dealRoutes.payment!, dealId)).toMatchObject({ status: 200, body: { viewer: 'admin' } });
});
