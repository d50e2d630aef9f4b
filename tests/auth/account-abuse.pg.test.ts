// What an attacker with an ordinary account tries against the account flows, through the real HTTP
// API and the real supabase-js: guessing e-mailed codes, taking over a pending sign-up, locking other
// people out, finding out who has an account, weak passwords, and changing a password with only a
// borrowed session. Client IPs differ by leaving from other loopback addresses (127.0.0.x).
import { createHash } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchFrom, postJson, startAuthTestServer, type AuthTestServer } from './auth-test-server.ts';

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used here');
  }
}

/** supabase-js as a browser at that loopback address would use it. */
const supabaseFor = (url: string, from = '127.0.0.1'): SupabaseClient =>
  createClient(url, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    global: { fetch: fetchFrom(from) },
  });

type Mail = { kind: string; otp: string; token_hash: string; action_link: string };

async function mailbox(server: AuthTestServer, email: string): Promise<Mail[]> {
  const res = await fetch(`${server.url}/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`);
  return ((await res.json()) as { messages: Mail[] }).messages;
}

/** Limits high enough to stay out of the way of the control under test. */
const QUIET = {
  EMAIL_CONFIRMATION: 'on',
  AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0',
  AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '1000',
  AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '1000',
  AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '1000',
  AUTH_RATE_LIMIT_EMAIL_PER_IP: '1000',
  AUTH_RATE_LIMIT_VERIFY_PER_IP: '1000',
  AUTH_RATE_LIMIT_VERIFY_PER_EMAIL: '1000',
};

const PASSWORD = 'owner password 41';

/** A confirmed account through its real confirmation link, then a recovery e-mail asked for it. */
async function confirmedAccount(server: AuthTestServer, email: string, password = PASSWORD): Promise<void> {
  const client = supabaseFor(server.url);
  expect((await client.auth.signUp({ email, password })).error).toBeNull();
  const [confirmation] = await mailbox(server, email);
  expect((await client.auth.verifyOtp({ token_hash: confirmation!.token_hash, type: 'signup' })).error).toBeNull();
}

async function recoveryMail(server: AuthTestServer, email: string): Promise<Mail> {
  expect((await supabaseFor(server.url).auth.resetPasswordForEmail(email)).error).toBeNull();
  const [mail] = await mailbox(server, email);
  expect(mail!.kind).toBe('recovery');
  return mail!;
}

/** A six-digit code that is not `otp`. */
const wrongCode = (otp: string, i: number) => String((Number(otp) + 1 + i) % 1_000_000).padStart(6, '0');

describe('guessing e-mailed codes', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({
      env: {
        ...QUIET,
        AUTH_OTP_CODE_TTL_SECONDS: '600',
        AUTH_OTP_TTL_SECONDS: '3600',
        AUTH_OTP_MAX_FAILED_ATTEMPTS: '5',
      },
    });
  });
  afterAll(() => server?.close());

  test('five wrong codes kill the typed code: the right one is then refused, the link still works', async () => {
    const email = 'guessed@example.test';
    await confirmedAccount(server, email);
    const mail = await recoveryMail(server, email);
    for (let i = 0; i < 5; i++) {
      const { error } = await supabaseFor(server.url, '127.0.0.2').auth.verifyOtp({
        email,
        token: wrongCode(mail.otp, i),
        type: 'recovery',
      });
      expect(error).toMatchObject({ code: 'otp_expired', status: 403 });
    }
    const right = await supabaseFor(server.url, '127.0.0.2').auth.verifyOtp({
      email,
      token: mail.otp,
      type: 'recovery',
    });
    expect(right.error).toMatchObject({ code: 'otp_expired', status: 403 });
    expect(right.data.session).toBeNull();
    // The link carries its own long secret, which five guesses at the code cannot touch.
    const owner = await supabaseFor(server.url).auth.verifyOtp({ token_hash: mail.token_hash, type: 'recovery' });
    expect(owner.error).toBeNull();
  });

  test('the link token is a secret of its own, not derived from the code, and only its hash is stored', async () => {
    const email = 'linked@example.test';
    await confirmedAccount(server, email);
    const mail = await recoveryMail(server, email);
    const gotrueStyle = createHash('sha224')
      .update(email + mail.otp)
      .digest('hex');
    expect(mail.token_hash).not.toBe(gotrueStyle);
    expect(mail.token_hash.length).toBeGreaterThanOrEqual(43); // 256 random bits, base64url
    const { rows } = await server.db.pool.query(`
      select t::text as row from auth.one_time_tokens t
      union all select u::text from auth.users u`);
    for (const { row } of rows) {
      expect(row).not.toContain(mail.token_hash);
      expect(row).not.toContain(mail.otp);
    }
  });

  test('the typed code expires after minutes while the link lives on', async () => {
    const email = 'slow-reader@example.test';
    await confirmedAccount(server, email);
    const mail = await recoveryMail(server, email);
    // Eleven minutes later: past the code's 10 minutes, within the link's hour.
    await server.db.pool.query(
      `update auth.one_time_tokens set created_at = created_at - interval '11 minutes' where relates_to = $1`,
      [email],
    );
    const code = await supabaseFor(server.url).auth.verifyOtp({ email, token: mail.otp, type: 'recovery' });
    expect(code.error).toMatchObject({ code: 'otp_expired', status: 403 });
    const link = await fetch(mail.action_link, { redirect: 'manual' });
    expect(link.headers.get('location')).toContain('#access_token=');
  });
});

describe('/verify is rate limited', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({
      env: { ...QUIET, AUTH_RATE_LIMIT_VERIFY_PER_IP: '6', AUTH_RATE_LIMIT_VERIFY_PER_EMAIL: '3' },
    });
  });
  afterAll(() => server?.close());

  test('per IP: token hashes, codes and links together, then 429 over_request_rate_limit', async () => {
    const from = '127.0.0.5';
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const { error } = await supabaseFor(server.url, from).auth.verifyOtp({
        token_hash: `not-a-token-${i}`,
        type: 'recovery',
      });
      statuses.push(error!.status!);
      const code = await supabaseFor(server.url, from).auth.verifyOtp({
        email: `nobody-${i}@example.test`,
        token: '123456',
        type: 'email',
      });
      statuses.push(code.error!.status!);
      const link = await fetchFrom(from)(`${server.url}/auth/v1/verify?type=signup&token=not-a-token-${i}`, {
        redirect: 'manual',
      });
      statuses.push(link.status);
    }
    expect(statuses).toEqual([403, 403, 303, 403, 403, 303]);
    const limited = await supabaseFor(server.url, from).auth.verifyOtp({ token_hash: 'another', type: 'signup' });
    expect(limited.error).toMatchObject({ code: 'over_request_rate_limit', status: 429 });
    const raw = await fetchFrom(from)(`${server.url}/auth/v1/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'magiclink', token_hash: 'x' }),
    });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
    const link = await fetchFrom(from)(`${server.url}/auth/v1/verify?type=recovery&token=x`, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(link.headers.get('location')!).hash.slice(1));
    expect(fragment.get('error_code')).toBe('over_request_rate_limit');
    // Another client is not affected.
    const other = await supabaseFor(server.url, '127.0.0.6').auth.verifyOtp({ token_hash: 'x', type: 'signup' });
    expect(other.error).toMatchObject({ code: 'otp_expired', status: 403 });
  });

  test('per address, whatever the IP: after 3 tries even the right code is 429', async () => {
    const email = 'targeted@example.test';
    await confirmedAccount(server, email);
    const mail = await recoveryMail(server, email);
    for (let i = 0; i < 3; i++) {
      const { error } = await supabaseFor(server.url, `127.0.0.${20 + i}`).auth.verifyOtp({
        email,
        token: wrongCode(mail.otp, i),
        type: 'recovery',
      });
      expect(error).toMatchObject({ code: 'otp_expired' });
    }
    const right = await supabaseFor(server.url, '127.0.0.30').auth.verifyOtp({
      email,
      token: mail.otp,
      type: 'recovery',
    });
    expect(right.error).toMatchObject({ code: 'over_request_rate_limit', status: 429 });
  });
});

describe('sign-up of an address that is taken or pending', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({ env: QUIET });
  });
  afterAll(() => server?.close());

  test('signing up again before confirmation changes nothing; the owner confirms and keeps their password', async () => {
    const email = 'pending-owner@example.test';
    const owner = supabaseFor(server.url);
    expect(
      (await owner.auth.signUp({ email, password: PASSWORD, options: { data: { full_name: 'Olive Owner' } } })).error,
    ).toBeNull();
    const attacker = supabaseFor(server.url, '127.0.0.9');
    const again = await attacker.auth.signUp({
      email,
      password: 'attacker password 9',
      options: { data: { full_name: 'Mallory' } },
    });
    expect(again.error).toBeNull();
    // The confirmation was sent again, to the owner's inbox.
    const messages = await mailbox(server, email);
    expect(messages.map((m) => m.kind)).toEqual(['signup', 'signup']);
    const confirmed = await owner.auth.verifyOtp({ token_hash: messages[0]!.token_hash, type: 'signup' });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data.user?.user_metadata.full_name).toBe('Olive Owner');
    const fresh = supabaseFor(server.url, '127.0.0.9');
    expect((await fresh.auth.signInWithPassword({ email, password: 'attacker password 9' })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await fresh.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  test('signing up with a confirmed address answers exactly as a new address does, and sends nothing', async () => {
    const taken = 'taken@example.test';
    await confirmedAccount(server, taken);
    const before = (await mailbox(server, taken)).length;
    const data = { full_name: 'Prober', role: 'creator' };
    const probe = await postJson(`${server.url}/auth/v1/signup`, { email: taken, password: 'probe password 77', data });
    const fresh = await postJson(`${server.url}/auth/v1/signup`, {
      email: 'fresh@example.test',
      password: 'probe password 77',
      data,
    });
    expect(probe.status).toBe(fresh.status);
    expect(shape(probe.body, taken)).toEqual(shape(fresh.body, 'fresh@example.test'));
    expect(await mailbox(server, taken)).toHaveLength(before);
  });
});

/** A response body with its ids, times and address replaced by placeholders: what is left is its shape. */
function shape(body: unknown, email: string): unknown {
  const json = JSON.stringify(body)
    .replaceAll(email, '<email>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
  return JSON.parse(json);
}

describe('sign-in limits cannot lock someone else out', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({
      env: { ...QUIET, AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '3', AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '8' },
    });
  });
  afterAll(() => server?.close());

  test("an attacker's wrong guesses on an address do not stop its owner signing in from elsewhere", async () => {
    const email = 'locked-out@example.test';
    await confirmedAccount(server, email);
    const attacker = supabaseFor(server.url, '127.0.0.2');
    for (let i = 0; i < 3; i++) {
      expect((await attacker.auth.signInWithPassword({ email, password: `guess ${i} guess` })).error?.code).toBe(
        'invalid_credentials',
      );
    }
    expect((await attacker.auth.signInWithPassword({ email, password: 'guess 4 guess' })).error).toMatchObject({
      code: 'over_request_rate_limit',
      status: 429,
    });
    const owner = await supabaseFor(server.url, '127.0.0.3').auth.signInWithPassword({ email, password: PASSWORD });
    expect(owner.error).toBeNull();
  });

  test('the per-IP limit still holds across addresses', async () => {
    const from = supabaseFor(server.url, '127.0.0.4');
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 9; i++) {
      codes.push((await from.auth.signInWithPassword({ email: `spray-${i}@example.test`, password: 'x' })).error?.code);
    }
    expect(codes.slice(0, 8)).toEqual(Array(8).fill('invalid_credentials'));
    expect(codes[8]).toBe('over_request_rate_limit');
  });
});

describe('the answers do not tell whether an address has an account', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({ env: { ...QUIET, AUTH_EMAIL_MIN_INTERVAL_SECONDS: '60' } });
  });
  afterAll(() => server?.close());

  type Answer = { status: number; body: unknown };
  const answer = async (path: string, body: unknown, email: string): Promise<Answer> => {
    const res = await postJson(`${server.url}/auth/v1/${path}`, body);
    return { status: res.status, body: shape(res.body, email) };
  };

  test('/recover twice: known and unknown addresses get the same answers, 429 included', async () => {
    const known = 'known-recover@example.test';
    await confirmedAccount(server, known);
    const unknown = 'unknown-recover@example.test';
    // The sign-up's own confirmation e-mail is more than a minute old by now.
    await server.db.pool.query(`update auth.pacta_email_outbox set created_at = created_at - interval '2 minutes'`);
    await server.db.pool.query(`delete from auth.pacta_email_requests`);
    const answers = async (email: string) => [
      await answer('recover', { email }, email),
      await answer('recover', { email }, email),
    ];
    const [knownAnswers, unknownAnswers] = [await answers(known), await answers(unknown)];
    expect(knownAnswers[1]!.status).toBe(429);
    expect(unknownAnswers).toEqual(knownAnswers);
  });

  test('/resend: unknown, pending and confirmed addresses get the same answers', async () => {
    const pending = 'pending-resend@example.test';
    expect((await supabaseFor(server.url).auth.signUp({ email: pending, password: PASSWORD })).error).toBeNull();
    const confirmed = 'confirmed-resend@example.test';
    await confirmedAccount(server, confirmed);
    await server.db.pool.query(`update auth.pacta_email_outbox set created_at = created_at - interval '2 minutes'`);
    await server.db.pool.query(`delete from auth.pacta_email_requests`);
    const twice = async (email: string) => [
      await answer('resend', { type: 'signup', email }, email),
      await answer('resend', { type: 'signup', email }, email),
    ];
    const pendingAnswers = await twice(pending);
    expect(pendingAnswers[1]!.status).toBe(429);
    expect(await twice(confirmed)).toEqual(pendingAnswers);
    expect(await twice('nobody-resend@example.test')).toEqual(pendingAnswers);
  });

  test('/signup twice: a taken address answers as a new one, 429 within the e-mail interval included', async () => {
    const taken = 'taken-twice@example.test';
    await confirmedAccount(server, taken);
    await server.db.pool.query(`update auth.pacta_email_outbox set created_at = created_at - interval '2 minutes'`);
    await server.db.pool.query(`delete from auth.pacta_email_requests`);
    const twice = async (email: string) => [
      await answer('signup', { email, password: 'probe password 77' }, email),
      await answer('signup', { email, password: 'probe password 77' }, email),
    ];
    const fresh = await twice('new-twice@example.test');
    expect(fresh[1]!.status).toBe(429);
    expect(await twice(taken)).toEqual(fresh);
  });

  test('/token: a wrong password and an unknown address get the same answer', async () => {
    const known = 'known-token@example.test';
    await confirmedAccount(server, known);
    const wrong = await answer('token?grant_type=password', { email: known, password: 'not it at all' }, known);
    const unknown = 'unknown-token@example.test';
    expect(await answer('token?grant_type=password', { email: unknown, password: 'not it at all' }, unknown)).toEqual(
      wrong,
    );
    expect(wrong).toEqual({ status: 400, body: { code: 'invalid_credentials', message: 'Invalid login credentials' } });
  });
});

describe('password policy and password changes', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({ env: { ...QUIET, AUTH_PASSWORD_CHANGE_RECENT_SIGN_IN_SECONDS: '300' } });
  });
  afterAll(() => server?.close());

  test('the most common passwords are refused with 422 weak_password, at sign-up and on change', async () => {
    for (const password of ['password', '12345678', 'iloveyou', 'Qwertyuiop']) {
      const { error } = await supabaseFor(server.url).auth.signUp({ email: 'weak@example.test', password });
      expect(error, password).toMatchObject({ code: 'weak_password', status: 422, reasons: ['pwned'] });
    }
    const raw = await postJson(`${server.url}/auth/v1/signup`, { email: 'weak@example.test', password: 'password' });
    expect(raw.body).toEqual({
      code: 'weak_password',
      message: 'Password is known to be weak and easy to guess, please choose a different one.',
      weak_password: { reasons: ['pwned'] },
    });
    const email = 'changer@example.test';
    await confirmedAccount(server, email);
    const client = supabaseFor(server.url);
    expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await client.auth.updateUser({ password: 'password1' })).error).toMatchObject({
      code: 'weak_password',
      status: 422,
    });
  });

  test('a session signed in long ago needs the current password to change it', async () => {
    const email = 'borrowed-laptop@example.test';
    await confirmedAccount(server, email);
    const client = supabaseFor(server.url);
    const { data } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    // The owner signed in an hour ago and left the laptop open.
    await server.db.pool.query(`update auth.sessions set created_at = now() - interval '1 hour' where id = $1`, [
      JSON.parse(Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString()).session_id,
    ]);
    const without = await client.auth.updateUser({ password: 'taken over 123' });
    expect(without.error).toMatchObject({ code: 'current_password_required', status: 400 });
    const wrong = await client.auth.updateUser({ password: 'taken over 123', current_password: 'a wrong guess' });
    expect(wrong.error).toMatchObject({ code: 'current_password_invalid', status: 400 });
    const right = await client.auth.updateUser({ password: 'owner new password', current_password: PASSWORD });
    expect(right.error).toBeNull();
    const other = supabaseFor(server.url);
    expect((await other.auth.signInWithPassword({ email, password: 'owner new password' })).error).toBeNull();
  });

  test('right after signing in, or from a recovery link, no current password is needed', async () => {
    const email = 'just-signed-in@example.test';
    await confirmedAccount(server, email);
    const client = supabaseFor(server.url);
    expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await client.auth.updateUser({ password: 'fresh session pw 1' })).error).toBeNull();
    const mail = await recoveryMail(server, email);
    const recovering = supabaseFor(server.url);
    expect((await recovering.auth.verifyOtp({ token_hash: mail.token_hash, type: 'recovery' })).error).toBeNull();
    expect((await recovering.auth.updateUser({ password: 'recovered pw 22' })).error).toBeNull();
  });

  test('guessing the current password through a password change counts as sign-in attempts', async () => {
    const limited = await startAuthTestServer({
      env: {
        ...QUIET,
        AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '3',
        AUTH_PASSWORD_CHANGE_RECENT_SIGN_IN_SECONDS: '0',
      },
    });
    try {
      const email = 'guess-current@example.test';
      await confirmedAccount(limited, email);
      const client = supabaseFor(limited.url);
      expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 3; i++) {
        codes.push(
          (await client.auth.updateUser({ password: 'new one 4567', current_password: `guess ${i} x` })).error?.code,
        );
      }
      // The sign-in above was one of the three.
      expect(codes).toEqual(['current_password_invalid', 'current_password_invalid', 'over_request_rate_limit']);
    } finally {
      await limited.close();
    }
  });
});
