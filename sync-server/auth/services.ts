import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app.ts';
import type { ServerConfig } from '../config.ts';
import type { JwtClaims, Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { bearerToken } from './authenticate.ts';
import { authError, overEmailSendRateLimit } from './errors.ts';
import type { AuthMailer, AuthEmailKind } from './mailer.ts';
import { issueOneTimeToken } from './one-time-tokens.ts';
import type { RateLimiter } from './rate-limit.ts';
import { sessionIsAlive } from './sessions.ts';
import type { AccessTokenSigner } from './tokens.ts';

export type LocalAuthConfig = Extract<ServerConfig['auth'], { mode: 'local' }>;

/** What the /auth/v1 route modules share. */
export type AuthServices = {
  ctx: AppContext;
  auth: LocalAuthConfig;
  signer: AccessTokenSigner;
  limiter: RateLimiter;
  mailer: AuthMailer;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The signed-in caller of `/user` and `/logout`, with GoTrue's statuses: no token 401
 * `no_authorization`, a bad token 403 `bad_jwt`, an ended session 403 `session_not_found`.
 */
export async function requireCaller(
  services: AuthServices,
  request: FastifyRequest,
): Promise<JwtClaims & { session_id: string }> {
  const token = bearerToken(request);
  if (!token) throw authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  let claims: JwtClaims;
  try {
    claims = await services.ctx.verifyToken(token);
  } catch (err) {
    if (err instanceof HttpError) throw authError(403, err.code, err.message);
    throw err;
  }
  const sessionId = claims.session_id;
  if (typeof sessionId !== 'string' || !UUID.test(sessionId) || !UUID.test(claims.sub)) {
    throw authError(403, 'bad_jwt', 'invalid claim: missing sub or session_id claim');
  }
  if (!(await sessionIsAlive(services.ctx.db.pool, sessionId, claims.sub))) {
    throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  return { ...claims, session_id: sessionId };
}

/**
 * Takes the address's auth e-mail slot (429 `over_email_send_rate_limit` within the interval), for
 * every address asked about, with an account or not: the answer must not tell which.
 */
export async function claimEmailSlot(services: AuthServices, tx: Tx, email: string): Promise<void> {
  const wait = await services.mailer.claimSendSlot(tx, email);
  if (wait > 0) throw overEmailSendRateLimit(wait);
}

/**
 * Issues a confirmation or recovery token and queues its e-mail, in the caller's transaction (which
 * has claimed the address's slot). Returns the outbox id to deliver once the transaction has committed.
 */
export async function prepareAuthEmail(
  services: AuthServices,
  tx: Tx,
  user: { id: string; email: string },
  kind: AuthEmailKind,
  redirectTo: string,
): Promise<string> {
  const { otp, linkToken } = await issueOneTimeToken(
    tx,
    user,
    kind === 'signup' ? 'confirmation_token' : 'recovery_token',
  );
  return services.mailer.queue(tx, { userId: user.id, to: user.email, kind, otp, linkToken, redirectTo });
}
