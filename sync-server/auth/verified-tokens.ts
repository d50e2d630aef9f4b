import type { JwtClaims } from '../db/database.ts';
import type { AccessTokenVerifier } from './tokens.ts';

/** A token's verification is kept at most this long (and never past its `exp`). */
const REMEMBER_MS = 5 * 60_000;
const MAX_REMEMBERED = 50_000;

/**
 * Remembers tokens that verified, so the same bearer token is not checked again on every request: a
 * device sends the same token with every pull, and after a catalog notice every online device pulls
 * at once, when verifying signatures (ECDSA, ~0.5 ms each) was the sync server's largest CPU cost. A
 * remembered token is the same bytes whose signature, issuer and audience were checked; it is
 * forgotten at its `exp` and after `REMEMBER_MS`, so a key removed from the JWKS stops being accepted
 * within that time. Only successes are remembered. The session check is not part of this and still
 * runs on every request.
 */
export function rememberVerifiedTokens(
  verify: AccessTokenVerifier,
  opts: { now?: () => number } = {},
): AccessTokenVerifier {
  const now = opts.now ?? Date.now;
  const verified = new Map<string, { claims: JwtClaims; until: number }>();
  return async (token) => {
    const known = verified.get(token);
    if (known && now() < known.until) return { ...known.claims };
    verified.delete(token);
    const claims = await verify(token);
    if (typeof claims.exp === 'number') {
      // The oldest entry goes first (a Map iterates in insertion order).
      if (verified.size >= MAX_REMEMBERED) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims, until: Math.min(claims.exp * 1000, now() + REMEMBER_MS) });
    }
    return claims;
  };
}
