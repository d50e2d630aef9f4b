import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/database.ts';
import { authError, validationFailed } from './errors.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.ts';
import { authBodies, parseBody, queryParam } from './request-helpers.ts';
import { requireCaller, type AuthServices } from './services.ts';
import { endSessions, type LogoutScope } from './sessions.ts';
import { findUserById, normalizeEmail, userJson } from './users.ts';

const SCOPES: LogoutScope[] = ['global', 'local', 'others'];

/**
 * A password change needs the current password, or a session started within the last
 * `AUTH_PASSWORD_CHANGE_RECENT_SIGN_IN_SECONDS` (a fresh sign-in, or the session a recovery link just
 * opened). So a session left open on a borrowed device cannot take the account over. GoTrue's codes:
 * 400 `current_password_required`, 400 `current_password_invalid`. A given current password is always
 * checked, even on a fresh session. An account without a password (seeded) has nothing to check.
 */
async function assertMayChangePassword(
  tx: Tx,
  services: AuthServices,
  sessionId: string,
  storedHash: string | null,
  currentPassword: string | undefined,
): Promise<void> {
  if (currentPassword !== undefined) {
    if (!(await verifyPassword(currentPassword, storedHash))) {
      throw authError(400, 'current_password_invalid', 'Current password is incorrect.');
    }
    return;
  }
  if (!storedHash) return;
  const recent = services.auth.accountSafety.passwordChangeRecentSignInSeconds;
  const { rowCount } = await tx.query(
    `select 1 from auth.sessions where id = $1 and created_at > now() - make_interval(secs => $2)`,
    [sessionId, recent],
  );
  if (!rowCount)
    throw authError(400, 'current_password_required', 'Current password required when setting new password.');
}

/** `GET /user`, `PUT /user` and `POST /logout`: what a signed-in user does with their own account. */
export async function accountRoutes(app: FastifyInstance, opts: { services: AuthServices }): Promise<void> {
  const services = opts.services;
  const { db } = services.ctx;

  app.get('/user', async (request) => {
    const caller = await requireCaller(services, request);
    const user = await db.asService((tx) => findUserById(tx, caller.sub));
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return userJson(user);
  });

  app.put('/user', async (request) => {
    const caller = await requireCaller(services, request);
    const { password, current_password: currentPassword, data, email } = parseBody(request, authBodies.updateUser);
    if (password !== undefined) assertAcceptablePassword(password);
    if (password !== undefined && currentPassword !== undefined) {
      // Each try at the current password is a sign-in attempt: a borrowed session must not become a
      // way around the sign-in limits.
      await services.limiter.consume('sign_in_ip', request.ip, services.auth.rateLimits.signInPerIp);
      await services.limiter.consume(
        'sign_in_ip_email',
        `${request.ip} ${normalizeEmail(String(caller.email ?? ''))}`,
        services.auth.accountSafety.signInPerIpAndEmail,
      );
    }

    const user = await db.asService(async (tx) => {
      const current = await findUserById(tx, caller.sub, { forUpdate: true });
      if (!current) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      if (email !== undefined && normalizeEmail(email) !== (current.email ?? '')) {
        // Changing the address needs a double-confirmation flow the local auth does not offer yet.
        throw validationFailed('Changing the email address is not supported by the local auth');
      }
      if (password !== undefined) {
        await assertMayChangePassword(tx, services, caller.session_id, current.encrypted_password, currentPassword);
        if (await verifyPassword(password, current.encrypted_password)) {
          throw authError(422, 'same_password', 'New password should be different from the old password.');
        }
        await tx.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [
          current.id,
          await hashPassword(password),
        ]);
        // As Supabase Auth does: a new password ends every other session of the account.
        await endSessions(tx, current.id, caller.session_id, 'others');
      }
      if (data) {
        // Supabase merges the given keys into user_metadata; a null value removes its key.
        const removed = Object.keys(data).filter((k) => data[k] === null);
        await tx.query(
          `update auth.users set raw_user_meta_data = (coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb) - $3::text[],
             updated_at = now() where id = $1`,
          [current.id, JSON.stringify(data), removed],
        );
      }
      return (await findUserById(tx, caller.sub))!;
    });
    request.log.info(
      { event: 'user_updated', userId: user.id, passwordChanged: password !== undefined },
      'auth: user updated',
    );
    return userJson(user);
  });

  app.post('/logout', async (request, reply) => {
    const scope = (queryParam(request, 'scope') ?? 'global') as LogoutScope;
    if (!SCOPES.includes(scope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
    const caller = await requireCaller(services, request);
    await db.asService((tx) => endSessions(tx, caller.sub, caller.session_id, scope));
    request.log.info({ event: 'logout', scope, userId: caller.sub }, 'auth: signed out');
    return reply.status(204).send();
  });
}
