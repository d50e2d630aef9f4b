import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { Tx } from '../db/database.ts';

export type OneTimeTokenType = 'confirmation_token' | 'recovery_token';

/** GoTrue's token hash: hex sha224 of e-mail + code. E-mail links carry it; the code is typed by hand. */
export const tokenHashOf = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex');

/**
 * Issues a fresh one-time token of that kind for the user (replacing any pending one) and stamps the
 * GoTrue columns on auth.users (`confirmation_token`/`recovery_token` and their `*_sent_at`).
 */
export async function issueOneTimeToken(
  tx: Tx,
  user: { id: string; email: string },
  type: OneTimeTokenType,
): Promise<{ otp: string; tokenHash: string }> {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const tokenHash = tokenHashOf(user.email, otp);
  await tx.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
       created_at = now(), updated_at = now()`,
    [randomUUID(), user.id, type, tokenHash, user.email],
  );
  const column = type === 'confirmation_token' ? 'confirmation' : 'recovery';
  await tx.query(
    `update auth.users set ${column}_token = $2, ${column}_sent_at = now(), updated_at = now() where id = $1`,
    [user.id, tokenHash],
  );
  return { otp, tokenHash };
}

/**
 * Consumes a one-time token by its hash: returns the user id when it exists, is of one of the
 * accepted kinds and has not expired. A found token is deleted either way (single use).
 */
export async function consumeOneTimeToken(
  tx: Tx,
  tokenHash: string,
  types: OneTimeTokenType[],
  ttlSeconds: number,
): Promise<{ userId: string; type: OneTimeTokenType } | undefined> {
  const { rows } = await tx.query<{ id: string; user_id: string; token_type: OneTimeTokenType; fresh: boolean }>(
    `select id, user_id, token_type::text as token_type, created_at > localtimestamp - make_interval(secs => $3) as fresh
     from auth.one_time_tokens where token_hash = $1 and token_type::text = any($2) for update`,
    [tokenHash, types, ttlSeconds],
  );
  const row = rows[0];
  if (!row) return undefined;
  await tx.query(`delete from auth.one_time_tokens where id = $1`, [row.id]);
  const column = row.token_type === 'confirmation_token' ? 'confirmation_token' : 'recovery_token';
  await tx.query(`update auth.users set ${column} = '' where id = $1`, [row.user_id]);
  return row.fresh ? { userId: row.user_id, type: row.token_type } : undefined;
}
