import { AUTH_STORAGE_KEY } from './supabase-events.ts';

/**
 * Where supabase-js keeps the session (docs/design.md "Remember me"): localStorage when the user ticked
 * Remember me, so the session survives closing the browser; sessionStorage otherwise, so it ends
 * with the browser session. The choice itself is remembered in localStorage.
 */
export const REMEMBER_ME_KEY = 'pacta.rememberMe';

export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type RememberMeStorage = KeyValueStore & {
  setRememberMe(remember: boolean): void;
  rememberMe(): boolean;
  /** Removes every auth key (session, code verifier, user) from both stores. */
  clearAuthKeys(): void;
};

function browserStore(name: 'localStorage' | 'sessionStorage'): KeyValueStore | null {
  try {
    return typeof globalThis[name] === 'undefined' ? null : globalThis[name];
  } catch {
    // Storage access throws in some privacy modes; the session then lives in memory only.
    return null;
  }
}

function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

export function createRememberMeStorage(
  authKey: string,
  persistent: KeyValueStore | null = browserStore('localStorage'),
  temporary: KeyValueStore | null = browserStore('sessionStorage'),
): RememberMeStorage {
  const local = persistent ?? memoryStore();
  const session = temporary ?? memoryStore();
  // Default: remembered, so sessions that existed before this setting (and other tabs) keep working.
  const rememberMe = () => local.getItem(REMEMBER_ME_KEY) !== 'false';
  const active = () => (rememberMe() ? local : session);
  const inactive = () => (rememberMe() ? session : local);
  const touched = new Set<string>();
  return {
    rememberMe,
    setRememberMe(remember) {
      local.setItem(REMEMBER_ME_KEY, String(remember));
    },
    getItem(key) {
      // The active store wins; the other one is a fallback for a session written before the choice changed.
      return active().getItem(key) ?? inactive().getItem(key);
    },
    setItem(key, value) {
      touched.add(key);
      // The PKCE code verifier must outlive the tab: the e-mail link that needs it opens a new one.
      const target = key.endsWith('-code-verifier') ? local : active();
      target.setItem(key, value);
      (target === local ? session : local).removeItem(key);
    },
    removeItem(key) {
      local.removeItem(key);
      session.removeItem(key);
    },
    clearAuthKeys() {
      for (const key of new Set([authKey, `${authKey}-code-verifier`, `${authKey}-user`, ...touched])) {
        local.removeItem(key);
        session.removeItem(key);
      }
    },
  };
}

/** The one instance the app's supabase client is created with (`auth: { storage, storageKey }`). */
export const rememberMeStorage = createRememberMeStorage(AUTH_STORAGE_KEY);
