// "Sign-up records acceptance of the Terms on the server": which Terms, and when by the database's
// clock (migration 20261129000400_terms_acceptance).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TERMS_VERSION } from '../../src/domain/terms.ts';
import { postJson, startAuthTestServer, type AuthTestServer } from './auth-test-server.ts';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({
    env: { AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0', AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '1000' },
  });
});
afterAll(() => server?.close());

let n = 0;
async function signUp(data: Record<string, unknown>): Promise<string> {
  const res = await postJson(`${server.url}/auth/v1/signup`, {
    email: `terms-${++n}@example.test`,
    password: 'long enough',
    data: { full_name: 'Terry Terms', role: 'creator', ...data },
  });
  expect(res.status).toBe(200);
  return (res.body.id ?? (res.body.user as { id: string }).id) as string;
}

const acceptanceOf = async (id: string) =>
  (
    await server.db.pool.query(
      `select terms_version, accepted_at, accepted_at > now() - interval '1 minute' as just_now
         from pacta_private.terms_acceptances where user_id = $1`,
      [id],
    )
  ).rows[0];

test('a sign-up that accepted the Terms is recorded with their version, at the server’s time, not the device’s', async () => {
  const id = await signUp({ terms_version: TERMS_VERSION, terms_accepted_at: '2001-01-01T00:00:00Z' });
  expect(await acceptanceOf(id)).toMatchObject({ terms_version: TERMS_VERSION, just_now: true });
});

test('without a well-formed version nothing is recorded, and the sign-up itself still works', async () => {
  for (const data of [{}, { terms_version: 'yes' }, { terms_version: true }, { terms_version: "2026-11-01'; --" }]) {
    const id = await signUp(data);
    expect(await acceptanceOf(id)).toBeUndefined();
    const { rows } = await server.db.pool.query('select 1 from public.profiles where id = $1', [id]);
    expect(rows).toHaveLength(1);
  }
});
