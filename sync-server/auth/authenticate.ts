import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database, JwtClaims } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { AccessTokenVerifier } from './tokens.ts';
import { batched } from '../db/batched.ts';
import { aliveSessions } from './sessions.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The sync server's bearer-token check (`ctx.authenticate`): signature, `iss`, `aud` and `exp` against
 * the JWKS, then that the token's session still exists (signed out or revoked → 401
 * `session_not_found`). The sync server shares hosted Supabase's Postgres, so it reads the same
 * `auth.sessions` its Auth deletes from on sign-out: an ended session is refused in both modes.
 * Every failure is 401 `{ code, message }`.
 */
export function createAuthenticator(opts: { config: ServerConfig; db: Database; verifyToken: AccessTokenVerifier }) {
  // After a catalog notice every online device pulls at once: their session checks go together, in
  // one query per burst (each still read after its request arrived).
  const sessionOwner = batched(
    async (ids: string[]) => {
      const alive = await aliveSessions(opts.db.pool, ids);
      return ids.map((id) => alive.get(id));
    },
    { max: 2_000, lanes: 4 },
  );
  return async function authenticate(request: FastifyRequest): Promise<JwtClaims> {
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, 'no_authorization', 'This endpoint requires a Bearer token');
    const claims = await opts.verifyToken(token);
    const sessionId = claims.session_id;
    const hasSession = typeof sessionId === 'string' && UUID.test(sessionId) && UUID.test(claims.sub);
    // Local tokens always name their session; a hosted project's user tokens do too (its anon and
    // service keys do not, and are checked by signature alone, as Supabase's own APIs do).
    if (opts.config.auth.mode === 'local' && !hasSession)
      throw new HttpError(401, 'bad_jwt', 'invalid JWT: no valid session_id claim');
    if (hasSession && (await sessionOwner(sessionId)) !== claims.sub.toLowerCase()) {
      throw new HttpError(401, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    return claims;
  };
}
