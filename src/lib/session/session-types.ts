import type { Session, User } from '@supabase/supabase-js';

export type Role = 'creator' | 'brand' | 'admin';
export type AuthStatus = 'loading' | 'signed_in' | 'signed_out';

/** The part of a profile row the session needs; the data layer may hand over the whole row. */
export type ProfileSnapshot = {
  id: string;
  role?: string | null;
  full_name?: string | null;
  verified?: boolean | null;
  pro_tier?: string | null;
  pro_until?: string | null;
  granted_pro_features?: Record<string, unknown> | null;
  [column: string]: unknown;
};

/** The session user merged with its profile ("Session user"). */
export type SessionUser = {
  id: string;
  email: string;
  role: Role;
  /**
   * The role is what the server decided (app_metadata or the synced profile), not the sign-up
   * metadata's guess, which can never say admin: role guards wait for it before sending anyone away.
   */
  roleKnown: boolean;
  fullName: string;
  isAdmin: boolean;
  isPro: boolean;
  verified: boolean;
  profile: ProfileSnapshot | null;
  authUser: User;
};

export type SignOutPrompt = { pendingChanges: number; waiting: boolean; error: string | null };

export type SessionState = {
  status: AuthStatus;
  session: Session | null;
  user: SessionUser | null;
  /** The profile has not reached the local database yet; `user` is built from the sign-up metadata. */
  profilePending: boolean;
  /** Signed in from the cached session because the server could not be reached. */
  offline: boolean;
  /** Shown by the session-error dialog while set. */
  sessionError: string | null;
  /** Try Again presses in the session-error dialog (0..MAX_SESSION_RETRIES). */
  retryCount: number;
  /** Set while sign-out waits for the user to decide about unsynced changes. */
  signOutPrompt: SignOutPrompt | null;
  /** Message to show after the session ended on its own (restore failure, expiry). */
  notice: string | null;
  /** The session came from a password-recovery link. */
  passwordRecovery: boolean;
  /** A session check is running (also during a quiet retry, when status stays signed_in). */
  checking: boolean;
};

/**
 * What the session needs from the local data layer (`src/db`). Every member is optional: the
 * session works without a data layer (profile from the user metadata, nothing to clear).
 */
export type SessionDataPort = {
  /** The user's profile row from the local database; null when it has not synced yet. */
  loadProfile?(userId: string): Promise<ProfileSnapshot | null>;
  /** Calls back with the profile whenever it changes locally; returns an unsubscribe function. */
  watchProfile?(userId: string, onProfile: (profile: ProfileSnapshot | null) => void): () => void;
  /** Number of local changes waiting to be pushed to the server. */
  pendingChanges?(): number | Promise<number>;
  /** Resolves once nothing is waiting to sync; rejects when sync fails or cannot run (offline). */
  waitForSync?(): Promise<void>;
  /** Deletes the signed-in user's local database. */
  clearUserData?(userId: string): Promise<void>;
};
