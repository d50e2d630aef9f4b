import type { User } from '@supabase/supabase-js';
import type { Role, SessionUser } from './auth-context.ts';

function asRole(value: unknown): Role | undefined {
  return value === 'creator' || value === 'brand' || value === 'admin' ? value : undefined;
}

/**
 * The session user from a Supabase auth user. The role comes from the user metadata first (spec 000 §6);
 * `profileRole` (from the local database, once the profile has synced) wins when known, because only
 * an operator can make someone admin and that is recorded in the profile, never in sign-up metadata.
 */
export function toSessionUser(user: User, profileRole?: Role): SessionUser {
  const meta = (user.user_metadata ?? {}) as Record<string, unknown>;
  const fullName = typeof meta.full_name === 'string' ? meta.full_name : '';
  return {
    id: user.id,
    email: user.email ?? '',
    fullName,
    role: profileRole ?? asRole(meta.role) ?? 'creator',
  };
}
