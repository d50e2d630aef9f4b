import { AuthApiError, AuthRetryableFetchError, type Session, type User } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { authMessages } from './auth-messages.ts';
import {
  SESSION_TIMING,
  SessionManager,
  signInErrorMessage,
  type AuthClient,
  type SessionManagerDeps,
} from './session-manager.ts';
import type { ProfileSnapshot, SessionDataPort } from './session-types.ts';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function makeUser(id = 'u1', meta: Record<string, unknown> = { role: 'brand', full_name: 'Bea Brand' }): User {
  return {
    id,
    email: `${id}@example.test`,
    app_metadata: {},
    user_metadata: meta,
    aud: 'authenticated',
    created_at: '2026-01-01T00:00:00Z',
  } as User;
}

function makeSession(token = 'token-1', expiresInSeconds = 3600, user = makeUser()): Session {
  return {
    access_token: token,
    refresh_token: `refresh-${token}`,
    expires_in: expiresInSeconds,
    expires_at: nowSeconds() + expiresInSeconds,
    token_type: 'bearer',
    user,
  };
}

type Harness = {
  manager: SessionManager;
  auth: { [K in keyof AuthClient]: ReturnType<typeof vi.fn> };
  fetchUser: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
  storage: {
    getItem: ReturnType<typeof vi.fn>;
    setRememberMe: ReturnType<typeof vi.fn>;
    clearAuthKeys: ReturnType<typeof vi.fn>;
  };
};

function harness(
  opts: { session?: Session | null; dataPort?: SessionDataPort; stored?: Session; path?: string } = {},
): Harness {
  let current = opts.session === undefined ? makeSession() : opts.session;
  const auth = {
    getSession: vi.fn(async () => ({ data: { session: current }, error: null })),
    refreshSession: vi.fn(async () => {
      current = makeSession('token-2');
      return { data: { session: current, user: current.user }, error: null };
    }),
    signOut: vi.fn(async () => {
      current = null;
      return { error: null };
    }),
    onAuthStateChange: vi.fn(() => ({ data: { subscription: { unsubscribe() {} } } })),
    signInWithPassword: vi.fn(),
  };
  const fetchUser = vi.fn(async (token: string) => Response.json({ ...makeUser(), token }));
  const navigate = vi.fn();
  const storage = {
    getItem: vi.fn(() => (opts.stored ? JSON.stringify(opts.stored) : null)),
    setRememberMe: vi.fn(),
    clearAuthKeys: vi.fn(),
  };
  const deps: SessionManagerDeps = {
    auth: auth as unknown as AuthClient,
    storage,
    storageKey: 'pacta.auth.session',
    fetchUser,
    dataPort: opts.dataPort,
    currentPath: () => opts.path ?? '/dashboard',
    navigate,
  };
  return { manager: new SessionManager(deps), auth, fetchUser, navigate, storage };
}

const brandProfile: ProfileSnapshot = {
  id: 'u1',
  role: 'brand',
  full_name: 'Bea From Profile',
  verified: true,
  pro_tier: 'free',
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('restore on start', () => {
  test('a valid cached session with a local profile signs in, merged with the profile', async () => {
    const h = harness({ dataPort: { loadProfile: async () => brandProfile } });
    await h.manager.restore();
    const state = h.manager.getState();
    expect(state.status).toBe('signed_in');
    expect(state.user).toMatchObject({
      id: 'u1',
      role: 'brand',
      fullName: 'Bea From Profile',
      verified: true,
      isPro: false,
      isAdmin: false,
    });
    expect(state.profilePending).toBe(false);
    expect(h.fetchUser).toHaveBeenCalledWith('token-1');
  });

  test('the device’s profile is read while the server checks the session, and used once the check passes', async () => {
    const loadProfile = vi.fn(async () => brandProfile);
    const h = harness({ dataPort: { loadProfile } });
    let answer: (response: Response) => void = () => {};
    h.fetchUser.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const restored = h.manager.restore();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetchUser).toHaveBeenCalledTimes(1);
    expect(loadProfile).toHaveBeenCalledWith('u1');
    expect(h.manager.getState().status).toBe('loading');
    answer(Response.json(makeUser()));
    await restored;
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', profilePending: false });
    expect(h.manager.getState().user?.fullName).toBe('Bea From Profile');
  });

  test('no session is signed out without navigating anywhere', async () => {
    const h = harness({ session: null });
    await h.manager.restore();
    expect(h.manager.getState().status).toBe('signed_out');
    expect(h.navigate).not.toHaveBeenCalled();
  });

  test('without a data layer the profile comes from the sign-up metadata and is marked pending', async () => {
    const h = harness();
    await h.manager.restore();
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', profilePending: true });
    expect(h.manager.getState().user).toMatchObject({ role: 'brand', fullName: 'Bea Brand' });
  });

  test('the profile fetch times out after 7 s, is retried twice 2 s apart, then signs out after 1 s', async () => {
    const loadProfile = vi.fn(() => new Promise<ProfileSnapshot | null>(() => {}));
    const h = harness({ dataPort: { loadProfile } });
    void h.manager.restore();
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.profileFetchTimeoutMs);
    expect(loadProfile).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.profileRetryDelayMs);
    expect(loadProfile).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.profileFetchTimeoutMs + SESSION_TIMING.profileRetryDelayMs);
    expect(loadProfile).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.profileFetchTimeoutMs);
    expect(h.manager.getState().notice).toBe('Session expired, please log in again.');
    expect(h.navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.redirectAfterRestoreFailureMs);
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin', { message: 'Session expired, please log in again.' });
    expect(h.manager.getState().status).toBe('signed_out');
    expect(loadProfile).toHaveBeenCalledTimes(3);
  });

  test('a profile that loads on the second attempt signs in', async () => {
    const loadProfile = vi.fn().mockRejectedValueOnce(new Error('db not open')).mockResolvedValueOnce(brandProfile);
    const h = harness({ dataPort: { loadProfile } });
    const done = h.manager.restore();
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.profileRetryDelayMs);
    await done;
    expect(h.manager.getState().status).toBe('signed_in');
    expect(loadProfile).toHaveBeenCalledTimes(2);
  });

  test('a stored session supabase-js cannot read or refresh for a non-network reason is cleared', async () => {
    const h = harness();
    h.auth.getSession.mockResolvedValueOnce({
      data: { session: null },
      error: new AuthApiError('Invalid Refresh Token', 400, 'refresh_token_not_found'),
    });
    await h.manager.restore();
    expect(h.storage.clearAuthKeys).toHaveBeenCalled();
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin', { message: authMessages.invalidSession });
  });
});

describe('offline is not an error', () => {
  test('an expired token that cannot be refreshed without a connection opens the app from the stored session', async () => {
    const stored = makeSession('old', -60);
    const h = harness({ stored });
    h.auth.getSession.mockResolvedValueOnce({
      data: { session: null },
      error: new AuthRetryableFetchError('Failed to fetch', 0),
    });
    await h.manager.restore();
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', offline: true, sessionError: null });
    expect(h.fetchUser).not.toHaveBeenCalled();
    expect(h.auth.signOut).not.toHaveBeenCalled();
    expect(h.navigate).not.toHaveBeenCalled();
  });

  test('a session check that cannot reach the server keeps the cached session', async () => {
    const h = harness();
    h.fetchUser.mockRejectedValue(new TypeError('Failed to fetch'));
    await h.manager.restore();
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', offline: true, sessionError: null });
    expect(h.auth.signOut).not.toHaveBeenCalled();
  });

  test('a session check that hangs falls back to the cached session after the validate timeout', async () => {
    const h = harness();
    h.fetchUser.mockReturnValue(new Promise<Response>(() => {}));
    const done = h.manager.restore();
    expect(h.manager.getState().status).toBe('loading');
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.validateTimeoutMs);
    await done;
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', offline: true });
  });

  test('offline, a profile the device cannot read keeps the session, with the sign-up profile', async () => {
    const loadProfile = vi.fn().mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    const h = harness({ dataPort: { loadProfile } });
    h.fetchUser.mockRejectedValue(new TypeError('Failed to fetch'));
    const done = h.manager.restore();
    await vi.advanceTimersByTimeAsync(2 * SESSION_TIMING.profileRetryDelayMs);
    await done;
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.redirectAfterRestoreFailureMs);
    expect(loadProfile).toHaveBeenCalledTimes(3);
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', offline: true, profilePending: true });
    expect(h.manager.getState().user).toMatchObject({ role: 'brand', fullName: 'Bea Brand' });
    expect(h.auth.signOut).not.toHaveBeenCalled();
    expect(h.navigate).not.toHaveBeenCalled();
  });

  test('a refresh that fails for lack of a connection does not sign out', async () => {
    const h = harness();
    await h.manager.restore();
    h.auth.refreshSession.mockResolvedValueOnce({
      data: { session: null, user: null },
      error: new AuthRetryableFetchError('Failed to fetch', 0),
    });
    const response = await h.manager.withSessionRetry(async () => new Response(null, { status: 401 }));
    expect(response.status).toBe(401);
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', offline: true });
    expect(h.navigate).not.toHaveBeenCalled();
  });
});

describe('401: refresh and retry, then sign out', () => {
  test('a 401 refreshes the session and repeats the call with the new token', async () => {
    const h = harness();
    await h.manager.restore();
    const call = vi.fn(async (token: string) => new Response(null, { status: token === 'token-2' ? 200 : 401 }));
    const response = await h.manager.withSessionRetry(call);
    expect(response.status).toBe(200);
    expect(call.mock.calls.map(([token]) => token)).toEqual(['token-1', 'token-2']);
    expect(h.manager.getState().session?.access_token).toBe('token-2');
  });

  test('a refused refresh signs out and sends the user to sign-in with the expiry message', async () => {
    const h = harness();
    await h.manager.restore();
    h.auth.refreshSession.mockResolvedValueOnce({
      data: { session: null, user: null },
      error: new AuthApiError('Invalid Refresh Token: Refresh Token Not Found', 400, 'refresh_token_not_found'),
    });
    const call = vi.fn(async () => new Response(null, { status: 401 }));
    await h.manager.withSessionRetry(call);
    expect(call).toHaveBeenCalledTimes(1);
    expect(h.auth.signOut).toHaveBeenCalledWith({ scope: 'local' });
    expect(h.manager.getState()).toMatchObject({
      status: 'signed_out',
      notice: 'Session expired. Please sign in again.',
    });
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin', { message: 'Session expired. Please sign in again.' });
  });

  test('a call still answered 401 after a successful refresh signs out', async () => {
    const h = harness();
    await h.manager.restore();
    await h.manager.withSessionRetry(async () => new Response(null, { status: 401 }));
    expect(h.manager.getState().status).toBe('signed_out');
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin', { message: authMessages.sessionExpired });
  });

  test('restore whose session check gets 401 and a refused refresh ends signed out', async () => {
    const h = harness();
    h.fetchUser.mockResolvedValue(new Response(null, { status: 401 }));
    h.auth.refreshSession.mockResolvedValueOnce({
      data: { session: null, user: null },
      error: new AuthApiError('Invalid Refresh Token', 400, 'refresh_token_not_found'),
    });
    await h.manager.restore();
    expect(h.manager.getState()).toMatchObject({ status: 'signed_out', notice: authMessages.sessionExpired });
  });
});

describe('session-error dialog', () => {
  test('a server error during the session check is shown, Try Again counts up to 2 and then stops', async () => {
    const h = harness();
    h.fetchUser.mockImplementation(async () => new Response('{}', { status: 500 }));
    await h.manager.restore();
    expect(h.manager.getState()).toMatchObject({
      status: 'signed_in',
      sessionError: 'Server error. Please try again later.',
      retryCount: 0,
    });
    const retry = h.manager.retryAfterError();
    // A retry while signed in keeps the page (and any form on it) mounted.
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', checking: true });
    await retry;
    expect(h.manager.getState()).toMatchObject({
      sessionError: 'Server error. Please try again later.',
      retryCount: 1,
      checking: false,
    });
    await h.manager.retryAfterError();
    expect(h.manager.getState().retryCount).toBe(2);
    await h.manager.retryAfterError();
    expect(h.manager.getState().retryCount).toBe(2);
    expect(h.fetchUser).toHaveBeenCalledTimes(3);
  });

  test('a Try Again that succeeds clears the error and the counter', async () => {
    const h = harness();
    h.fetchUser.mockResolvedValueOnce(new Response('{}', { status: 503 }));
    await h.manager.restore();
    await h.manager.retryAfterError();
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', sessionError: null, retryCount: 0 });
  });
});

test('a data layer registered after sign-in replaces the metadata profile with the synced one', async () => {
  const h = harness();
  await h.manager.restore();
  expect(h.manager.getState().profilePending).toBe(true);
  h.manager.setDataPort({
    watchProfile: (_id, onProfile) => (onProfile({ ...brandProfile, pro_tier: 'basic' }), () => {}),
  });
  expect(h.manager.getState()).toMatchObject({
    profilePending: false,
    user: { fullName: 'Bea From Profile', isPro: true, verified: true },
  });
});

describe('signed out elsewhere', () => {
  function withAuthEvents(session: Session) {
    const h = harness({ session });
    let emit: (event: string, session: Session | null) => void = () => {};
    h.auth.onAuthStateChange.mockImplementation((callback: (event: string, session: Session | null) => void) => {
      emit = callback;
      return { data: { subscription: { unsubscribe() {} } } };
    });
    return { h, emit: (event: string) => emit(event, null) };
  }

  test('another tab signing out ends this tab quietly', async () => {
    const { h, emit } = withAuthEvents(makeSession('token-1', 3600));
    await h.manager.start();
    emit('SIGNED_OUT');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.manager.getState()).toMatchObject({ status: 'signed_out', notice: null });
    expect(h.navigate).not.toHaveBeenCalled();
    h.manager.stop();
  });

  test('supabase-js dropping a session it could not refresh says the session expired', async () => {
    const { h, emit } = withAuthEvents(makeSession('token-1', 30));
    await h.manager.start();
    emit('SIGNED_OUT');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.manager.getState()).toMatchObject({ status: 'signed_out', notice: authMessages.sessionExpired });
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin', { message: authMessages.sessionExpired });
    h.manager.stop();
  });
});

describe('keep-alive', () => {
  test('every 5 minutes it refreshes a session with under 5 minutes left, and leaves a longer one alone', async () => {
    const h = harness({ session: makeSession('token-1', 11 * 60) });
    await h.manager.restore();
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.keepAliveIntervalMs);
    expect(h.auth.refreshSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.keepAliveIntervalMs);
    expect(h.auth.refreshSession).toHaveBeenCalledTimes(1);
    expect(h.manager.getState().session?.access_token).toBe('token-2');
    h.manager.stop();
  });

  test('recheck on focus leaves offline mode once the server answers', async () => {
    const h = harness();
    h.fetchUser.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await h.manager.restore();
    expect(h.manager.getState().offline).toBe(true);
    await h.manager.recheck();
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', offline: false });
    h.manager.stop();
  });
});

describe('sign-out', () => {
  test('with no data layer it signs out at once and goes to /auth/signin', async () => {
    const h = harness();
    await h.manager.restore();
    expect(await h.manager.requestSignOut()).toBe(true);
    expect(h.manager.getState().status).toBe('signed_out');
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin');
  });

  test('unsynced changes open the prompt with their count instead of signing out', async () => {
    const clearUserData = vi.fn(async () => {});
    const h = harness({ dataPort: { pendingChanges: () => 3, clearUserData, waitForSync: async () => {} } });
    await h.manager.restore();
    expect(await h.manager.requestSignOut()).toBe(false);
    expect(h.manager.getState()).toMatchObject({
      status: 'signed_in',
      signOutPrompt: { pendingChanges: 3, waiting: false },
    });
    expect(h.auth.signOut).not.toHaveBeenCalled();
    h.manager.cancelSignOut();
    expect(h.manager.getState().signOutPrompt).toBeNull();
    expect(clearUserData).not.toHaveBeenCalled();
  });

  test('waiting for sync signs out and clears the local database once the changes are pushed', async () => {
    let pending = 2;
    const clearUserData = vi.fn(async () => {});
    const h = harness({
      dataPort: {
        pendingChanges: () => pending,
        clearUserData,
        waitForSync: () => new Promise<void>((resolve) => setTimeout(() => ((pending = 0), resolve()), 1000)),
      },
    });
    await h.manager.restore();
    await h.manager.requestSignOut();
    const waiting = h.manager.waitForSyncThenSignOut();
    expect(h.manager.getState().signOutPrompt?.waiting).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    await waiting;
    expect(clearUserData).toHaveBeenCalledWith('u1');
    expect(h.manager.getState().status).toBe('signed_out');
    // The database is deleted while the session still exists, then the session ends.
    expect(clearUserData.mock.invocationCallOrder[0]).toBeLessThan(h.auth.signOut.mock.invocationCallOrder[0]!);
  });

  test('a local database that cannot be deleted does not keep the user signed in', async () => {
    const h = harness({ dataPort: { clearUserData: () => new Promise<void>(() => {}) } });
    await h.manager.restore();
    const done = h.manager.signOut();
    await vi.advanceTimersByTimeAsync(SESSION_TIMING.clearDataTimeoutMs);
    await done;
    expect(h.manager.getState().status).toBe('signed_out');
    expect(h.navigate).toHaveBeenCalledWith('/auth/signin');
  });

  test('a sync that cannot finish keeps the user signed in and says why', async () => {
    const h = harness({
      dataPort: { pendingChanges: () => 1, waitForSync: async () => Promise.reject(new TypeError('Failed to fetch')) },
    });
    await h.manager.restore();
    await h.manager.requestSignOut();
    await h.manager.waitForSyncThenSignOut();
    expect(h.manager.getState()).toMatchObject({
      status: 'signed_in',
      signOutPrompt: { pendingChanges: 1, waiting: false, error: authMessages.offline },
    });
  });

  test('signing out offline still removes the stored session', async () => {
    const h = harness();
    await h.manager.restore();
    h.auth.signOut.mockResolvedValueOnce({ error: new AuthRetryableFetchError('Failed to fetch', 0) });
    await h.manager.signOut();
    expect(h.storage.clearAuthKeys).toHaveBeenCalled();
    expect(h.manager.getState().status).toBe('signed_out');
  });
});

describe('sign-in', () => {
  test('remembers the choice before signing in and enters signed-in', async () => {
    const h = harness({ session: null });
    await h.manager.restore();
    const session = makeSession('fresh');
    h.auth.signInWithPassword.mockResolvedValueOnce({ data: { session, user: session.user }, error: null });
    expect(await h.manager.signIn('u1@example.test', 'correct-horse', false)).toBeNull();
    expect(h.storage.setRememberMe).toHaveBeenCalledWith(false);
    expect(h.manager.getState()).toMatchObject({ status: 'signed_in', session: { access_token: 'fresh' } });
  });

  test('no session after sign-in reads "Failed to create session"', async () => {
    const h = harness({ session: null });
    h.auth.signInWithPassword.mockResolvedValueOnce({ data: { session: null, user: null }, error: null });
    expect(await h.manager.signIn('a@b.test', 'x', true)).toBe('Failed to create session');
  });

  test('error messages map to the spec texts', () => {
    expect(signInErrorMessage(new AuthApiError('Email not confirmed', 400, 'email_not_confirmed'))).toBe(
      'Please verify your email before signing in',
    );
    expect(signInErrorMessage(new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'))).toBe(
      'Sign in failed. Please check your credentials and try again.',
    );
    expect(signInErrorMessage(new AuthRetryableFetchError('Failed to fetch', 0))).toBe(authMessages.offline);
  });
});
