import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  getDealPayment,
  getEarnings,
  getLedger,
  getPayoutStatus,
  getSubscription,
  postBillingPortal,
  postCancelCheckout,
  postCancellation,
  postCancellationConsent,
  postCheckoutSession,
  postDispute,
  postFundDeal,
  postPayoutOnboarding,
  postReleaseEscrow,
  postResolveDispute,
  type LedgerEntry,
} from '../../src/domain/contracts/money.ts';
import type { AppContext } from '../app.ts';
import { requireAdmin } from '../auth/authorization.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import type { InvalidRequest } from '../http/contracts.ts';
import { HttpError } from '../http/errors.ts';
import { creatorEarnings } from './earnings.ts';
import { dealBalance } from './ledger.ts';
import { safeReturnPath } from './payments-deps.ts';
import type { Payments } from './payments.ts';

/**
 * Money endpoints under /api. All need a signed-in user except the Stripe webhook, which proves
 * itself with its signature. Without Stripe settings they answer 503 `payments_unavailable`.
 */
export async function paymentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const payments = ctx.payments;
  const need = (): Payments => {
    if (!payments) throw new HttpError(503, 'payments_unavailable', 'Payments are not configured on this server.');
    return payments;
  };
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Every route: who asks first (401), then the request's shape (400 `invalid_request`), then the rest.
  const preValidation = signedIn(ctx);
  const invalid = (words: Omit<InvalidRequest, 'code'>) => ({
    invalid: { code: 'invalid_request' as const, ...words },
  });
  const dealId = { params: 'The deal id must be a UUID.' };

  // The webhook needs the exact bytes Stripe signed: its own scope reads JSON as a raw buffer (any
  // other content type is 415, the server's body size limit still holds) and the route opts out of
  // the body walk of the input limits; the JSON is parsed only once the signature is verified.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/stripe/webhook', { config: { rawBody: true } }, async (request) => {
      const signature = request.headers['stripe-signature'];
      return need().handleWebhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
    });
  });

  api.post(
    '/create-checkout-session',
    {
      schema: postCheckoutSession,
      preValidation,
      config: invalid({ body: 'Send userId, tier and interval (monthly or yearly).' }),
    },
    async (request) => need().subscriptions.createCheckoutSession(claimsOf(request).sub, request.body),
  );

  api.post(
    '/billing-portal',
    { schema: postBillingPortal, preValidation, config: invalid({ body: 'Bad request.' }) },
    async (request) =>
      need().subscriptions.createBillingPortal(
        claimsOf(request).sub,
        safeReturnPath(request.body?.returnTo, '/settings?section=pro'),
      ),
  );

  api.get('/billing/subscription', { schema: getSubscription, preValidation }, async (request) =>
    need().subscriptions.subscriptionState(claimsOf(request).sub),
  );

  api.post(
    '/payouts/onboarding',
    { schema: postPayoutOnboarding, preValidation, config: invalid({ body: 'Bad request.' }) },
    async (request) =>
      need().payouts.startOnboarding(
        claimsOf(request).sub,
        safeReturnPath(request.body?.returnTo, '/settings?section=payouts'),
      ),
  );

  api.get('/payouts/status', { schema: getPayoutStatus, preValidation }, async (request) =>
    need().payouts.status(claimsOf(request).sub),
  );

  // A read of the ledger the server keeps: it answers with payments off too (then nothing was paid).
  api.get('/earnings', { schema: getEarnings, preValidation }, async (request) =>
    ctx.db.asService((tx) => creatorEarnings(tx, claimsOf(request).sub)),
  );

  api.post('/deals/:id/fund', { schema: postFundDeal, preValidation, config: invalid(dealId) }, async (request) =>
    need().escrow.fundDeal(claimsOf(request).sub, request.params.id),
  );

  api.post(
    '/deals/:id/fund/cancel',
    { schema: postCancelCheckout, preValidation, config: invalid(dealId) },
    async (request) => need().escrow.cancelCheckout(claimsOf(request).sub, request.params.id),
  );

  api.post(
    '/deals/:id/cancellation',
    { schema: postCancellation, preValidation, config: invalid(dealId) },
    async (request) => need().escrow.requestCancellation(claimsOf(request).sub, request.params.id),
  );

  api.post(
    '/deals/:id/cancellation/consent',
    { schema: postCancellationConsent, preValidation, config: invalid(dealId) },
    async (request) => need().escrow.consentToCancellation(claimsOf(request).sub, request.params.id),
  );

  api.get('/deals/:id/payment', { schema: getDealPayment, preValidation, config: invalid(dealId) }, async (request) =>
    need().escrow.paymentView(claimsOf(request).sub, request.params.id),
  );

  api.post(
    '/release-escrow',
    { schema: postReleaseEscrow, preValidation, config: invalid({ body: 'Send the dealId to release.' }) },
    async (request) =>
      need().escrow.releaseEscrow({ kind: 'user', userId: claimsOf(request).sub }, request.body.dealId),
  );

  api.post(
    '/deals/:id/dispute',
    { schema: postDispute, preValidation, config: invalid({ ...dealId, body: 'Say what went wrong.' }) },
    async (request) => {
      const { reason, deliverableId, submissionId } = request.body;
      const about = deliverableId && submissionId ? { deliverableId, submissionId } : undefined;
      return need().escrow.openDispute(claimsOf(request).sub, request.params.id, reason, about);
    },
  );

  api.post(
    '/admin/deals/:id/resolve-dispute',
    {
      schema: postResolveDispute,
      preValidation,
      config: invalid({ ...dealId, body: 'Send refundCents: the part of the deal amount refunded to the brand.' }),
    },
    async (request) => need().escrow.resolveDispute(claimsOf(request).sub, request.params.id, request.body.refundCents),
  );

  api.get(
    '/admin/ledger',
    { schema: getLedger, preValidation, config: invalid({ querystring: 'dealId must be a UUID.' }) },
    async (request) => {
      const userId = claimsOf(request).sub;
      const { dealId } = request.query;
      return ctx.db.asService(async (tx) => {
        await requireAdmin(tx, userId, 'Only Pacta staff can read the ledger.');
        const { rows } = await tx.query(
          `select l.id, l.deal_id, d.title as deal_title, l.user_id, p.full_name as user_name, l.kind, l.amount_cents, l.stripe_ref, l.memo, l.created_at
         from public.ledger_entries l left join public.deals d on d.id = l.deal_id left join public.profiles p on p.id = l.user_id
         where $1::uuid is null or l.deal_id = $1 order by l.id desc limit 500`,
          [dealId ?? null],
        );
        const dealIds = [
          ...new Set(rows.map((r) => r.deal_id as string | null).filter((id): id is string => Boolean(id))),
        ];
        const balances = [];
        for (const id of dealIds) balances.push({ dealId: id, ...(await dealBalance(tx, id)) });
        return {
          entries: rows.map((r): LedgerEntry => ({
            id: Number(r.id),
            dealId: r.deal_id,
            dealTitle: r.deal_title,
            userId: r.user_id,
            userName: r.user_name,
            kind: r.kind,
            amountCents: Number(r.amount_cents),
            stripeRef: r.stripe_ref,
            memo: r.memo,
            createdAt: (r.created_at as Date).toISOString(),
          })),
          balances,
        };
      });
    },
  );
}
