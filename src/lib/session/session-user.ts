import type { User } from '@supabase/supabase-js';
import { isProNow } from '../../domain/pro.ts';
import type { ProfileSnapshot, Role, SessionUser } from './session-types.ts';

const ROLES: readonly Role[] = ['creator', 'brand', 'admin'];
const asRole = (value: unknown): Role | undefined => (ROLES.includes(value as Role) ? (value as Role) : undefined);

/**
 * Until the profile row reaches the local database, the profile is what sign-up stored in the user
 * metadata (full name, role, social links). Sign-up never grants admin, so metadata can only say
 * creator or brand.
 */
export function profileFromMetadata(user: User): ProfileSnapshot {
  const meta = (user.user_metadata ?? {}) as Record<string, unknown>;
  const role = asRole(meta.role);
  return {
    id: user.id,
    role: role === 'admin' ? 'creator' : (role ?? 'creator'),
    full_name: typeof meta.full_name === 'string' ? meta.full_name : '',
    social_links: typeof meta.social_links === 'object' && meta.social_links ? meta.social_links : {},
  };
}

/**
 * The session user merged with its profile. The role comes from the server-set
 * app_metadata first, then the synced profile, then the sign-up metadata: the user can edit their
 * own user_metadata, so it never outranks what the server decided (an admin is only made by the server).
 */
export function toSessionUser(
  user: User,
  profile: ProfileSnapshot | null,
  profilePending: boolean,
  now = Date.now(),
): SessionUser {
  const source = profile ?? profileFromMetadata(user);
  const decided = asRole(user.app_metadata?.role) ?? (profilePending ? undefined : asRole(source.role));
  const role = decided ?? asRole(profileFromMetadata(user).role) ?? 'creator';
  return {
    id: user.id,
    email: user.email ?? '',
    role,
    roleKnown: decided !== undefined,
    fullName: (typeof source.full_name === 'string' && source.full_name) || profileFromMetadata(user).full_name || '',
    isAdmin: role === 'admin',
    isPro: isProNow(profile, now),
    verified: profile?.verified === true,
    profile,
    authUser: user,
  };
}
