import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Tx } from '../db/database.ts';

export type OneTimeTokenType = 'confirmation_token' | 'recovery_token';

/** GoTrue's hash of a typed code: hex sha224 of e-mail + code. Stored instead of the code itself. */
const codeHashOf = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex');

/** What the database keeps of an e-mail link's token: its sha256, so a database leak opens no link. */
const linkHashOf = (linkToken: string) => createHash('sha256').update(linkToken).digest('hex');

/**
 * Issues a fresh one-time token of that kind for the user (replacing any pending one) and stamps the
 * GoTrue columns on auth.users (`confirmation_token`/`recovery_token` and their `*_sent_at`).
 *
 * Two secrets, each stored only as a hash: the link's token is 256 random bits (it cannot be guessed,
 * so it may live `AUTH_OTP_TTL_SECONDS`), and the six-digit code is for typing by hand (10^6 values,
 * so it lives minutes and dies after a few wrong tries). GoTrue derives the link from the code; here
 * knowing one tells nothing about the other.
 */
export async function issueOneTimeToken(
  tx: Tx,
  user: { id: string; email: string },
  type: OneTimeTokenType,
): Promise<{ otp: string; linkToken: string }> {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const linkToken = randomBytes(32).toString('base64url');
  const tokenHash = linkHashOf(linkToken);
  await tx.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, code_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, code_hash = excluded.code_hash,
       relates_to = excluded.relates_to, failed_attempts = 0, created_at = now(), updated_at = now()`,
    [randomUUID(), user.id, type, tokenHash, codeHashOf(user.email, otp), user.email],
  );
  const column = type === 'confirmation_token' ? 'confirmation' : 'recovery';
  await tx.query(
    `update auth.users set ${column}_token = $2, ${column}_sent_at = now(), updated_at = now() where id = $1`,
    [user.id, tokenHash],
  );
  return { otp, linkToken };
}

type Found = { userId: string; email: string; type: OneTimeTokenType };

/** Deletes a used token (single use) and clears its GoTrue column on auth.users. */
async function retire(tx: Tx, row: { id: string; user_id: string; token_type: OneTimeTokenType }): Promise<void> {
  await tx.query(`delete from auth.one_time_tokens where id = $1`, [row.id]);
  const column = row.token_type === 'confirmation_token' ? 'confirmation_token' : 'recovery_token';
  await tx.query(`update auth.users set ${column} = '' where id = $1`, [row.user_id]);
}

/**
 * Consumes a token by the secret its e-mail link carries: the user when it exists, is of one of the
 * accepted kinds and is younger than `ttlSeconds`. A found token is deleted either way (single use).
 */
export async function consumeLinkToken(
  tx: Tx,
  linkToken: string,
  types: OneTimeTokenType[],
  ttlSeconds: number,
): Promise<Found | undefined> {
  const { rows } = await tx.query<{
    id: string;
    user_id: string;
    relates_to: string;
    token_type: OneTimeTokenType;
    fresh: boolean;
  }>(
    `select id, user_id, relates_to, token_type::text as token_type,
       created_at > localtimestamp - make_interval(secs => $3) as fresh
     from auth.one_time_tokens where token_hash = $1 and token_type::text = any($2) for update`,
    [linkHashOf(linkToken), types, ttlSeconds],
  );
  const row = rows[0];
  if (!row) return undefined;
  await retire(tx, row);
  return row.fresh ? { userId: row.user_id, email: row.relates_to, type: row.token_type } : undefined;
}

/**
 * Checks a typed code for the address against its pending tokens of the accepted kinds. The right
 * code of a live token (younger than `ttlSeconds`, fewer than `maxFailures` wrong tries) consumes it.
 * A wrong code adds one failure to each pending token of the address, in the caller's transaction,
 * which must commit even though the answer is a refusal.
 */
export async function checkTypedCode(
  tx: Tx,
  email: string,
  code: string,
  types: OneTimeTokenType[],
  limits: { ttlSeconds: number; maxFailures: number },
): Promise<Found | undefined> {
  const { rows } = await tx.query<{
    id: string;
    user_id: string;
    token_type: OneTimeTokenType;
    code_hash: string | null;
    alive: boolean;
  }>(
    `select id, user_id, token_type::text as token_type, code_hash,
       created_at > localtimestamp - make_interval(secs => $3) and failed_attempts < $4 as alive
     from auth.one_time_tokens where relates_to = $1 and token_type::text = any($2) order by id for update`,
    [email, types, limits.ttlSeconds, limits.maxFailures],
  );
  const given = Buffer.from(codeHashOf(email, code));
  const match = rows.find((r) => {
    const stored = Buffer.from(r.code_hash ?? '');
    return r.alive && stored.length === given.length && timingSafeEqual(stored, given);
  });
  if (match) {
    await retire(tx, match);
    return { userId: match.user_id, email, type: match.token_type };
  }
  if (rows.length > 0) {
    await tx.query(
      `update auth.one_time_tokens set failed_attempts = failed_attempts + 1, updated_at = now() where id = any($1)`,
      [rows.map((r) => r.id)],
    );
  }
  return undefined;
}
