import { expect, test } from 'vitest';
import { createRememberMeStorage, REMEMBER_ME_KEY, type KeyValueStore } from './remember-me-storage.ts';

const AUTH_STORAGE_KEY = 'pacta.auth.session';

function memory(): KeyValueStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

test('Remember me keeps the session in localStorage, so it survives the browser session', () => {
  const local = memory();
  const session = memory();
  const storage = createRememberMeStorage(AUTH_STORAGE_KEY, local, session);
  storage.setRememberMe(true);
  storage.setItem(AUTH_STORAGE_KEY, '{"access_token":"a"}');
  expect(local.map.get(AUTH_STORAGE_KEY)).toBe('{"access_token":"a"}');
  expect(session.map.has(AUTH_STORAGE_KEY)).toBe(false);
});

test('without Remember me the session lives in sessionStorage and leaves no copy in localStorage', () => {
  const local = memory();
  const session = memory();
  const storage = createRememberMeStorage(AUTH_STORAGE_KEY, local, session);
  storage.setRememberMe(true);
  storage.setItem(AUTH_STORAGE_KEY, 'old');
  storage.setRememberMe(false);
  storage.setItem(AUTH_STORAGE_KEY, 'new');
  expect(session.map.get(AUTH_STORAGE_KEY)).toBe('new');
  expect(local.map.has(AUTH_STORAGE_KEY)).toBe(false);
  expect(storage.getItem(AUTH_STORAGE_KEY)).toBe('new');
  expect(local.map.get(REMEMBER_ME_KEY)).toBe('false');
});

test('the PKCE code verifier always goes to localStorage, since the e-mail link opens another tab', () => {
  const local = memory();
  const session = memory();
  const storage = createRememberMeStorage(AUTH_STORAGE_KEY, local, session);
  storage.setRememberMe(false);
  storage.setItem(`${AUTH_STORAGE_KEY}-code-verifier`, 'v');
  expect(local.map.get(`${AUTH_STORAGE_KEY}-code-verifier`)).toBe('v');
  expect(storage.getItem(`${AUTH_STORAGE_KEY}-code-verifier`)).toBe('v');
});

test('clearAuthKeys removes the session from both stores but keeps unrelated keys', () => {
  const local = memory();
  const session = memory();
  local.setItem('pacta.theme', 'ocean');
  const storage = createRememberMeStorage(AUTH_STORAGE_KEY, local, session);
  storage.setItem(AUTH_STORAGE_KEY, 's');
  session.setItem(AUTH_STORAGE_KEY, 'stale');
  storage.clearAuthKeys();
  expect(storage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  expect(local.map.get('pacta.theme')).toBe('ocean');
});
