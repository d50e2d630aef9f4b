// Sign-up side effects kept by the database (migration 20261122000200_new_user): the profile with
// its role and referral code, the pending referral, and email_verified following the confirmation.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { postJson, startAuthTestServer, type AuthTestServer } from './auth-test-server.ts';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({
    env: { EMAIL_CONFIRMATION: 'on', AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0', AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '1000' },
  });
});
afterAll(() => server?.close());

let n = 0;
async function signUp(data: Record<string, unknown>): Promise<string> {
  const res = await postJson(`${server.url}/auth/v1/signup`, {
    email: `new-user-${++n}@example.test`,
    password: 'long enough',
    data,
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function profile(id: string) {
  const { rows } = await server.db.pool.query(
    'select role, full_name, referral_code, email_verified from public.profiles where id = $1',
    [id],
  );
  return rows[0];
}

async function referralOf(id: string) {
  const { rows } = await server.db.pool.query(
    'select referrer_id, status, qualified, qualified_at from public.referrals where referred_user_id = $1',
    [id],
  );
  return rows[0];
}

test('sign-up creates the profile with the role and name from the metadata and a referral code', async () => {
  const id = await signUp({ role: 'brand', full_name: 'Bright Brand Ltd' });
  expect(await profile(id)).toEqual({
    role: 'brand',
    full_name: 'Bright Brand Ltd',
    referral_code: expect.stringMatching(/^[A-Z0-9]{6}$/),
    email_verified: false,
  });
});

test('the social links given at sign-up are kept on the profile (known platforms, https:// links only)', async () => {
  const id = await signUp({
    role: 'brand',
    social_links: {
      linkedin: ' https://www.linkedin.com/company/bright ',
      instagram: '',
      tiktok: 42,
      myspace: 'https://myspace.com/x',
      youtube: 'javascript:alert(document.cookie)',
      twitter: 'http://twitter.com/bright',
    },
  });
  const { rows } = await server.db.pool.query('select social_links from public.profiles where id = $1', [id]);
  expect(rows[0].social_links).toEqual({ linkedin: 'https://www.linkedin.com/company/bright' });
  const none = await signUp({ role: 'creator', social_links: 'not an object' });
  const after = await server.db.pool.query('select social_links from public.profiles where id = $1', [none]);
  expect(after.rows[0].social_links).toEqual({});
});

test('a missing, unknown or admin role becomes creator: admin is never granted by sign-up', async () => {
  for (const data of [{}, { role: 'admin' }, { role: 'superuser' }, { role: 42 }]) {
    expect((await profile(await signUp(data))).role).toBe('creator');
  }
});

test('referral codes are unique', async () => {
  const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => signUp({ full_name: `Bulk ${i}` })));
  const { rows } = await server.db.pool.query(
    'select count(distinct referral_code)::int as n from public.profiles where id = any($1)',
    [ids],
  );
  expect(rows[0].n).toBe(20);
});

test('ref = an existing referral code records a pending, unqualified referral (case-insensitive)', async () => {
  const referrer = await signUp({ role: 'creator', full_name: 'Rita Referrer' });
  const code = (await profile(referrer)).referral_code as string;
  const referred = await signUp({ role: 'creator', ref: code.toLowerCase() });
  expect(await referralOf(referred)).toEqual({
    referrer_id: referrer,
    status: 'active',
    qualified: false,
    qualified_at: null,
  });
});

test('an unknown ref signs up without a referral', async () => {
  const id = await signUp({ ref: 'NOPE00' });
  expect(await profile(id)).toBeDefined();
  expect(await referralOf(id)).toBeUndefined();
});

test('a failing referral insert does not block the sign-up', async () => {
  const referrer = await signUp({ full_name: 'Rex Referrer' });
  const code = (await profile(referrer)).referral_code as string;
  // Make every new referral row fail, as a bug or a concurrent change could.
  await server.db.pool.query(
    'alter table public.referrals add constraint auth_test_always_fails check (false) not valid',
  );
  try {
    const id = await signUp({ ref: code });
    expect(await profile(id)).toBeDefined();
    expect(await referralOf(id)).toBeUndefined();
  } finally {
    await server.db.pool.query('alter table public.referrals drop constraint auth_test_always_fails');
  }
});

test('profiles.email_verified follows the e-mail confirmation', async () => {
  const email = 'verify-me@example.test';
  const res = await postJson(`${server.url}/auth/v1/signup`, {
    email,
    password: 'long enough',
    data: { role: 'brand' },
  });
  const id = res.body.id as string;
  expect((await profile(id)).email_verified).toBe(false);
  const mailbox = await (await fetch(`${server.url}/auth/v1/dev/mailbox.json?email=${email}`)).json();
  const verify = await postJson(`${server.url}/auth/v1/verify`, {
    type: 'signup',
    token_hash: mailbox.messages[0].token_hash,
  });
  expect(verify.status).toBe(200);
  expect((await profile(id)).email_verified).toBe(true);
});
