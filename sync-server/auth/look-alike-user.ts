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
    app_metadata: { provider: 'email', providers: ['email'] },
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
