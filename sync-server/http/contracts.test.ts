import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { expect, expectTypeOf, test } from 'vitest';
import { getDealPayment, type DealPayment } from '../../src/domain/contracts/money.ts';
import type { Escrow } from '../payments/escrow.ts';
import { useContracts } from './contracts.ts';

// The payment view crosses the wire from sync-server/payments/escrow.ts to the billing screens
// (src/features/billing/data/money-api.ts). Both ends use one schema; these tests fail when one end's
// field changes without the other's.

const payment: DealPayment = {
  dealId: '6f1c1f1e-0000-4000-8000-000000000001',
  dealStatus: 'completed',
  escrowStatus: 'pending',
  amountCents: 10_000,
  serviceFeeCents: 500,
  brandTotalCents: 10_500,
  commissionBp: 500,
  commissionCents: 500,
  creatorPayoutCents: 9_500,
  transferredCents: 0,
  refundedCents: 0,
  fundedAt: '2026-11-27T10:00:00.000Z',
  releasedAt: null,
  refundedAt: null,
  lastPaymentError: null,
  creatorPayoutsReady: true,
  autoReleaseAt: null,
  disputeWindowEndsAt: null,
  dispute: null,
  chargedCents: 10_500,
  extraPaymentsRefundedCents: 0,
  checkoutOpen: false,
  topUp: null,
  cancellation: null,
  viewer: 'brand',
  canFund: false,
  canCancelCheckout: false,
  canRequestCancel: false,
  canConsentCancel: false,
  canRelease: true,
  canDispute: true,
  canResolve: false,
};
const { canRelease: _dropped, ...withoutAField } = payment;

async function serverAnswering(answer: unknown) {
  const app = Fastify();
  useContracts(app);
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/payment/:id', { schema: getDealPayment }, async () => answer as DealPayment);
  await app.ready();
  return app;
}

test('the server refuses to send an answer that lacks a field of the contract', async () => {
  const good = await serverAnswering(payment);
  expect((await good.inject(`/payment/${payment.dealId}`)).json()).toEqual(payment);
  const bad = await serverAnswering(withoutAField);
  const res = await bad.inject(`/payment/${payment.dealId}`);
  expect(res.statusCode).toBe(500);
  expect(res.body).not.toContain('brandTotalCents');
  await Promise.all([good.close(), bad.close()]);
});

test('the client refuses an answer that lacks a field of the contract', () => {
  expect(getDealPayment.response[200].safeParse(payment).success).toBe(true);
  expect(getDealPayment.response[200].safeParse(withoutAField).success).toBe(false);
});

test('the escrow builds exactly the contract’s payment view, and a route cannot answer less (typecheck)', () => {
  // Checked by `npm run typecheck`: a field added to or removed from one side only fails here.
  expectTypeOf<Awaited<ReturnType<Escrow['paymentView']>>>().toEqualTypeOf<DealPayment>();
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  // @ts-expect-error the handler's answer lacks canRelease, which the contract requires
  app.get('/payment/:id', { schema: getDealPayment }, async () => withoutAField);
});
