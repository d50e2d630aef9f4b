import { createContext, useContext } from 'react';

export type Role = 'creator' | 'brand' | 'admin';
/** The menu an admin sees (Brand View / Creator View toggle, default brand). */
export type ViewAs = 'brand' | 'creator';
export type AuthStatus = 'loading' | 'signed_in' | 'signed_out';

/** The signed-in user as the UI needs it (the session user merged with what is known of the profile). */
export type SessionUser = {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  /**
   * False while the role is still the sign-up metadata's guess (the profile has not synced yet): an
   * admin made by an operator then still reads as creator or brand, so role guards wait instead of
   * sending them away.
   */
  roleKnown: boolean;
  /** Pro membership from the synced profile (false until it has synced). */
  isPro: boolean;
  /** Verified account (from the synced profile). */
  verified: boolean;
};

export type AuthValue = {
  status: AuthStatus;
  user: SessionUser | null;
  role: Role | null;
  isAdmin: boolean;
  /** For an admin: the chosen view. For a brand or creator: their own role. */
  viewAs: ViewAs;
  setViewAs(view: ViewAs): void;
  /**
   * Sign Out (docs/design.md "sign-out"): with unsynced changes it first asks (count, wait for sync, sign out anyway);
   * once signed out the session manager clears the user's local data and goes to /auth/signin itself.
   */
  signOut(): Promise<void>;
};

export const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** The role that decides the menu: an admin's chosen view, otherwise the user's role. */
export function menuRole(auth: Pick<AuthValue, 'status' | 'role' | 'viewAs'>): ViewAs | null {
  if (auth.status !== 'signed_in' || !auth.role) return null;
  return auth.role === 'admin' ? auth.viewAs : auth.role;
}

/** Role guard rule: admin passes every role check. */
export function passesRoleCheck(role: Role | null, allowed: readonly Role[]): boolean {
  return role === 'admin' || (role !== null && allowed.includes(role));
}
