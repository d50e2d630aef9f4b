import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../db/database.ts';
import { storageErrors } from './storage-errors.ts';

export type SignedUrls = {
  /** A token granting reads of `bucket/name` until `expiresIn` seconds from now. */
  sign(bucketId: string, name: string, expiresIn: number): Promise<string>;
  /** The `bucket/name` a token grants; refused (400 InvalidJWT, as Storage does) when forged or expired. */
  verify(token: string): Promise<string>;
};

/**
 * Signed URLs as Storage makes them: the URL carries a JWT `{ url: "<bucket>/<name>", iat, exp }`
 * (HS256). Its key is kept in Postgres (made by the first server to start), so a URL signed by one
 * instance is honoured by every other.
 */
export async function loadSignedUrls(db: Database): Promise<SignedUrls> {
  const stored = await db.asService(async (tx) => {
    const { rows } = await tx.query<{ secret: string }>(
      `with made as (
         insert into pacta_private.storage_url_keys (secret) values ($1)
         on conflict (singleton) do nothing returning secret)
       select secret from made
       union all
       select secret from pacta_private.storage_url_keys where not exists (select 1 from made)`,
      [randomBytes(32).toString('base64url')],
    );
    // Two instances starting together: the loser's statement began before the winner's row was
    // committed; a new statement sees it.
    return rows[0] ?? (await tx.query<{ secret: string }>('select secret from pacta_private.storage_url_keys')).rows[0];
  });
  if (!stored) throw new Error('the signed-URL key could not be stored');
  const key = Buffer.from(stored.secret, 'base64url');
  return {
    sign: (bucketId, name, expiresIn) =>
      new SignJWT({ url: `${bucketId}/${name}` })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.url !== 'string') throw storageErrors.invalidJwt();
        return payload.url;
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw storageErrors.invalidJwt('"exp" claim timestamp check failed');
        throw storageErrors.invalidJwt('invalid signature');
      }
    },
  };
}
