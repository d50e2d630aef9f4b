import type { AuthChangeEvent, Session, SupabaseClient, User } from '@supabase/supabase-js';
import { isAuthApiError, isAuthSessionMissingError } from '@supabase/supabase-js';
import { markBoot } from '../boot-marks.ts';
import { messageForStatus, STATUS_MESSAGES } from '../errors.ts';
import { authMessages, MAX_SESSION_RETRIES } from './auth-messages.ts';
import { isNetworkError } from './network-errors.ts';
import { profileFromMetadata, toSessionUser } from './session-user.ts';
import { retry, TimeoutError, withTimeout } from '../retry.ts';
import type { ProfileSnapshot, SessionDataPort, SessionState } from './session-types.ts';

/** The session's timings: "Profile fetch timeout 7 s", two profile retries, a keep-alive every 5 minutes. */
export const SESSION_TIMING = {
  profileFetchTimeoutMs: 7_000,
  profileRetries: 2,
  /** Session restore retries the profile 2 s apart (the other profile loads use 1 s). */
  profileRetryDelayMs: 2_000,
  redirectAfterRestoreFailureMs: 1_000,
  keepAliveIntervalMs: 5 * 60_000,
  refreshWhenUnderMs: 5 * 60_000,
  /**
   * Checking the session with the server may not hold the app forever on a connection that hangs:
   * after this long the cached session is used as if offline (the 8 s overlay has offered its actions by then).
   */
  validateTimeoutMs: 15_000,
  /** Sign-out never hangs on a local database that cannot be deleted (another tab holding it open). */
  clearDataTimeoutMs: 10_000,
} as const;

export type AuthClient = Pick<
  SupabaseClient['auth'],
  'getSession' | 'refreshSession' | 'signOut' | 'onAuthStateChange' | 'signInWithPassword'
>;

export type SessionManagerDeps = {
  auth: AuthClient;
  /** The remember-me storage the supabase client writes to (read directly when offline). */
  storage: { getItem(key: string): string | null; setRememberMe(remember: boolean): void; clearAuthKeys(): void };
  storageKey: string;
  /** GET {auth}/user with this token: checks the cached session with the server. */
  fetchUser(accessToken: string): Promise<Response>;
  dataPort?: SessionDataPort;
  currentPath(): string;
  navigate?(path: string, state?: unknown): void;
  requestPersistentStorage?(): Promise<unknown>;
  /** Calls back when the window gains focus or the page becomes visible; returns an unsubscribe. */
  onRecheck?(recheck: () => void): () => void;
  now?(): number;
};

type Listener = () => void;

const AUTH_PAGES = ['/auth/', '/signin', '/signup', '/forgot-password', '/reset-password'];
export const isAuthPage = (path: string) => AUTH_PAGES.some((prefix) => path.startsWith(prefix));

const initialState: SessionState = {
  status: 'loading',
  session: null,
  user: null,
  profilePending: false,
  offline: false,
  sessionError: null,
  retryCount: 0,
  signOutPrompt: null,
  notice: null,
  passwordRecovery: false,
  checking: false,
};

/** The server rejected the credentials themselves (not the network, not a server fault). */
function isDefinitiveAuthFailure(error: unknown): boolean {
  if (isAuthSessionMissingError(error)) return true;
  return isAuthApiError(error) && error.status >= 400 && error.status < 500;
}

/**
 * Owns the signed-in session of this tab: restore on start, keep-alive, recheck on focus, the 401
 * refresh-and-retry rule and sign-out. UI-free: it exposes a state snapshot and asks for navigation
 * through `navigate`; React reads it with `useSyncExternalStore`.
 */
export class SessionManager {
  private state: SessionState = initialState;
  private readonly listeners = new Set<Listener>();
  /** Bumped by every restore and sign-out so a late answer of an older attempt is dropped. */
  private generation = 0;
  private keepAliveTimer: ReturnType<typeof setInterval> | undefined;
  private stopRecheck: (() => void) | undefined;
  private stopAuthEvents: (() => void) | undefined;
  private stopProfileWatch: (() => void) | undefined;
  private refreshing: Promise<Session | null> | undefined;
  private lastRefreshProblem: 'offline' | 'error' | undefined;
  /** Sign-in or sign-out in progress here: their own auth events must not trigger a restore. */
  private ownTransition = false;
  private deps: SessionManagerDeps;

  constructor(deps: SessionManagerDeps) {
    this.deps = deps;
  }

  // ---- store ---------------------------------------------------------------------------------

  getState = (): SessionState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<SessionState>) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** The data layer registers once the user's database is open; a signed-in session then follows its profile. */
  setDataPort(port: SessionDataPort | undefined) {
    this.deps = { ...this.deps, dataPort: port };
    if (this.state.status === 'signed_in' && this.state.user) this.watchProfile(this.state.user.authUser);
  }

  setNavigator(navigate: SessionManagerDeps['navigate']) {
    this.deps = { ...this.deps, navigate };
  }

  private navigate(path: string, state?: unknown) {
    if (this.deps.navigate) {
      if (state === undefined) this.deps.navigate(path);
      else this.deps.navigate(path, state);
    } else if (typeof window !== 'undefined') window.location.assign(path);
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Subscribes to auth events and restores the session; call once when the app starts. */
  start(): Promise<void> {
    if (!this.stopAuthEvents) {
      const { data } = this.deps.auth.onAuthStateChange((event, session) => {
        // Deferred: supabase-js runs listeners while it holds its auth lock.
        setTimeout(() => void this.onAuthEvent(event, session), 0);
      });
      this.stopAuthEvents = () => data.subscription.unsubscribe();
    }
    this.stopRecheck ??= this.deps.onRecheck?.(() => void this.recheck());
    return this.restore();
  }

  stop() {
    this.stopAuthEvents?.();
    this.stopAuthEvents = undefined;
    this.stopRecheck?.();
    this.stopRecheck = undefined;
    this.stopKeepAlive();
    this.stopProfileWatch?.();
    this.generation++;
  }

  private async onAuthEvent(event: AuthChangeEvent, session: Session | null) {
    if (event === 'PASSWORD_RECOVERY') this.set({ passwordRecovery: true });
    if (this.ownTransition) return;
    if (event === 'SIGNED_OUT') {
      if (this.state.status === 'signed_out') return;
      // Ended elsewhere. supabase-js drops a session it could not refresh only near its expiry; with
      // plenty of time left it was the user signing out in another tab, which needs no explanation.
      const expiresAtMs = (this.state.session?.expires_at ?? 0) * 1000;
      const expired = expiresAtMs - this.now() < 2 * SESSION_TIMING.refreshWhenUnderMs;
      this.endSession(expired ? authMessages.sessionExpired : null);
      return;
    }
    if ((event === 'TOKEN_REFRESHED' || event === 'USER_UPDATED') && session && this.state.status === 'signed_in') {
      this.set({
        session,
        user: toSessionUser(session.user, this.state.user?.profile ?? null, this.state.profilePending),
      });
      return;
    }
    if (event === 'SIGNED_IN' && session && this.state.status === 'signed_out') {
      // Signed in by another tab or by a confirmation link handled in this one.
      await this.restore();
    }
  }

  // ---- restore -------------------------------------------------------------------------------

  /**
   * Loads the session from storage, checks it with the server when online, loads the profile and
   * enters signed-in. Offline (or a server that cannot be reached) keeps the cached session.
   */
  async restore(opts: { quiet?: boolean } = {}): Promise<void> {
    const generation = ++this.generation;
    const stale = () => generation !== this.generation;
    // Quiet (a retry while signed in): the page stays mounted, so nothing typed into a form is lost.
    if (opts.quiet && this.state.status === 'signed_in') this.set({ checking: true });
    else this.set({ status: 'loading', checking: true });
    try {
      await this.restoreSteps(stale);
    } finally {
      // A newer attempt (or a sign-out) owns `checking` now.
      if (!stale()) this.set({ checking: false });
    }
  }

  private async restoreSteps(stale: () => boolean): Promise<void> {
    const { data, error } = await this.deps.auth.getSession();
    if (stale()) return;
    let session = data.session;
    let offline = false;
    if (error) {
      if (isNetworkError(error)) {
        // supabase-js could not refresh an expired token without a connection; its stored session stays valid for later.
        session = this.readStoredSession();
        offline = true;
      } else {
        this.invalidSession();
        return;
      }
    }
    if (!session) {
      this.set({ ...initialState, status: 'signed_out', notice: this.state.notice });
      return;
    }

    // The device's copy of the profile (which opens the local database) is read while the server checks
    // the session: each takes a while and neither needs the other, so a warm start waits for the slower
    // one only. Its failure is handled below, once the check has answered.
    const localProfile = this.readLocalProfile(session.user.id);
    localProfile.catch(() => {});
    let user: User = session.user;
    let sessionError: string | null = null;
    if (!offline) {
      const checked = await this.checkWithServer(session);
      if (stale()) return;
      if (checked.kind === 'expired') return;
      if (checked.kind === 'offline') offline = true;
      if (checked.kind === 'error') sessionError = checked.message;
      if (checked.kind === 'ok') {
        user = checked.user;
        session = checked.session;
      }
    }

    let profile: ProfileSnapshot | null;
    let profilePending: boolean;
    try {
      ({ profile, profilePending } = withMetadataFallback(await localProfile, user));
    } catch {
      if (stale()) return;
      if (offline) {
        // Offline the profile is a local read (the device's database, or the code that opens it), and a
        // local read that fails says nothing about the session: ending it would lock the user out until
        // they are back online. They stay signed in with the sign-up profile, as after a sign-in.
        this.enterSignedIn(session, user, profileFromMetadata(user), true, { offline, sessionError });
        return;
      }
      this.set({ notice: authMessages.sessionExpiredRestore });
      setTimeout(() => {
        if (stale()) return;
        void this.expire(authMessages.sessionExpiredRestore);
      }, SESSION_TIMING.redirectAfterRestoreFailureMs);
      return;
    }
    if (stale()) return;
    this.enterSignedIn(session, user, profile, profilePending, { offline, sessionError });
  }

  private readStoredSession(): Session | null {
    try {
      const raw = this.deps.storage.getItem(this.deps.storageKey);
      const parsed = raw ? (JSON.parse(raw) as Partial<Session>) : null;
      return parsed?.access_token && parsed.refresh_token && parsed.user ? (parsed as Session) : null;
    } catch {
      return null;
    }
  }

  private async checkWithServer(
    session: Session,
  ): Promise<
    | { kind: 'ok'; user: User; session: Session }
    | { kind: 'offline' }
    | { kind: 'expired' }
    | { kind: 'error'; message: string }
  > {
    try {
      let used = session;
      const response = await withTimeout(
        this.withSessionRetry((token) => this.deps.fetchUser(token), {
          session,
          onRefreshed: (next) => (used = next),
        }),
        SESSION_TIMING.validateTimeoutMs,
        'Session check timed out',
      );
      if (response.status === 401) {
        if (this.state.status === 'signed_out') return { kind: 'expired' };
        // The refresh did not happen for a reason that is not the user's fault (no connection, server down).
        return this.lastRefreshProblem === 'offline'
          ? { kind: 'offline' }
          : { kind: 'error', message: STATUS_MESSAGES.server };
      }
      if (!response.ok)
        return { kind: 'error', message: messageForStatus(response.status) ?? STATUS_MESSAGES.unexpected };
      const user = (await response.json()) as User;
      return { kind: 'ok', user, session: { ...used, user } };
    } catch (error) {
      if (error instanceof TimeoutError || isNetworkError(error)) return { kind: 'offline' };
      return { kind: 'error', message: STATUS_MESSAGES.unexpected };
    }
  }

  /** The profile from the local database (7 s timeout, 2 retries 2 s apart), else from the metadata. */
  private async loadProfile(user: User): Promise<{ profile: ProfileSnapshot | null; profilePending: boolean }> {
    return withMetadataFallback(await this.readLocalProfile(user.id), user);
  }

  /** The profile in the device's database; null when it has none (yet) or there is no data layer. */
  private async readLocalProfile(userId: string): Promise<ProfileSnapshot | null> {
    const load = this.deps.dataPort?.loadProfile?.bind(this.deps.dataPort);
    if (!load) return null;
    return retry(
      () => withTimeout(load(userId), SESSION_TIMING.profileFetchTimeoutMs, authMessages.profileFetchTimedOut),
      { retries: SESSION_TIMING.profileRetries, delayMs: SESSION_TIMING.profileRetryDelayMs },
    );
  }

  private enterSignedIn(
    session: Session,
    user: User,
    profile: ProfileSnapshot | null,
    profilePending: boolean,
    extra: { offline: boolean; sessionError: string | null },
  ) {
    this.set({
      status: 'signed_in',
      session,
      user: toSessionUser(user, profile, profilePending),
      profilePending,
      offline: extra.offline,
      sessionError: extra.sessionError,
      retryCount: extra.sessionError ? this.state.retryCount : 0,
      notice: null,
    });
    markBoot('session-restored');
    this.startKeepAlive();
    this.watchProfile(user);
    // After any sign-in (password, e-mail link, restore): keep the local database under storage pressure.
    void this.deps.requestPersistentStorage?.();
  }

  private watchProfile(user: User) {
    this.stopProfileWatch?.();
    this.stopProfileWatch = this.deps.dataPort?.watchProfile?.(user.id, (profile) => {
      const current = this.state;
      if (current.status !== 'signed_in' || current.user?.id !== user.id || !profile) return;
      this.set({ user: toSessionUser(current.user.authUser, profile, false), profilePending: false });
    });
  }

  /** An unusable stored session: clear it and go to sign-in (unless already on an auth page). */
  private invalidSession() {
    this.deps.storage.clearAuthKeys();
    this.set({ ...initialState, status: 'signed_out', notice: authMessages.invalidSession });
    if (!isAuthPage(this.deps.currentPath())) this.navigate('/auth/signin', { message: authMessages.invalidSession });
  }

  // ---- session-error dialog and overlay actions -------------------------------------------------

  /** Try Again of the session-error dialog: counts up to 2 and then does nothing. */
  async retryAfterError(): Promise<void> {
    if (this.state.retryCount >= MAX_SESSION_RETRIES) return;
    this.set({ retryCount: this.state.retryCount + 1 });
    await this.restore({ quiet: true });
  }

  /** Refresh Session of the loading overlay. */
  async refreshAndRestore(): Promise<void> {
    const { error } = await this.deps.auth.refreshSession();
    if (error && isDefinitiveAuthFailure(error)) {
      await this.expire(authMessages.sessionExpired);
      return;
    }
    await this.restore();
  }

  // ---- keep-alive and recheck -----------------------------------------------------------------

  private startKeepAlive() {
    if (this.keepAliveTimer) return;
    this.keepAliveTimer = setInterval(() => void this.keepAlive(), SESSION_TIMING.keepAliveIntervalMs);
  }

  private stopKeepAlive() {
    clearInterval(this.keepAliveTimer);
    this.keepAliveTimer = undefined;
  }

  /** Refreshes the session when it expires within 5 minutes ("Keep-alive"). */
  async keepAlive(): Promise<void> {
    if (this.state.status !== 'signed_in') return;
    const session = this.state.session;
    if (!session) return;
    const expiresAtMs = (session.expires_at ?? 0) * 1000;
    if (expiresAtMs - this.now() >= SESSION_TIMING.refreshWhenUnderMs) return;
    await this.refresh();
  }

  /** Focus or visibility: refresh if due, and leave offline mode once the server answers again. */
  async recheck(): Promise<void> {
    if (this.state.status !== 'signed_in') return;
    await this.keepAlive();
    if (this.state.status === 'signed_in' && this.state.offline && !this.refreshing) {
      const session = this.state.session;
      if (!session) return;
      const checked = await this.checkWithServer(session);
      if (checked.kind === 'ok' && this.state.status === 'signed_in') {
        this.set({
          offline: false,
          session: checked.session,
          user: toSessionUser(checked.user, this.state.user?.profile ?? null, this.state.profilePending),
        });
      }
    }
  }

  /**
   * One refresh at a time. Returns the new session, or null when it could not refresh; a refresh the
   * server refused signs out with 'Session expired. Please sign in again.', a lost connection does not.
   */
  refresh(): Promise<Session | null> {
    this.refreshing ??= (async () => {
      try {
        const { data, error } = await this.deps.auth.refreshSession();
        this.lastRefreshProblem = undefined;
        if (error) {
          if (isDefinitiveAuthFailure(error)) await this.expire(authMessages.sessionExpired);
          else if (isNetworkError(error)) {
            this.lastRefreshProblem = 'offline';
            if (this.state.status === 'signed_in') this.set({ offline: true });
          } else this.lastRefreshProblem = 'error';
          return null;
        }
        if (!data.session) {
          await this.expire(authMessages.sessionExpired);
          return null;
        }
        if (this.state.status === 'signed_in') this.set({ session: data.session, offline: false });
        return data.session;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  // ---- 401 rule ------------------------------------------------------------------------------

  /**
   * Runs an authorised call; on 401 refreshes the session once and repeats it with the new token.
   * If the refresh is refused (or the repeat is still 401) the user is signed out and sent to
   * /auth/signin with 'Session expired. Please sign in again.'. Network failures propagate untouched.
   */
  async withSessionRetry(
    fetchFn: (accessToken: string) => Promise<Response>,
    options: { session?: Session; onRefreshed?: (session: Session) => void } = {},
  ): Promise<Response> {
    const session = options.session ?? (await this.currentSession());
    if (!session) {
      await this.expire(authMessages.sessionExpired);
      return new Response(JSON.stringify({ code: 'no_session', message: authMessages.noValidSession }), {
        status: 401,
      });
    }
    const first = await fetchFn(session.access_token);
    if (first.status !== 401) return first;
    const refreshed = await this.refresh();
    if (!refreshed) return first;
    options.onRefreshed?.(refreshed);
    const second = await fetchFn(refreshed.access_token);
    if (second.status === 401) await this.expire(authMessages.sessionExpired);
    return second;
  }

  /** The current access token's session (refreshed by supabase-js if it is about to expire). */
  async currentSession(): Promise<Session | null> {
    const { data, error } = await this.deps.auth.getSession();
    if (error && isNetworkError(error)) return this.readStoredSession();
    return data.session;
  }

  // ---- sign-in -------------------------------------------------------------------------------

  /** Returns the message to show, or null when signed in. */
  async signIn(email: string, password: string, rememberMe: boolean): Promise<string | null> {
    this.deps.storage.setRememberMe(rememberMe);
    this.ownTransition = true;
    try {
      const { data, error } = await this.deps.auth.signInWithPassword({ email, password });
      if (error) return signInErrorMessage(error);
      if (!data.session) return authMessages.sessionNotCreated;
      const generation = ++this.generation;
      let loaded: { profile: ProfileSnapshot | null; profilePending: boolean };
      try {
        loaded = await this.loadProfile(data.session.user);
      } catch {
        loaded = { profile: profileFromMetadata(data.session.user), profilePending: true };
      }
      if (generation !== this.generation) return null;
      this.enterSignedIn(data.session, data.session.user, loaded.profile, loaded.profilePending, {
        offline: false,
        sessionError: null,
      });
      return null;
    } finally {
      this.ownTransition = false;
    }
  }

  // ---- sign-out ------------------------------------------------------------------------------

  /**
   * Sign Out. With unsynced changes it does not sign out yet: it opens the prompt (count, wait for
   * sync, sign out anyway, cancel) through `signOutPrompt`. Returns true once signed out.
   */
  async requestSignOut(): Promise<boolean> {
    const pending = await this.pendingChanges();
    if (pending > 0) {
      this.set({ signOutPrompt: { pendingChanges: pending, waiting: false, error: null } });
      return false;
    }
    await this.signOut();
    return true;
  }

  private async pendingChanges(): Promise<number> {
    try {
      return (await this.deps.dataPort?.pendingChanges?.()) ?? 0;
    } catch {
      return 0;
    }
  }

  cancelSignOut() {
    this.set({ signOutPrompt: null });
  }

  /** "Wait for sync": signs out once everything is pushed; stays in the prompt with the reason if it cannot. */
  async waitForSyncThenSignOut(): Promise<void> {
    const prompt = this.state.signOutPrompt;
    if (!prompt) return;
    this.set({ signOutPrompt: { ...prompt, waiting: true, error: null } });
    try {
      await this.deps.dataPort?.waitForSync?.();
    } catch (error) {
      const remaining = await this.pendingChanges();
      const reason = isNetworkError(error)
        ? authMessages.offline
        : error instanceof Error
          ? error.message
          : STATUS_MESSAGES.unexpected;
      if (this.state.signOutPrompt)
        this.set({ signOutPrompt: { pendingChanges: remaining, waiting: false, error: reason } });
      return;
    }
    if (!this.state.signOutPrompt) return; // cancelled while waiting
    await this.signOut();
  }

  /** Signs out now: ends the session, deletes the user's local database, goes to /auth/signin. */
  async signOut(): Promise<void> {
    const userId = this.state.user?.id;
    this.set({ signOutPrompt: null, checking: true });
    // The database goes first, while the session (and the open database) still exist: ending the
    // session first would make the data layer close the database under the deletion.
    if (userId && this.deps.dataPort?.clearUserData) {
      try {
        await withTimeout(
          this.deps.dataPort.clearUserData(userId),
          SESSION_TIMING.clearDataTimeoutMs,
          'Clearing local data timed out',
        );
      } catch {
        // Gone already (another tab signed out first), or blocked by another open tab: signing out still proceeds.
      }
    }
    await this.endAuthSession();
    this.set({ ...initialState, status: 'signed_out' });
    this.navigate('/auth/signin');
  }

  /** Ends the auth session only (after a password reset the same user signs in again; local data stays). */
  async endAuthSession(): Promise<void> {
    this.generation++;
    this.stopKeepAlive();
    this.stopProfileWatch?.();
    this.ownTransition = true;
    try {
      // Local scope: signing out here must not end the user's sessions on other devices.
      const { error } = await this.deps.auth.signOut({ scope: 'local' });
      // Offline the server call fails and supabase-js keeps the session; remove it ourselves.
      if (error) this.deps.storage.clearAuthKeys();
    } catch {
      this.deps.storage.clearAuthKeys();
    } finally {
      this.ownTransition = false;
    }
    this.set({ ...initialState, status: 'signed_out' });
  }

  /**
   * The session is over without the user asking (refresh refused, restore failed): end it, keep the
   * local database (its unsynced changes go out after the next sign-in) and show the reason on sign-in.
   */
  async expire(message: string): Promise<void> {
    if (this.state.status === 'signed_out') return;
    await this.endAuthSession();
    this.endSession(message);
  }

  /** Signed out without asking; with a message, the user is sent to sign-in to read it (the guards send everyone else). */
  private endSession(message: string | null) {
    this.generation++;
    this.stopKeepAlive();
    this.stopProfileWatch?.();
    this.set({ ...initialState, status: 'signed_out', notice: message });
    if (message && !isAuthPage(this.deps.currentPath())) this.navigate('/auth/signin', { message });
  }
}

/** The sign-in screen's message for a failed password sign-in. */
export function signInErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return authMessages.offline;
  const code = (error as { code?: unknown }).code;
  const message = (error as { message?: unknown }).message;
  const text = typeof message === 'string' ? message : '';
  if (code === 'email_not_confirmed' || /email not confirmed|verify your email/i.test(text))
    return authMessages.verifyEmailFirst;
  if (code === 'invalid_credentials' || /invalid login credentials/i.test(text)) return authMessages.signInFailed;
  if (isAuthApiError(error) && error.status >= 500) return STATUS_MESSAGES.server;
  return text || authMessages.signInFailed;
}

/** Without the device's profile, the sign-up metadata stands in for it until the profile syncs. */
function withMetadataFallback(
  profile: ProfileSnapshot | null,
  user: User,
): { profile: ProfileSnapshot | null; profilePending: boolean } {
  return profile ? { profile, profilePending: false } : { profile: profileFromMetadata(user), profilePending: true };
}
