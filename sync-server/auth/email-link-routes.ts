import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { otpExpired, validationFailed } from './errors.ts';
import { checkTypedCode, consumeLinkToken, type OneTimeTokenType } from './one-time-tokens.ts';
import { authBodies, clientInfo, parseBody, queryParam, safeRedirect } from './request-helpers.ts';
import { claimEmailSlot, prepareAuthEmail, type AuthServices } from './services.ts';
import { startSession, type SessionJson } from './sessions.ts';
import { findUserByEmail, findUserById, normalizeEmail } from './users.ts';

/** Which pending tokens each `type` of `/verify` may consume (GoTrue: magic links use the recovery token). */
const VERIFY_TYPES: Record<string, OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  email: ['confirmation_token', 'recovery_token'],
  recovery: ['recovery_token'],
  magiclink: ['recovery_token'],
};

/** What a `/verify` request presents: the secret of an e-mail link, or an address and the code typed by hand. */
type Proof = { link: string } | { email: string; code: string };

/** `POST /recover`, `POST /resend`, `GET|POST /verify`: everything that goes through an e-mail. */
export async function emailLinkRoutes(app: FastifyInstance, opts: { services: AuthServices }): Promise<void> {
  const services = opts.services;
  const { db, config } = services.ctx;
  const { rateLimits, accountSafety } = services.auth;

  // Recover and resend answer alike for every address (200, or the same 429 within the e-mail
  // interval); only an address with an account gets an e-mail.
  app.post('/recover', async (request) => {
    await services.limiter.consume('email_ip', request.ip, rateLimits.emailPerIp);
    const { email } = parseBody(request, authBodies.recover);
    const redirectTo = safeRedirect(config.publicUrl, queryParam(request, 'redirect_to'));
    const outboxId = await db.asService(async (tx) => {
      await claimEmailSlot(services, tx, email);
      const user = await findUserByEmail(tx, email, { forUpdate: true });
      if (!user) return undefined;
      return prepareAuthEmail(services, tx, { id: user.id, email }, 'recovery', redirectTo);
    });
    if (outboxId) services.mailer.deliver(outboxId, request.log);
    return {};
  });

  app.post('/resend', async (request) => {
    await services.limiter.consume('email_ip', request.ip, rateLimits.emailPerIp);
    const { type, email } = parseBody(request, authBodies.resend);
    if (type !== 'signup') throw validationFailed(`Resending ${type} is not supported`);
    const redirectTo = safeRedirect(config.publicUrl, queryParam(request, 'redirect_to'));
    const outboxId = await db.asService(async (tx) => {
      await claimEmailSlot(services, tx, email);
      const user = await findUserByEmail(tx, email, { forUpdate: true });
      if (!user || user.email_confirmed_at) return undefined;
      return prepareAuthEmail(services, tx, { id: user.id, email }, 'signup', redirectTo);
    });
    if (outboxId) services.mailer.deliver(outboxId, request.log);
    return {};
  });

  /**
   * Checks the proof and opens a session; 429 past the `/verify` limits (per IP; typed codes also per
   * address), 403 `otp_expired` for an unknown, used, expired or dead token or a wrong code.
   */
  async function verify(request: FastifyRequest, type: string, proof: Proof): Promise<SessionJson> {
    await services.limiter.consume('verify_ip', request.ip, accountSafety.verifyPerIp);
    if ('code' in proof) await services.limiter.consume('verify_email', proof.email, accountSafety.verifyPerEmail);
    const kinds = VERIFY_TYPES[type]!;
    // One transaction that commits on a refusal too: a wrong code's failure count must stick.
    const session = await db.asService(async (tx) => {
      const found =
        'link' in proof
          ? await consumeLinkToken(tx, proof.link, kinds, services.auth.otpTtlSeconds)
          : await checkTypedCode(tx, proof.email, proof.code, kinds, {
              ttlSeconds: accountSafety.otpCodeTtlSeconds,
              maxFailures: accountSafety.otpMaxFailedAttempts,
            });
      if (!found) return undefined;
      const user = await findUserById(tx, found.userId, { forUpdate: true });
      if (!user) return undefined;
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
    });
    if (!session) {
      request.log.info({ event: 'verify_refused', type }, 'auth: e-mail link or code refused');
      throw otpExpired();
    }
    request.log.info(
      { event: 'verified', type, userId: (session.user as { id: string }).id },
      'auth: e-mail link verified',
    );
    return session;
  }

  app.post('/verify', async (request) => {
    const { type, token_hash: tokenHash, token, email } = parseBody(request, authBodies.verify);
    if (!Object.hasOwn(VERIFY_TYPES, type)) throw validationFailed(`Unsupported verification type "${type}"`);
    let proof: Proof;
    if (tokenHash) proof = { link: tokenHash };
    else if (token && email) proof = { email: normalizeEmail(email), code: token.trim() };
    else throw validationFailed('Verify requires either a token and an email, or a token hash');
    return verify(request, type, proof);
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
      const session = await verify(request, type, { link: token });
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
