import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { otpExpired, validationFailed } from './errors.ts';
import { consumeOneTimeToken, tokenHashOf, type OneTimeTokenType } from './one-time-tokens.ts';
import { authBodies, clientInfo, parseBody, queryParam, safeRedirect } from './request-helpers.ts';
import { prepareAuthEmail, type AuthServices } from './services.ts';
import { startSession, type SessionJson } from './sessions.ts';
import { findUserByEmail, findUserById, normalizeEmail } from './users.ts';

/** Which pending tokens each `type` of `/verify` may consume (GoTrue: magic links use the recovery token). */
const VERIFY_TYPES: Record<string, OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  email: ['confirmation_token', 'recovery_token'],
  recovery: ['recovery_token'],
  magiclink: ['recovery_token'],
};

/** `POST /recover`, `POST /resend`, `GET|POST /verify`: everything that goes through an e-mail. */
export async function emailLinkRoutes(app: FastifyInstance, opts: { services: AuthServices }): Promise<void> {
  const services = opts.services;
  const { db, config } = services.ctx;
  const { rateLimits } = services.auth;

  app.post('/recover', async (request) => {
    await services.limiter.consume('email_ip', request.ip, rateLimits.emailPerIp);
    const { email } = parseBody(request, authBodies.recover);
    const redirectTo = safeRedirect(config.publicUrl, queryParam(request, 'redirect_to'));
    const outboxId = await db.asService(async (tx) => {
      const user = await findUserByEmail(tx, email, { forUpdate: true });
      // An unknown address gets the same 200 as a known one: no account enumeration.
      if (!user) return undefined;
      return prepareAuthEmail(services, tx, { id: user.id, email }, 'recovery', redirectTo);
    });
    if (outboxId) await services.mailer.deliver(outboxId, request.log);
    return {};
  });

  app.post('/resend', async (request) => {
    await services.limiter.consume('email_ip', request.ip, rateLimits.emailPerIp);
    const { type, email } = parseBody(request, authBodies.resend);
    if (type !== 'signup') throw validationFailed(`Resending ${type} is not supported`);
    const redirectTo = safeRedirect(config.publicUrl, queryParam(request, 'redirect_to'));
    const outboxId = await db.asService(async (tx) => {
      const user = await findUserByEmail(tx, email, { forUpdate: true });
      // Unknown or already confirmed: nothing to send, and the answer does not tell which.
      if (!user || user.email_confirmed_at) return undefined;
      return prepareAuthEmail(services, tx, { id: user.id, email }, 'signup', redirectTo);
    });
    if (outboxId) await services.mailer.deliver(outboxId, request.log);
    return {};
  });

  /** Consumes the token and opens a session; throws 403 `otp_expired` for an unknown, used or expired one. */
  async function verify(tx: Tx, request: FastifyRequest, type: string, tokenHash: string): Promise<SessionJson> {
    const kinds = VERIFY_TYPES[type]!;
    const found = await consumeOneTimeToken(tx, tokenHash, kinds, services.auth.otpTtlSeconds);
    if (!found) throw otpExpired();
    const user = await findUserById(tx, found.userId, { forUpdate: true });
    if (!user) throw otpExpired();
    if (!user.email_confirmed_at) {
      // Following either link proves the address (Supabase confirms on recovery too).
      await tx.query(
        `update auth.users set email_confirmed_at = now(), updated_at = now(),
           raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}' where id = $1`,
        [user.id],
      );
      await tx.query(
        `update auth.identities set identity_data = identity_data || '{"email_verified": true}', updated_at = now()
         where user_id = $1 and provider = 'email'`,
        [user.id],
      );
    }
    return startSession(tx, services.signer, user.id, 'otp', clientInfo(request));
  }

  app.post('/verify', async (request) => {
    const { type, token_hash: tokenHash, token, email } = parseBody(request, authBodies.verify);
    if (!Object.hasOwn(VERIFY_TYPES, type)) throw validationFailed(`Unsupported verification type "${type}"`);
    let hash: string;
    if (tokenHash) hash = tokenHash;
    else if (token && email) hash = tokenHashOf(normalizeEmail(email), token.trim());
    else throw validationFailed('Verify requires either a token and an email, or a token hash');
    const session = await db.asService((tx) => verify(tx, request, type, hash));
    request.log.info(
      { event: 'verified', type, userId: (session.user as { id: string }).id },
      'auth: e-mail link verified',
    );
    return session;
  });

  // The link in the e-mail: verifies, then sends the browser to the app with the session in the URL
  // fragment (never the query, so it does not reach server logs), as Supabase's implicit flow does.
  app.get('/verify', async (request, reply) => {
    const redirectTo = new URL(safeRedirect(config.publicUrl, queryParam(request, 'redirect_to')));
    const type = queryParam(request, 'type') ?? '';
    const token = queryParam(request, 'token') ?? '';
    const fragment = new URLSearchParams();
    try {
      if (!Object.hasOwn(VERIFY_TYPES, type)) throw validationFailed(`Unsupported verification type "${type}"`);
      if (!token) throw otpExpired();
      const session = await db.asService((tx) => verify(tx, request, type, token));
      fragment.set('access_token', session.access_token);
      fragment.set('expires_at', String(session.expires_at));
      fragment.set('expires_in', String(session.expires_in));
      fragment.set('refresh_token', session.refresh_token);
      fragment.set('token_type', session.token_type);
      fragment.set('type', type);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      fragment.set('error', err.code === 'otp_expired' ? 'access_denied' : 'invalid_request');
      fragment.set('error_code', err.code);
      fragment.set(
        'error_description',
        err.code === 'otp_expired' ? 'Email link is invalid or has expired' : err.message,
      );
    }
    redirectTo.hash = fragment.toString();
    return reply.redirect(redirectTo.toString(), 303);
  });
}
