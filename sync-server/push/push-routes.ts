import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deletePushSubscription, getPushPublicKey, postPushSubscription } from '../../src/domain/contracts/push.ts';
import type { AppContext } from '../app.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { HttpError } from '../http/errors.ts';
import { checkPushEndpoint, PushEndpointRefused } from './push-endpoint.ts';
import { startPushSender } from './push-sender.ts';
import { loadVapidKeys } from './vapid-keys.ts';

/**
 * Web Push (docs/decisions/012-conversations-and-push.md):
 *   GET    /api/push/public-key      → { publicKey }  the VAPID key browsers subscribe with
 *   POST   /api/push/subscriptions   { endpoint, keys: { p256dh, auth } } → 201: this device gets pushes;
 *          400 push_endpoint_* when the endpoint is not https on a public host (push-endpoint.ts)
 *   DELETE /api/push/subscriptions   { endpoint } → 204: this device no longer does
 * Subscriptions are server-only (never replicated). This module also runs the sender that delivers
 * queued notifications.
 */
export async function pushRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const keys = await loadVapidKeys(ctx.db, ctx.config.push);
  const endpointPolicy = ctx.config.push.endpointPolicy;
  const sender = startPushSender(ctx.db, keys, app.log, { endpointPolicy });
  app.addHook('onClose', async () => sender.close());

  const api = app.withTypeProvider<ZodTypeProvider>();
  // Where the endpoint may point is checkPushEndpoint's rule, after the contract's shape.
  const config = { invalid: { code: 'validation_failed', what: 'push subscription' } } as const;
  api.get('/push/public-key', { schema: getPushPublicKey }, async () => ({ publicKey: keys.publicKey }));

  api.post(
    '/push/subscriptions',
    { schema: postPushSubscription, config, preValidation: signedIn(ctx) },
    async (request, reply) => {
      const claims = claimsOf(request);
      const { endpoint, keys: subKeys } = request.body;
      try {
        await checkPushEndpoint(endpoint, endpointPolicy);
      } catch (err) {
        if (err instanceof PushEndpointRefused) throw new HttpError(400, err.code, err.message);
        throw err;
      }
      const userAgent = String(request.headers['user-agent'] ?? '').slice(0, 500) || null;
      // One subscription per browser: the endpoint now belongs to whoever signed in on it last.
      await ctx.db.asService((tx) =>
        tx.query(
          `insert into pacta_private.push_subscriptions (endpoint, user_id, p256dh, auth, user_agent) values ($1, $2, $3, $4, $5)
         on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           user_agent = excluded.user_agent, created_at = now()`,
          [endpoint, claims.sub, subKeys.p256dh, subKeys.auth, userAgent],
        ),
      );
      return reply.status(201).send({ endpoint });
    },
  );

  api.delete(
    '/push/subscriptions',
    { schema: deletePushSubscription, config, preValidation: signedIn(ctx) },
    async (request, reply) => {
      const claims = claimsOf(request);
      const { endpoint } = request.body;
      await ctx.db.asService((tx) =>
        tx.query('delete from pacta_private.push_subscriptions where endpoint = $1 and user_id = $2', [
          endpoint,
          claims.sub,
        ]),
      );
      return reply.status(204).send();
    },
  );
}
