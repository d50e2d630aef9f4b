import { randomUUID } from 'node:crypto';

/**
 * The answer to a sign-up (confirmation on) of an address that already has an account: the body a
 * brand-new pending user gets (`userJson` of the row just inserted), built from the request alone with
 * a random id, so the caller cannot tell a taken address from a free one. GoTrue answers with a
 * sanitized user too, but with `identities: []`, which supabase-js users read as "already
 * registered"; this one has the identity a new user has.
 */
export function pendingUserLookAlike(email: string, data: Record<string, unknown>): Record<string, unknown> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const identityData = { sub: id, email, email_verified: false, phone_verified: false };
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: now,
    // The role the database gives a new account (a creator or a brand as asked, else a creator) and
    // copies into app_metadata; keys in the order Postgres returns that jsonb (shortest first).
    app_metadata: { role: signUpRole(data.role), provider: 'email', providers: ['email'] },
    user_metadata: { ...data, ...identityData },
    identities: [
      {
        identity_id: randomUUID(),
        id,
        user_id: id,
        identity_data: identityData,
        provider: 'email',
        created_at: now,
        updated_at: now,
        email,
      },
    ],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/** The role `public.handle_new_user` gives an account signed up with this `role` in its metadata. */
function signUpRole(asked: unknown): 'creator' | 'brand' {
  return asked === 'brand' ? 'brand' : 'creator';
}
