import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import type { Database, JwtClaims } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';

const ALG = 'ES256';

export type AccessTokenSigner = {
  kid: string;
  issuer: string;
  ttlSeconds: number;
  jwks: jose.JSONWebKeySet;
  /** Signs an access token with Supabase's claim set; `exp` and `iat` are added here. */
  sign(claims: Omit<JwtClaims, 'iss' | 'aud' | 'exp' | 'iat'>): Promise<{ token: string; expiresAt: number }>;
};

/**
 * The local auth's ES256 key: generated on first start and kept in `auth.pacta_signing_keys`,
 * so every server instance on the same database signs and verifies with the same key.
 */
export async function loadLocalSigner(db: Database, issuer: string, ttlSeconds: number): Promise<AccessTokenSigner> {
  const row = await db.asService(async (tx) => {
    const existing = await tx.query(
      'select kid, private_jwk, public_jwk from auth.pacta_signing_keys order by created_at desc limit 1',
    );
    if (existing.rowCount) return existing.rows[0];
    const { privateKey, publicKey } = await jose.generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    const privateJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: ALG, use: 'sig' };
    const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg: ALG, use: 'sig', key_ops: ['verify'] };
    // Two instances starting together: the first insert wins, the other reads it back.
    await tx.query(
      `insert into auth.pacta_signing_keys (kid, private_jwk, public_jwk)
       select $1, $2, $3 where not exists (select 1 from auth.pacta_signing_keys)`,
      [kid, privateJwk, publicJwk],
    );
    return (
      await tx.query(
        'select kid, private_jwk, public_jwk from auth.pacta_signing_keys order by created_at desc limit 1',
      )
    ).rows[0];
  });
  const privateKey = await jose.importJWK(row.private_jwk, ALG);
  return {
    kid: row.kid,
    issuer,
    ttlSeconds,
    jwks: { keys: [row.public_jwk] },
    async sign(claims) {
      const iat = Math.floor(Date.now() / 1000);
      const expiresAt = iat + ttlSeconds;
      const token = await new jose.SignJWT({ ...claims })
        .setProtectedHeader({ alg: ALG, kid: row.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience('authenticated')
        .setIssuedAt(iat)
        .setExpirationTime(expiresAt)
        .sign(privateKey);
      return { token, expiresAt };
    },
  };
}

export type AccessTokenVerifier = (token: string) => Promise<JwtClaims>;

/**
 * Verifies a bearer token against a JWKS (the local one, or a hosted project's
 * `/auth/v1/.well-known/jwks.json`), checking signature, `iss`, `aud` and `exp`.
 * Every failure is a 401 `bad_jwt`; callers add session checks on top.
 */
export function createTokenVerifier(opts: { issuer: string; jwks: jose.JSONWebKeySet | URL }): AccessTokenVerifier {
  const keySet = opts.jwks instanceof URL ? jose.createRemoteJWKSet(opts.jwks) : jose.createLocalJWKSet(opts.jwks);
  return async (token) => {
    try {
      const { payload } = await jose.jwtVerify(token, keySet, {
        issuer: opts.issuer,
        audience: 'authenticated',
        algorithms: [ALG, 'RS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.role !== 'string') {
        throw new Error('token lacks sub or role');
      }
      return payload as JwtClaims;
    } catch (err) {
      const expired = err instanceof jose.errors.JWTExpired;
      throw new HttpError(
        401,
        'bad_jwt',
        expired ? 'invalid JWT: token is expired' : 'invalid JWT: unable to verify token',
      );
    }
  };
}
