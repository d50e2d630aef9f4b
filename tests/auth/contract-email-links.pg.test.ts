// Contract suite, part 2 (sign-up with e-mail confirmation): confirmation, resend, recovery links and
// one-time tokens through the real @supabase/supabase-js. Tests that read the dev mailbox run locally
// only; against a hosted project (SUPABASE_CONTRACT_URL, confirmation on) the rest still runs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hosted, hostedConfirmation, newEmail, startContractTarget, type ContractTarget } from './contract-target.ts';

const PASSWORD = 'correct horse 1';
const local = !hosted;

describe.skipIf(hosted && !hostedConfirmation)('auth contract: e-mail links (confirmation on)', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ emailConfirmation: true });
  });
  afterAll(() => target?.close());

  async function pendingSignUp(label: string) {
    const email = newEmail(label);
    const c = target.client();
    const { data, error } = await c.supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { role: 'brand', full_name: 'Pat Pending' } },
    });
    expect(error).toBeNull();
    return { ...c, email, data };
  }

  /** A confirmed account (through its real confirmation link), signed out. */
  async function confirmedAccount(label: string) {
    const { email } = await pendingSignUp(label);
    const [message] = await target.mailbox(email);
    const { error } = await target
      .client()
      .supabase.auth.verifyOtp({ token_hash: message!.token_hash, type: 'signup' });
    expect(error).toBeNull();
    return email;
  }

  test('signUp returns the user without a session, and no SIGNED_IN', async () => {
    const { data, events, email } = await pendingSignUp('pending');
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { role: 'brand', email_verified: false },
    });
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(new Date(data.user!.confirmation_sent_at!).getTime()).toBeGreaterThan(0);
    expect(events).not.toContain('SIGNED_IN');
  });

  test('signInWithPassword before confirming is 400 email_not_confirmed', async () => {
    const { email, supabase } = await pendingSignUp('unconfirmed');
    const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toMatchObject({ code: 'email_not_confirmed', status: 400 });
  });

  test.skipIf(!local)(
    'the confirmation e-mail reaches the dev mailbox and verifyOtp with its token hash signs in',
    async () => {
      const { email } = await pendingSignUp('confirm');
      const messages = await target.mailbox(email);
      expect(messages).toHaveLength(1);
      const [message] = messages;
      expect(message).toMatchObject({
        to: email,
        kind: 'signup',
        subject: expect.any(String),
        otp: expect.stringMatching(/^\d{6}$/),
      });
      expect(message!.action_link).toContain(`${target.url}/auth/v1/verify?token=${message!.token_hash}&type=signup`);

      const { supabase, events } = target.client();
      const { data, error } = await supabase.auth.verifyOtp({ token_hash: message!.token_hash, type: 'signup' });
      expect(error).toBeNull();
      expect(data.session?.token_type).toBe('bearer');
      expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
      expect(data.user?.user_metadata.email_verified).toBe(true);
      expect(events).toContain('SIGNED_IN');
      // Single use.
      const again = await target.client().supabase.auth.verifyOtp({ token_hash: message!.token_hash, type: 'signup' });
      expect(again.error).toMatchObject({ code: 'otp_expired', status: 403 });
      expect((await target.client().supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    },
  );

  test.skipIf(!local)('resend sends a new confirmation and retires the previous link', async () => {
    const { email, supabase } = await pendingSignUp('resend');
    const [first] = await target.mailbox(email);
    const { error } = await supabase.auth.resend({ type: 'signup', email });
    expect(error).toBeNull();
    const messages = await target.mailbox(email);
    expect(messages).toHaveLength(2);
    const newest = messages[0]!;
    expect(newest.token_hash).not.toBe(first!.token_hash);
    expect((await supabase.auth.verifyOtp({ token_hash: first!.token_hash, type: 'signup' })).error).toMatchObject({
      code: 'otp_expired',
      status: 403,
    });
    // The code typed by hand works as well as the link.
    expect((await supabase.auth.verifyOtp({ email, token: newest.otp, type: 'email' })).error).toBeNull();
  });

  test('resend for an unknown address answers 200 (no account enumeration)', async () => {
    const { supabase } = target.client();
    expect((await supabase.auth.resend({ type: 'signup', email: newEmail('nobody') })).error).toBeNull();
  });

  test.skipIf(!local)(
    'signing up again with a confirmed address answers a look-alike new user and sends nothing',
    async () => {
      const email = await confirmedAccount('again');
      const before = (await target.mailbox(email)).length;
      const { data, error } = await target.client().supabase.auth.signUp({ email, password: 'another password' });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      // GoTrue answers `identities: []` here, which tells the address is taken; locally the answer has
      // the identity a new user has (tests/auth/account-abuse.pg.test.ts compares the two).
      expect(data.user?.identities).toHaveLength(1);
      const { rows } = await target.server!.db.pool.query('select id from auth.users where email = $1', [email]);
      expect(data.user?.id).not.toBe(rows[0].id);
      expect(await target.mailbox(email)).toHaveLength(before);
    },
  );

  test.skipIf(!local)(
    'the recovery link redirects to /auth/callback with the session in the fragment and type=recovery',
    async () => {
      const email = await confirmedAccount('recover');
      const { supabase } = target.client();
      expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();
      const [message] = await target.mailbox(email);
      expect(message!.kind).toBe('recovery');

      const res = await fetch(message!.action_link, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(`${target.url}/auth/callback`);
      expect(location.search).toBe('');
      const fragment = new URLSearchParams(location.hash.slice(1));
      expect(fragment.get('type')).toBe('recovery');
      expect(fragment.get('token_type')).toBe('bearer');
      expect(fragment.get('expires_in')).toBe('3600');
      expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
      const { data, error } = await supabase.auth.getUser(fragment.get('access_token')!);
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
      expect((await supabase.auth.refreshSession({ refresh_token: fragment.get('refresh_token')! })).error).toBeNull();

      // The same link again: redirected with GoTrue's error parameters instead of tokens.
      const reused = await fetch(message!.action_link, { redirect: 'manual' });
      const errorFragment = new URLSearchParams(new URL(reused.headers.get('location')!).hash.slice(1));
      expect(Object.fromEntries(errorFragment)).toEqual({
        error: 'access_denied',
        error_code: 'otp_expired',
        error_description: 'Email link is invalid or has expired',
      });
    },
  );

  test.skipIf(!local)('redirect_to pointing elsewhere falls back to /auth/callback (no open redirect)', async () => {
    const email = await confirmedAccount('redirect');
    await target.client().supabase.auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' });
    const [message] = await target.mailbox(email);
    const res = await fetch(message!.action_link, { redirect: 'manual' });
    expect(res.headers.get('location')).toMatch(new RegExp(`^${target.url}/auth/callback#access_token=`));
  });

  test.skipIf(!local)(
    'verifyOtp of a recovery token emits PASSWORD_RECOVERY; the new password then signs in',
    async () => {
      const email = await confirmedAccount('recovery-otp');
      const { supabase, events } = target.client();
      await supabase.auth.resetPasswordForEmail(email);
      const [message] = await target.mailbox(email);
      const { data, error } = await supabase.auth.verifyOtp({ token_hash: message!.token_hash, type: 'recovery' });
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
      expect(events).toContain('PASSWORD_RECOVERY');
      expect((await supabase.auth.updateUser({ password: 'recovered secret' })).error).toBeNull();
      expect(events).toContain('USER_UPDATED');
      const other = target.client().supabase;
      expect((await other.auth.signInWithPassword({ email, password: 'recovered secret' })).error).toBeNull();
      expect((await other.auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({
        code: 'invalid_credentials',
      });
    },
  );

  test.skipIf(!local)('an expired one-time token is 403 otp_expired', async () => {
    const email = await confirmedAccount('expired');
    await target.client().supabase.auth.resetPasswordForEmail(email);
    const [message] = await target.mailbox(email);
    await target.server!.db.pool.query(
      `update auth.one_time_tokens set created_at = created_at - interval '2 hours' where relates_to = $1`,
      [email],
    );
    const { error } = await target
      .client()
      .supabase.auth.verifyOtp({ token_hash: message!.token_hash, type: 'recovery' });
    expect(error).toMatchObject({ code: 'otp_expired', status: 403 });
  });

  test.skipIf(!local)('the dev mailbox page lists messages with their links', async () => {
    const { email } = await pendingSignUp('page');
    const res = await fetch(`${target.url}/auth/v1/dev/mailbox`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const [message] = await target.mailbox(email);
    expect(html).toContain(email);
    expect(html).toContain(message!.action_link.replaceAll('&', '&#38;'));
  });
});
