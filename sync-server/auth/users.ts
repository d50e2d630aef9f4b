import type { Tx } from '../db/database.ts';

/** The columns of `auth.users` the local auth reads, plus the user's identities. */
export type UserRow = {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
  identities: IdentityRow[];
};

type IdentityRow = {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
};

const USER_SELECT = `
  select u.id, u.aud, u.role, u.email, u.encrypted_password, u.email_confirmed_at, u.confirmation_sent_at,
         u.recovery_sent_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.created_at,
         u.updated_at, u.phone, u.confirmed_at, u.banned_until, u.is_anonymous,
         coalesce((select json_agg(i order by i.created_at) from auth.identities i where i.user_id = u.id), '[]') as identities
  from auth.users u`;

/** GoTrue lower-cases e-mail addresses before storing and looking them up. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(
  tx: Tx,
  email: string,
  opts: { forUpdate?: boolean } = {},
): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(
    `${USER_SELECT} where lower(u.email) = $1 and u.deleted_at is null and u.is_sso_user = false ${opts.forUpdate ? 'for update of u' : ''}`,
    [normalizeEmail(email)],
  );
  return rows[0];
}

export async function findUserById(
  tx: Tx,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<UserRow | undefined> {
  const { rows } = await tx.query<UserRow>(
    `${USER_SELECT} where u.id = $1 and u.deleted_at is null ${opts.forUpdate ? 'for update of u' : ''}`,
    [id],
  );
  return rows[0];
}

export const isBanned = (user: UserRow) => user.banned_until !== null && user.banned_until.getTime() > Date.now();

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** The user object as Supabase Auth returns it (`GET /user`, `session.user`); unset timestamps are omitted. */
export function userJson(user: UserRow): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
  };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json;
}
