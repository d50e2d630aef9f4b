import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app.ts';
import { HttpError, refusal } from '../http/errors.ts';
import { accountRoutes } from './account-routes.ts';
import { devMailboxRoutes } from './dev-mailbox.ts';
import { emailLinkRoutes } from './email-link-routes.ts';
import { authError, SUPABASE_API_VERSION } from './errors.ts';
import { createAuthMailer } from './mailer.ts';
import { createRateLimiter } from './rate-limit.ts';
import { signInRoutes } from './sign-in-routes.ts';
import type { AuthServices } from './services.ts';

/**
 * The local Supabase Auth (`/auth/v1`), served only in local mode. Endpoints, status codes, error
 * bodies and token claims follow Supabase Auth (GoTrue) so `@supabase/supabase-js` behaves the same
 * against it as against a hosted project.
 */
export async function authRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { ctx } = opts;
  const auth = ctx.config.auth;
  if (auth.mode !== 'local' || !ctx.signer) throw new Error('authRoutes needs local auth mode');
  const services: AuthServices = {
    ctx,
    auth,
    signer: ctx.signer,
    limiter: createRateLimiter(ctx.db, auth.rateLimits.windowSeconds),
    mailer: createAuthMailer({
      db: ctx.db,
      publicUrl: ctx.config.publicUrl,
      smtp: ctx.config.smtp,
      minIntervalSeconds: auth.rateLimits.emailMinIntervalSeconds,
    }),
  };

  // Auth e-mails go out in the background: a closing server lets them finish first.
  app.addHook('onClose', async () => {
    await services.mailer.settle();
  });

  // supabase-js reads error `code`s only from responses that carry this header.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-supabase-api-version', SUPABASE_API_VERSION);
  });

  // supabase-js posts `/logout` with a JSON content type and no body; GoTrue accepts that, so do we.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = String(raw);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(authError(400, 'bad_json', `Could not parse request body as JSON: ${(err as Error).message}`), undefined);
    }
  });

  app.setErrorHandler((err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    if (!(err instanceof HttpError) && err.statusCode === 400 && err.code?.startsWith('FST_ERR_CTP')) {
      return reply.status(400).send(refusal('bad_json', `Could not parse request body as JSON: ${err.message}`));
    }
    throw err; // the application's handler answers everything else as { code, message }
  });

  app.get('/health', async () => ({
    version: 'pacta-local',
    name: 'GoTrue',
    description: 'Pacta local Supabase-compatible auth',
  }));

  app.get('/settings', async () => ({
    external: { email: true, phone: false, anonymous_users: false },
    disable_signup: false,
    mailer_autoconfirm: !auth.emailConfirmation,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  }));

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return services.signer.jwks;
  });

  await app.register(signInRoutes, { services });
  await app.register(accountRoutes, { services });
  await app.register(emailLinkRoutes, { services });
  // The dev mailbox exposes every link: only when no real mail goes out.
  if (!ctx.config.smtp) await app.register(devMailboxRoutes, { services });
}
