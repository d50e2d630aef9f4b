// Contract suite, part 1 (sign-up without e-mail confirmation): drives /auth/v1 through the real
// @supabase/supabase-js and asserts the codes, statuses and shapes Supabase Auth returns.
// Runs against a hosted project with SUPABASE_CONTRACT_URL / SUPABASE_CONTRACT_ANON_KEY and
// SUPABASE_CONTRACT_EMAIL_CONFIRMATION=off (see README, "Auth").
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Session, User } from '@supabase/supabase-js';
import {
  decodeJwt,
  hosted,
  hostedConfirmation,
  newEmail,
  startContractTarget,
  type ContractTarget,
} from './contract-target.ts';

const PASSWORD = 'correct horse 1';

describe.skipIf(hosted && hostedConfirmation)('auth contract: sessions (confirmation off)', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ emailConfirmation: false });
  });
  afterAll(() => target?.close());

  async function signedUp(
    label: string,
    data: Record<string, unknown> = { role: 'creator', full_name: 'Casey Creator' },
  ) {
    const email = newEmail(label);
    const c = target.client();
    const { data: result, error } = await c.supabase.auth.signUp({ email, password: PASSWORD, options: { data } });
    expect(error).toBeNull();
    return { ...c, email, session: result.session!, user: result.user! };
  }

  function expectSessionShape(session: Session, email: string) {
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(session.refresh_token).toEqual(expect.any(String));
    expect(session.access_token.split('.')).toHaveLength(3);
    expectUserShape(session.user, email);
  }

  function expectUserShape(user: User, email: string) {
    expect(user).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      is_anonymous: false,
    });
    for (const field of [
      'email_confirmed_at',
      'confirmed_at',
      'created_at',
      'updated_at',
      'last_sign_in_at',
    ] as const) {
      expect(new Date(user[field] as string).getTime(), field).toBeGreaterThan(0);
    }
    expect(user.identities?.[0]).toMatchObject({
      provider: 'email',
      user_id: user.id,
      identity_data: { email, sub: user.id },
    });
  }

  test('signUp returns a session and user with Supabase shapes and emits SIGNED_IN', async () => {
    const { session, user, email, events } = await signedUp('signup', { role: 'brand', full_name: 'Bea Brand' });
    expectSessionShape(session, email);
    expect(user.user_metadata).toMatchObject({
      role: 'brand',
      full_name: 'Bea Brand',
      email,
      email_verified: true,
      sub: user.id,
    });
    expect(events).toContain('SIGNED_IN');
  });

  test('the access token carries Supabase claims, signed ES256 with a kid from the JWKS', async () => {
    const { session, user, email, supabase } = await signedUp('claims', { role: 'creator', full_name: 'Cleo Claims' });
    const { header, payload } = decodeJwt(session.access_token);
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    expect(payload).toMatchObject({
      iss: `${target.url}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { role: 'creator', full_name: 'Cleo Claims' },
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      is_anonymous: false,
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
    const jwks = await (await fetch(`${target.url}/auth/v1/.well-known/jwks.json`)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
    // supabase-js verifies asymmetric tokens itself against that JWKS.
    const { data, error } = await supabase.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims.sub).toBe(user.id);
  });

  test('signUp errors: existing address 422 user_already_exists, short password 422 weak_password, bad address 400', async () => {
    const { email } = await signedUp('dupe');
    const { supabase } = target.client();
    const again = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(again.error).toMatchObject({ code: 'user_already_exists', status: 422 });
    expect(again.data.session).toBeNull();

    const weak = await supabase.auth.signUp({ email: newEmail('weak'), password: 'short' });
    expect(weak.error).toMatchObject({ code: 'weak_password', status: 422, reasons: ['length'] });

    const invalid = await supabase.auth.signUp({ email: 'not-an-address', password: PASSWORD });
    expect(invalid.error).toMatchObject({ code: 'validation_failed', status: 400 });
  });

  test('signInWithPassword: wrong password and unknown address are both 400 invalid_credentials', async () => {
    const { email } = await signedUp('wrongpw');
    const { supabase, events } = target.client();
    const wrong = await supabase.auth.signInWithPassword({ email, password: 'not the password' });
    expect(wrong.error).toMatchObject({
      code: 'invalid_credentials',
      status: 400,
      message: 'Invalid login credentials',
    });
    const unknown = await supabase.auth.signInWithPassword({ email: newEmail('nobody'), password: PASSWORD });
    expect(unknown.error).toMatchObject({ code: 'invalid_credentials', status: 400 });
    expect(events).not.toContain('SIGNED_IN');

    const ok = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(ok.error).toBeNull();
    expectSessionShape(ok.data.session!, email);
    expect(events).toContain('SIGNED_IN');
    const me = await supabase.auth.getUser();
    expect(me.error).toBeNull();
    expect(me.data.user?.id).toBe(ok.data.user!.id);
  });

  test('refreshSession rotates the refresh token and emits TOKEN_REFRESHED', async () => {
    const { supabase, session, events } = await signedUp('refresh');
    const { data, error } = await supabase.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(data.session!.access_token).payload.session_id).toBe(
      decodeJwt(session.access_token).payload.session_id,
    );
    expect(events).toContain('TOKEN_REFRESHED');
  });

  test('reusing a rotated refresh token is refresh_token_already_used and revokes the whole family', async () => {
    const { supabase, session } = await signedUp('reuse');
    const first = session.refresh_token;
    const rotated = await supabase.auth.refreshSession();
    expect(rotated.error).toBeNull();
    const current = rotated.data.session!.refresh_token;
    if (hosted) await new Promise((r) => setTimeout(r, 11_000)); // past the hosted reuse interval

    const thief = target.client().supabase;
    const reuse = await thief.auth.refreshSession({ refresh_token: first });
    expect(reuse.error).toMatchObject({ code: 'refresh_token_already_used', status: 400 });
    expect(reuse.data.session).toBeNull();
    // The legitimate holder's newest token died with the family.
    const after = await target.client().supabase.auth.refreshSession({ refresh_token: current });
    expect(after.error).toMatchObject({ code: 'refresh_token_already_used', status: 400 });
  });

  test('an unknown refresh token is 400 refresh_token_not_found', async () => {
    const { supabase } = target.client();
    const { error } = await supabase.auth.refreshSession({ refresh_token: 'no-such-token' });
    expect(error).toMatchObject({ code: 'refresh_token_not_found', status: 400 });
  });

  test('getUser with a malformed token is 403 bad_jwt', async () => {
    const { supabase } = target.client();
    const { data, error } = await supabase.auth.getUser('not.a.jwt');
    expect(error).toMatchObject({ code: 'bad_jwt', status: 403 });
    expect(data.user).toBeNull();
  });

  test('updateUser merges metadata and emits USER_UPDATED', async () => {
    const { supabase, events } = await signedUp('meta', { role: 'creator', full_name: 'Old Name', bio: 'x' });
    const { data, error } = await supabase.auth.updateUser({
      data: { full_name: 'New Name', bio: null, region: 'EU' },
    });
    expect(error).toBeNull();
    expect(data.user!.user_metadata).toMatchObject({ role: 'creator', full_name: 'New Name', region: 'EU' });
    expect(data.user!.user_metadata).not.toHaveProperty('bio');
    expect(events).toContain('USER_UPDATED');
    const me = await supabase.auth.getUser();
    expect(me.data.user!.user_metadata.full_name).toBe('New Name');
  });

  test('updateUser password: same password 422 same_password, weak 422, a new one replaces the old', async () => {
    const { supabase, email } = await signedUp('passwd');
    const same = await supabase.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ code: 'same_password', status: 422 });
    const weak = await supabase.auth.updateUser({ password: 'tiny' });
    expect(weak.error).toMatchObject({ code: 'weak_password', status: 422 });
    const changed = await supabase.auth.updateUser({ password: 'a brand new secret' });
    expect(changed.error).toBeNull();

    const other = target.client().supabase;
    expect((await other.auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await other.auth.signInWithPassword({ email, password: 'a brand new secret' })).error).toBeNull();
  });

  test.skipIf(hosted)(
    "a password change signs out the account's other devices; changing the e-mail is refused",
    async () => {
      const me = await signedUp('other-devices');
      const laptop = target.client();
      const { data } = await laptop.supabase.auth.signInWithPassword({ email: me.email, password: PASSWORD });
      expect((await me.supabase.auth.updateUser({ password: 'rotated secret 2' })).error).toBeNull();
      const stale = await target.client().supabase.auth.refreshSession({ refresh_token: data.session!.refresh_token });
      expect(stale.error).toMatchObject({ code: 'refresh_token_not_found', status: 400 });
      expect((await me.supabase.auth.refreshSession()).error).toBeNull();
      const email = await me.supabase.auth.updateUser({ email: newEmail('moved') });
      expect(email.error).toMatchObject({ code: 'validation_failed', status: 400 });
    },
  );

  test.skipIf(hosted)('a banned user can neither sign in nor refresh', async () => {
    const me = await signedUp('banned');
    await target.server!.db.pool.query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [
      me.user.id,
    ]);
    const signIn = await target.client().supabase.auth.signInWithPassword({ email: me.email, password: PASSWORD });
    expect(signIn.error).toMatchObject({ code: 'user_banned', status: 400 });
    expect((await me.supabase.auth.refreshSession()).error).toMatchObject({ code: 'user_banned', status: 400 });
  });

  test('resetPasswordForEmail answers 200 for an unknown address (no account enumeration)', async () => {
    const { supabase } = target.client();
    const { data, error } = await supabase.auth.resetPasswordForEmail(newEmail('ghost'));
    expect(error).toBeNull();
    expect(data).toEqual({});
  });

  describe('signOut scopes', () => {
    async function threeDevices() {
      const first = await signedUp('scopes');
      const devices = [first];
      for (let i = 0; i < 2; i++) {
        const c = target.client();
        const { data, error } = await c.supabase.auth.signInWithPassword({ email: first.email, password: PASSWORD });
        expect(error).toBeNull();
        devices.push({ ...c, email: first.email, session: data.session!, user: data.user! });
      }
      return devices;
    }
    const refresh = async (token: string) =>
      (await target.client().supabase.auth.refreshSession({ refresh_token: token })).error;

    test('others: the other devices are signed out, this one stays', async () => {
      const [me, a, b] = await threeDevices();
      expect((await me!.supabase.auth.signOut({ scope: 'others' })).error).toBeNull();
      expect(await refresh(a!.session.refresh_token)).toMatchObject({ code: 'refresh_token_not_found', status: 400 });
      expect(await refresh(b!.session.refresh_token)).toMatchObject({ code: 'refresh_token_not_found' });
      expect((await me!.supabase.auth.getUser()).error).toBeNull();
      expect(me!.events).not.toContain('SIGNED_OUT');
    });

    test('local: only this device is signed out and SIGNED_OUT is emitted', async () => {
      const [me, a] = await threeDevices();
      expect((await me!.supabase.auth.signOut({ scope: 'local' })).error).toBeNull();
      expect(me!.events).toContain('SIGNED_OUT');
      expect((await me!.supabase.auth.getSession()).data.session).toBeNull();
      expect(await refresh(me!.session.refresh_token)).toMatchObject({ code: 'refresh_token_not_found' });
      expect(await refresh(a!.session.refresh_token)).toBeNull();
    });

    test('global: every device is signed out and an old access token no longer finds its session', async () => {
      const [me, a, b] = await threeDevices();
      expect((await me!.supabase.auth.signOut()).error).toBeNull();
      expect(me!.events).toContain('SIGNED_OUT');
      for (const device of [me!, a!, b!])
        expect(await refresh(device.session.refresh_token)).toMatchObject({ code: 'refresh_token_not_found' });
      const stale = await target.client().supabase.auth.getUser(a!.session.access_token);
      // supabase-js turns session_not_found into AuthSessionMissingError.
      expect(stale.error?.name).toBe('AuthSessionMissingError');
      const raw = await fetch(`${target.url}/auth/v1/user`, {
        headers: { apikey: target.anonKey, authorization: `Bearer ${a!.session.access_token}` },
      });
      expect(raw.status).toBe(403);
      expect(raw.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(await raw.json()).toMatchObject({ code: 'session_not_found' });
    });
  });

  test('GET /settings reports e-mail sign-up with autoconfirm on', async () => {
    const res = await fetch(`${target.url}/auth/v1/settings`, { headers: { apikey: target.anonKey } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      external: { email: true },
      disable_signup: false,
      mailer_autoconfirm: true,
    });
  });

  test.skipIf(hosted)('a malformed JSON body is 400 bad_json with the API version header', async () => {
    const res = await fetch(`${target.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await res.json()).toMatchObject({ code: 'bad_json' });
  });
});
