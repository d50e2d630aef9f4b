import type { User } from '@supabase/supabase-js';
import { expect, test } from 'vitest';
import { toSessionUser } from './session-user.ts';

const user = (appMeta: Record<string, unknown> = {}): User =>
  ({
    id: 'u1',
    email: 'u1@example.test',
    app_metadata: appMeta,
    user_metadata: { role: 'creator', full_name: 'Ada' },
    aud: 'authenticated',
    created_at: '2026-01-01T00:00:00Z',
  }) as User;

test('before the profile syncs, the sign-up guess is used but not known; the synced profile or app_metadata makes it known', () => {
  // An admin promoted in the profile only (as the demo admin is): sign-up metadata says creator.
  expect(toSessionUser(user(), null, true)).toMatchObject({ role: 'creator', roleKnown: false, isAdmin: false });
  expect(toSessionUser(user(), { id: 'u1', role: 'admin' }, false)).toMatchObject({
    role: 'admin',
    roleKnown: true,
    isAdmin: true,
  });
  expect(toSessionUser(user({ role: 'admin' }), null, true)).toMatchObject({ role: 'admin', roleKnown: true });
  expect(toSessionUser(user(), { id: 'u1', role: 'creator' }, false)).toMatchObject({
    role: 'creator',
    roleKnown: true,
  });
});
