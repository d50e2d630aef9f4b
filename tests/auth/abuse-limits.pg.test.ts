// Abuse limits and secrecy: brute-force sign-in is rate limited (across server instances, since the
// counters live in Postgres), auth e-mails are throttled per address, and a password never appears
// in clear in the database or in the server's logs.
import { Writable } from 'node:stream';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postJson, startAuthTestServer, type AuthTestServer } from './auth-test-server.ts';

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used here');
  }
}
const supabaseFor = (url: string) =>
  createClient(url, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
  });

describe('sign-in rate limits', () => {
  let a: AuthTestServer;
  let b: AuthTestServer;
  beforeAll(async () => {
    const env = { AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '6', AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '1000' };
    a = await startAuthTestServer({ env });
    // A second instance on the same database: the limit is shared, not per process.
    b = await startAuthTestServer({ env, databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  test('a brute-force loop gets 429 over_request_rate_limit, also on another instance', async () => {
    const email = 'victim@example.test';
    expect((await postJson(`${a.url}/auth/v1/signup`, { email, password: 'the real password' })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const instance = i % 2 === 0 ? a : b;
      const { error } = await supabaseFor(instance.url).auth.signInWithPassword({
        email,
        password: `guess number ${i}`,
      });
      statuses.push(error!.status!);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400]);
    for (const instance of [a, b]) {
      const { error } = await supabaseFor(instance.url).auth.signInWithPassword({
        email,
        password: 'the real password',
      });
      expect(error).toMatchObject({ code: 'over_request_rate_limit', status: 429 });
    }
    const raw = await postJson(`${b.url}/auth/v1/token?grant_type=password`, { email, password: 'x' });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(raw.body).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
  });
});

describe('per-address limits', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({
      env: {
        AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '3',
        AUTH_RATE_LIMIT_WINDOW_SECONDS: '300',
        AUTH_EMAIL_MIN_INTERVAL_SECONDS: '60',
      },
    });
  });
  afterAll(() => server?.close());

  test('sign-in attempts on one address are limited while another address still signs in', async () => {
    for (const email of ['one@example.test', 'two@example.test']) {
      expect((await postJson(`${server.url}/auth/v1/signup`, { email, password: 'password one two' })).status).toBe(
        200,
      );
    }
    const client = supabaseFor(server.url);
    for (let i = 0; i < 3; i++) {
      expect(
        (await client.auth.signInWithPassword({ email: 'one@example.test', password: 'wrong guess' })).error?.code,
      ).toBe('invalid_credentials');
    }
    expect(
      (await client.auth.signInWithPassword({ email: 'one@example.test', password: 'password one two' })).error,
    ).toMatchObject({
      code: 'over_request_rate_limit',
      status: 429,
    });
    expect(
      (await client.auth.signInWithPassword({ email: 'two@example.test', password: 'password one two' })).error,
    ).toBeNull();
  });

  test('parallel guesses on one address cannot slip past the limit together', async () => {
    const email = 'three@example.test';
    expect((await postJson(`${server.url}/auth/v1/signup`, { email, password: 'password one two' })).status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        supabaseFor(server.url).auth.signInWithPassword({ email, password: `parallel guess ${i}` }),
      ),
    );
    const codes = results.map((r) => r.error?.code);
    expect(codes.filter((c) => c === 'invalid_credentials')).toHaveLength(3);
    expect(codes.filter((c) => c === 'over_request_rate_limit')).toHaveLength(9);
  });

  test('attempts count for a whole window after they happen, not until a clock-aligned window ends', async () => {
    const email = 'four@example.test';
    expect((await postJson(`${server.url}/auth/v1/signup`, { email, password: 'password one two' })).status).toBe(200);
    // Three failed attempts 290 s ago (the window is 300 s): on clock-aligned windows they would
    // almost always belong to the previous window and be forgotten.
    await server.db.pool.query(
      `insert into auth.pacta_rate_limits (bucket, subject, window_start, hits)
       select 'sign_in_ip_email', '127.0.0.1 ' || $1, now() - interval '290 seconds' + make_interval(secs => i / 1000.0), 1 from generate_series(1, 3) i`,
      [email],
    );
    expect(
      (await supabaseFor(server.url).auth.signInWithPassword({ email, password: 'password one two' })).error,
    ).toMatchObject({
      code: 'over_request_rate_limit',
      status: 429,
    });
  });

  test('a second recovery e-mail within the interval is 429 over_email_send_rate_limit', async () => {
    const email = 'forgetful@example.test';
    await postJson(`${server.url}/auth/v1/signup`, { email, password: 'password one two' });
    const client = supabaseFor(server.url);
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    const second = await client.auth.resetPasswordForEmail(email);
    expect(second.error).toMatchObject({ code: 'over_email_send_rate_limit', status: 429 });
    expect(second.error?.message).toMatch(/only request this after \d+ seconds/);
    const { rows } = await server.db.pool.query(
      'select count(*)::int as n from auth.pacta_email_outbox where to_email = $1',
      [email],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('passwords are never kept or logged in clear', () => {
  const lines: string[] = [];
  let server: AuthTestServer;
  const first = 'Pw-ZEBRA-quartz-7731';
  const second = 'Pw-OTTER-basalt-9902';
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    server = await startAuthTestServer({
      env: { LOG_LEVEL: 'trace', AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0' },
      logStream,
    });
  });
  afterAll(() => server?.close());

  test('after sign-up, failed and good sign-ins, a password change and a recovery, no table or log line holds a password', async () => {
    const email = 'secretive@example.test';
    const client = supabaseFor(server.url);
    expect(
      (await client.auth.signUp({ email, password: first, options: { data: { full_name: 'Sam Secret' } } })).error,
    ).toBeNull();
    expect((await client.auth.signInWithPassword({ email, password: second })).error?.code).toBe('invalid_credentials');
    const signedIn = await client.auth.signInWithPassword({ email, password: first });
    expect(signedIn.error).toBeNull();
    const token = signedIn.data.session!.access_token;
    const update = await fetch(`${server.url}/auth/v1/user`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ password: second }),
    });
    expect(update.status).toBe(200);
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();

    const { rows } = await server.db.pool.query(`
      select 'users' as t, u::text as row from auth.users u
      union all select 'sessions', s::text from auth.sessions s
      union all select 'refresh_tokens', r::text from auth.refresh_tokens r
      union all select 'identities', i::text from auth.identities i
      union all select 'one_time_tokens', o::text from auth.one_time_tokens o
      union all select 'outbox', m::text from auth.pacta_email_outbox m
      union all select 'rate_limits', l::text from auth.pacta_rate_limits l
      union all select 'profiles', p::text from public.profiles p`);
    expect(rows.length).toBeGreaterThan(5);
    for (const { t, row } of rows) {
      expect(row, t).not.toContain(first);
      expect(row, t).not.toContain(second);
    }
    const stored = await server.db.pool.query('select encrypted_password from auth.users where email = $1', [email]);
    expect(stored.rows[0].encrypted_password).toMatch(/^\$2a\$10\$[./A-Za-z0-9]{53}$/);

    const log = lines.join('');
    expect(log).toContain('auth: signed in'); // the capture works and the auth routes do log
    expect(log).not.toContain(first);
    expect(log).not.toContain(second);
  });

  test('the one-time token of an e-mail link is not written to the request log', async () => {
    const email = 'link-follower@example.test';
    expect((await supabaseFor(server.url).auth.signUp({ email, password: first })).error).toBeNull();
    expect((await supabaseFor(server.url).auth.resetPasswordForEmail(email)).error).toBeNull();
    const mailbox = await (
      await fetch(`${server.url}/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`)
    ).json();
    const link = mailbox.messages[0] as { action_link: string; token_hash: string };
    const followed = await fetch(link.action_link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const log = lines.join('');
    expect(log).toContain('/auth/v1/verify?');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(link.token_hash);
  });

  test('a pgcrypto bcrypt hash (as seed scripts write them) signs in', async () => {
    await server.db.pool.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', 'seeded@example.test',
         crypt('seeded password', gen_salt('bf')), now(), '{"provider":"email","providers":["email"]}', '{"role":"brand"}')`,
    );
    const { data, error } = await supabaseFor(server.url).auth.signInWithPassword({
      email: 'seeded@example.test',
      password: 'seeded password',
    });
    expect(error).toBeNull();
    expect(data.user?.identities).toEqual([]);
  });
});
