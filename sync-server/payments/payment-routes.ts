import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app.ts';
import { HttpError } from '../http/errors.ts';
import { dealBalance } from './ledger.ts';
import { safeReturnPath } from './payments-deps.ts';
import type { Payments } from './payments.ts';

const checkoutBody = z.object({
  userId: z.guid(),
  tier: z.enum(['basic', 'premium']).default('premium'),
  interval: z.enum(['monthly', 'yearly']),
  trigger: z.string().max(200).optional(),
});
const dealBody = z.object({ dealId: z.guid() });
const dealParams = z.object({ id: z.guid() });
const disputeBody = z.object({
  reason: z.string(),
  /** On a deal with submissions: the deliverable and the submission (a draft or live link) in question. */
  deliverableId: z.string().max(40).optional(),
  submissionId: z.guid().optional(),
});
const resolveBody = z.object({ refundCents: z.number().int() });
const returnBody = z.object({ returnTo: z.string().optional() }).optional();

function parse<T>(schema: z.ZodType<T>, value: unknown, message: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, 'invalid_request', message);
  return parsed.data;
}

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
  const user = async (request: FastifyRequest) => (await ctx.authenticate(request)).sub;

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

  app.post('/create-checkout-session', async (request) => {
    const userId = await user(request);
    const body = parse(checkoutBody, request.body, 'Send userId, tier and interval (monthly or yearly).');
    return need().subscriptions.createCheckoutSession(userId, body);
  });

  app.post('/billing-portal', async (request) => {
    const userId = await user(request);
    const body = parse(returnBody, request.body ?? undefined, 'Bad request.');
    return need().subscriptions.createBillingPortal(userId, safeReturnPath(body?.returnTo, '/settings?section=pro'));
  });

  app.get('/billing/subscription', async (request) => need().subscriptions.subscriptionState(await user(request)));

  app.post('/payouts/onboarding', async (request) => {
    const userId = await user(request);
    const body = parse(returnBody, request.body ?? undefined, 'Bad request.');
    return need().payouts.startOnboarding(userId, safeReturnPath(body?.returnTo, '/settings?section=payouts'));
  });

  app.get('/payouts/status', async (request) => need().payouts.status(await user(request)));

  app.post('/deals/:id/fund', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    return need().escrow.fundDeal(userId, id);
  });

  app.post('/deals/:id/fund/cancel', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    return need().escrow.cancelCheckout(userId, id);
  });

  app.post('/deals/:id/cancellation', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    return need().escrow.requestCancellation(userId, id);
  });

  app.post('/deals/:id/cancellation/consent', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    return need().escrow.consentToCancellation(userId, id);
  });

  app.get('/deals/:id/payment', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    return need().escrow.paymentView(userId, id);
  });

  app.post('/release-escrow', async (request) => {
    const userId = await user(request);
    const { dealId } = parse(dealBody, request.body, 'Send the dealId to release.');
    return need().escrow.releaseEscrow({ kind: 'user', userId }, dealId);
  });

  app.post('/deals/:id/dispute', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    const { reason, deliverableId, submissionId } = parse(disputeBody, request.body, 'Say what went wrong.');
    const about = deliverableId && submissionId ? { deliverableId, submissionId } : undefined;
    return need().escrow.openDispute(userId, id, reason, about);
  });

  app.post('/admin/deals/:id/resolve-dispute', async (request) => {
    const userId = await user(request);
    const { id } = parse(dealParams, request.params, 'The deal id must be a UUID.');
    const { refundCents } = parse(
      resolveBody,
      request.body,
      'Send refundCents: the part of the deal amount refunded to the brand.',
    );
    return need().escrow.resolveDispute(userId, id, refundCents);
  });

  /** The ledger for staff: every movement, newest first, and each deal's balance. */
  app.get('/admin/ledger', async (request) => {
    const userId = await user(request);
    const { dealId } = parse(z.object({ dealId: z.guid().optional() }), request.query, 'dealId must be a UUID.');
    return ctx.db.asService(async (tx) => {
      const admin = await tx.query(`select 1 from public.profiles where id = $1 and role = 'admin' and not deleted`, [
        userId,
      ]);
      if (!admin.rowCount) throw new HttpError(403, 'admin_only', 'Only Pacta staff can read the ledger.');
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
        entries: rows.map((r) => ({
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
  });
}
