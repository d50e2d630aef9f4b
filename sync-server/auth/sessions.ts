import { randomBytes, randomUUID } from 'node:crypto';
import type { Tx } from '../db/database.ts';
import type { AccessTokenSigner } from './tokens.ts';
import { authError } from './errors.ts';
import { findUserById, isBanned, userJson, type UserRow } from './users.ts';

export type AmrEntry = { method: string; timestamp: number };
export type ClientInfo = { ip: string; userAgent: string | undefined };

/** The session object supabase-js stores: Supabase's exact field names. */
export type SessionJson = {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
};

// GoTrue's refresh tokens are short random strings kept as-is in auth.refresh_tokens.
const newRefreshToken = () => randomBytes(16).toString('base64url');

/** Signs an access token with Supabase's claim set for this user and session. */
export async function signAccessToken(
  signer: AccessTokenSigner,
  user: UserRow,
  session: { id: string; aal: string; amr: AmrEntry[] },
): Promise<{ token: string; expiresAt: number }> {
  return signer.sign({
    sub: user.id,
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    session_id: session.id,
    aal: session.aal,
    amr: session.amr,
    is_anonymous: user.is_anonymous,
  });
}

async function sessionJson(
  signer: AccessTokenSigner,
  user: UserRow,
  session: { id: string; aal: string; amr: AmrEntry[] },
  refreshToken: string,
): Promise<SessionJson> {
  const { token, expiresAt } = await signAccessToken(signer, user, session);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: signer.ttlSeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** Starts a new session (sign-in, confirmed sign-up, verified e-mail link) and records the sign-in. */
export async function startSession(
  tx: Tx,
  signer: AccessTokenSigner,
  userId: string,
  method: string,
  client: ClientInfo,
): Promise<SessionJson> {
  const sessionId = randomUUID();
  const amr: AmrEntry[] = [{ method, timestamp: Math.floor(Date.now() / 1000) }];
  await tx.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, amr)
     values ($1, $2, now(), now(), 'aal1', $3, $4, $5)`,
    [sessionId, userId, client.userAgent?.slice(0, 512) ?? null, client.ip || null, JSON.stringify(amr)],
  );
  const refreshToken = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), null, $3)`,
    [refreshToken, userId, sessionId],
  );
  await tx.query(`update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1`, [userId]);
  await tx.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`, [
    userId,
  ]);
  const user = await findUserById(tx, userId);
  return sessionJson(signer, user!, { id: sessionId, aal: 'aal1', amr }, refreshToken);
}

type RefreshRow = {
  id: number;
  token: string;
  revoked: boolean;
  updated_at: Date;
  session_id: string;
  user_id: string;
  not_after: Date | null;
  aal: string | null;
  amr: AmrEntry[];
};

export type RefreshOutcome = { session: SessionJson } | { reused: true };

/**
 * Rotates a refresh token: the presented one is revoked and a child is issued. A revoked token
 * presented again (outside the reuse interval that covers concurrent tabs) means it leaked: the whole
 * family is revoked and the session ended, and the caller answers `refresh_token_already_used`
 * after committing that revocation.
 */
export async function refreshSession(
  tx: Tx,
  signer: AccessTokenSigner,
  presented: string,
  reuseIntervalSeconds: number,
): Promise<RefreshOutcome> {
  const { rows } = await tx.query<RefreshRow>(
    `select rt.id, rt.token, rt.revoked, rt.updated_at, rt.session_id, s.user_id, s.not_after, s.aal::text as aal, s.amr
     from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
     where rt.token = $1
     for update of rt, s`,
    [presented],
  );
  const row = rows[0];
  if (!row) throw authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  const user = await findUserById(tx, row.user_id);
  if (!user) throw authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  if (isBanned(user)) throw authError(400, 'user_banned', 'User is banned');
  const session = { id: row.session_id, aal: row.aal ?? 'aal1', amr: row.amr };

  if (row.revoked) {
    const child = await tx.query<{ token: string }>(
      `select token from auth.refresh_tokens where parent = $1 and revoked = false and session_id = $2 limit 1`,
      [row.token, row.session_id],
    );
    const withinReuse = row.updated_at.getTime() + reuseIntervalSeconds * 1000 > Date.now();
    if (child.rows[0] && withinReuse) {
      // Two tabs refreshed with the same token at once: the later one gets the current child.
      return { session: await sessionJson(signer, user, session, child.rows[0].token) };
    }
    // What hosted GoTrue writes on reuse (its RevokeTokenFamily): every token of the session revoked,
    // the session row kept. A session whose tokens are all revoked counts as ended (`ALIVE`), so both
    // modes end it alike; local auth also announces it at once.
    await tx.query(
      `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false`,
      [row.session_id],
    );
    await announceSessionsEnded(tx, [row.session_id]);
    return { reused: true };
  }

  if (row.not_after && row.not_after.getTime() <= Date.now()) {
    throw authError(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
  }
  const child = newRefreshToken();
  await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [child, row.user_id, row.token, row.session_id],
  );
  await tx.query(`update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1`, [row.session_id]);
  return { session: await sessionJson(signer, user, session, child) };
}

export type LogoutScope = 'global' | 'local' | 'others';

/** Ends sessions (their refresh tokens go with them, by cascade). */
export async function endSessions(tx: Tx, userId: string, currentSessionId: string, scope: LogoutScope): Promise<void> {
  const { rows } =
    scope === 'local'
      ? await tx.query<{ id: string }>(`delete from auth.sessions where id = $1 and user_id = $2 returning id`, [
          currentSessionId,
          userId,
        ])
      : scope === 'others'
        ? await tx.query<{ id: string }>(`delete from auth.sessions where user_id = $1 and id <> $2 returning id`, [
            userId,
            currentSessionId,
          ])
        : await tx.query<{ id: string }>(`delete from auth.sessions where user_id = $1 returning id`, [userId]);
  await announceSessionsEnded(
    tx,
    rows.map((r) => r.id),
  );
}

/** The channel on which every sync-server instance hears of ended sessions (payload: the session id). */
export const SESSION_ENDED_CHANNEL = 'pacta_session_ended';

/**
 * Tells every server instance (Postgres NOTIFY, delivered when the transaction commits) that these
 * sessions ended, so each closes their live change streams at once rather than at token expiry.
 */
async function announceSessionsEnded(tx: Tx, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await tx.query(`select pg_notify('${SESSION_ENDED_CHANNEL}', id) from unnest($1::text[]) as id`, [sessionIds]);
}

/**
 * When a session (`s`) still counts as alive: its row exists (sign-out and a password change ending the
 * other sessions delete it, in both modes), it has not passed `not_after`, and its refresh-token family
 * was not revoked. Hosted GoTrue answers a reused refresh token (outside the reuse interval) by revoking
 * every token of the session and keeping the row, so a session that has tokens and none unrevoked has
 * ended. A session without any token row is left alone: GoTrue's newer refresh tokens (a counter in the
 * session row) keep none, and it deletes the session on their reuse. Both lookups use the
 * (session_id, revoked) index GoTrue and local auth both create.
 */
const ALIVE = `(s.not_after is null or s.not_after > now())
  and (exists (select 1 from auth.refresh_tokens rt where rt.session_id = s.id and not rt.revoked)
       or not exists (select 1 from auth.refresh_tokens rt where rt.session_id = s.id))`;

/**
 * Which of these sessions are still alive (the rest ended: signed out, revoked, expired), each with
 * the user it belongs to.
 */
export async function aliveSessions(db: Pick<Tx, 'query'>, sessionIds: string[]): Promise<Map<string, string>> {
  if (sessionIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; user_id: string }>(
    `select s.id::text, s.user_id::text from auth.sessions s where s.id = any($1::uuid[]) and ${ALIVE}`,
    [sessionIds],
  );
  return new Map(rows.map((r) => [r.id, r.user_id]));
}

/** True while the session exists and has not been ended (logout, revoked refresh-token family, expiry). */
export async function sessionIsAlive(tx: Pick<Tx, 'query'>, sessionId: string, userId: string): Promise<boolean> {
  const { rowCount } = await tx.query(`select 1 from auth.sessions s where s.id = $1 and s.user_id = $2 and ${ALIVE}`, [
    sessionId,
    userId,
  ]);
  return Boolean(rowCount);
}
