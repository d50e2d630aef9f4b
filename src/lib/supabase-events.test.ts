import { afterEach, expect, test, vi } from 'vitest';
import { AUTH_STORAGE_KEY, storedSessionUserId } from './supabase-events.ts';

function storage(entries: Record<string, string> = {}): Pick<Storage, 'getItem'> {
  return { getItem: (key) => entries[key] ?? null };
}

afterEach(() => vi.unstubAllGlobals());

test('the stored session’s user is read from either storage Remember me may have used', () => {
  const session = JSON.stringify({ access_token: 't', user: { id: 'u-42' } });
  vi.stubGlobal('localStorage', storage({ [AUTH_STORAGE_KEY]: session }));
  vi.stubGlobal('sessionStorage', storage());
  expect(storedSessionUserId()).toBe('u-42');
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('sessionStorage', storage({ [AUTH_STORAGE_KEY]: session }));
  expect(storedSessionUserId()).toBe('u-42');
});

test('no session, a damaged one or one without a user gives no user', () => {
  vi.stubGlobal('sessionStorage', storage());
  for (const stored of [
    undefined,
    '{not json',
    JSON.stringify({ access_token: 't' }),
    JSON.stringify({ user: { id: 7 } }),
  ]) {
    vi.stubGlobal('localStorage', storage(stored === undefined ? {} : { [AUTH_STORAGE_KEY]: stored }));
    expect(storedSessionUserId()).toBeNull();
  }
});
