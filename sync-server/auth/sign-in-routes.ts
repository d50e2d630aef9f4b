import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authError, invalidCredentials, validationFailed } from './errors.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.ts';
import { authBodies, clientInfo, parseBody, queryParam, safeRedirect } from './request-helpers.ts';
import { claimEmailSlot, prepareAuthEmail, type AuthServices } from './services.ts';
import { pendingUserLookAlike } from './look-alike-user.ts';
import { refreshSession, startSession } from './sessions.ts';
import { findUserByEmail, findUserById, isBanned, userJson } from './users.ts';

/** `POST /signup` and `POST /token` (grant types password and refresh_token). */
export async function signInRoutes(app: FastifyInstance, opts: { services: AuthServices }): Promise<void> {
  const services = opts.services;
  const { db } = services.ctx;
  const { rateLimits } = services.auth;

  app.post('/signup', async (request) => {
    await services.limiter.consume('sign_up_ip', request.ip, rateLimits.signUpPerIp);
    const { email, password, data = {} } = parseBody(request, authBodies.signUp);
    assertAcceptablePassword(password);
    const redirectTo = safeRedirect(services.ctx.config.publicUrl, queryParam(request, 'redirect_to'));
    const confirm = services.auth.emailConfirmation;
    // Hashed on every path, so an address with an account costs the same bcrypt as a new one.
    const passwordHash = await hashPassword(password);

    const outcome = await db.asService(async (tx) => {
      if (confirm) await claimEmailSlot(services, tx, email);
      const existing = await findUserByEmail(tx, email, { forUpdate: true });
      if (existing && !confirm) throw authError(422, 'user_already_exists', 'User already registered');
      if (existing) {
        // Nothing of the account changes: whoever signs up again cannot be told from its owner, so
        // neither their password nor their metadata is kept (GoTrue: "we can't be sure of their
        // claimed identity"). A pending account gets its confirmation again, to the owner's inbox.
        const outboxId = existing.email_confirmed_at
          ? undefined
          : await prepareAuthEmail(services, tx, { id: existing.id, email }, 'signup', redirectTo);
        request.log.info({ event: 'signup_repeated', pending: Boolean(outboxId) }, 'auth: sign-up of a known address');
        return { body: pendingUserLookAlike(email, data), outboxId };
      }
      const userId = randomUUID();
      const identityData = { sub: userId, email, email_verified: !confirm, phone_verified: false };
      await tx.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
           raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3,
           case when $4::boolean then null else now() end, '{"provider":"email","providers":["email"]}', $5, now(), now(), false)`,
        [userId, email, passwordHash, confirm, { ...data, ...identityData }],
      );
      await tx.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
         values ($1::text, $1::uuid, $2, 'email', now(), now())`,
        [userId, identityData],
      );
      if (!confirm) return { body: await startSession(tx, services.signer, userId, 'password', clientInfo(request)) };
      const outboxId = await prepareAuthEmail(services, tx, { id: userId, email }, 'signup', redirectTo);
      return { body: userJson((await findUserById(tx, userId))!), outboxId };
    });
    if (outcome.outboxId) services.mailer.deliver(outcome.outboxId, request.log);
    request.log.info({ event: 'signup', confirm }, 'auth: sign-up');
    return outcome.body;
  });

  app.post('/token', async (request) => {
    const grantType = queryParam(request, 'grant_type');
    if (grantType === 'password') {
      await services.limiter.consume('sign_in_ip', request.ip, rateLimits.signInPerIp);
      const body = parseBody(request, authBodies.passwordGrant);
      const email = body.email?.trim().toLowerCase();
      const password = body.password;
      if (!email || !password) throw invalidCredentials();
      // Per (IP, address), not per address: guesses from one place must not lock the owner out elsewhere.
      await services.limiter.consume(
        'sign_in_ip_email',
        `${request.ip} ${email}`,
        services.auth.accountSafety.signInPerIpAndEmail,
      );
      return db.asService(async (tx) => {
        const user = await findUserByEmail(tx, email);
        const matches = await verifyPassword(password, user?.encrypted_password);
        if (!user || !matches) {
          request.log.info({ event: 'sign_in_failed' }, 'auth: sign-in refused');
          throw invalidCredentials();
        }
        if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed');
        if (isBanned(user)) throw authError(400, 'user_banned', 'User is banned');
        request.log.info({ event: 'sign_in', userId: user.id }, 'auth: signed in');
        return startSession(tx, services.signer, user.id, 'password', clientInfo(request));
      });
    }
    if (grantType === 'refresh_token') {
      const token = parseBody(request, authBodies.refreshGrant).refresh_token;
      const outcome = await db.asService((tx) =>
        refreshSession(tx, services.signer, token, services.auth.refreshTokenReuseIntervalSeconds),
      );
      if ('reused' in outcome) {
        request.log.warn(
          { event: 'refresh_token_reused' },
          'auth: a revoked refresh token was reused; its session was ended',
        );
        throw authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
      }
      return outcome.session;
    }
    throw validationFailed('unsupported_grant_type');
  });
}
