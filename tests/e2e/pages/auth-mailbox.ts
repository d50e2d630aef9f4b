import { expect, type APIRequestContext } from '@playwright/test';

export type MailboxMessage = {
  id: string;
  to: string;
  kind: string;
  subject: string;
  action_link: string;
  text: string;
  html: string;
  created_at: string;
};

/** A fresh, unique address per test run, so tests never share an account. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The newest auth e-mail of `kind` sent to `email`, read from the local server's dev mailbox (polled until it arrives). */
export async function latestEmail(
  request: APIRequestContext,
  email: string,
  kind: 'signup' | 'recovery',
): Promise<MailboxMessage> {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`);
        expect(response.ok()).toBe(true);
        const { messages } = (await response.json()) as { messages: MailboxMessage[] };
        found = messages.find((m) => m.kind === kind);
        return !!found;
      },
      { message: `a ${kind} e-mail to ${email}`, timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/**
 * A confirmed account made through the public API (sign-up, then the link in the e-mail), for tests
 * whose subject is not sign-up itself.
 */
export async function createConfirmedAccount(
  request: APIRequestContext,
  opts: { role: 'creator' | 'brand'; password?: string; fullName?: string },
): Promise<{ email: string; password: string; fullName: string }> {
  const email = uniqueEmail(opts.role);
  const password = opts.password ?? 'correct-horse-battery';
  const fullName = opts.fullName ?? `E2E ${opts.role}`;
  const socialLinks =
    opts.role === 'brand'
      ? { linkedin: 'https://linkedin.com/company/e2e' }
      : { instagram: 'https://instagram.com/e2e' };
  const signUp = await request.post('/auth/v1/signup', {
    headers: { apikey: 'pacta-local-anon-key' },
    data: { email, password, data: { full_name: fullName, role: opts.role, social_links: socialLinks } },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const mail = await latestEmail(request, email, 'signup');
  // Following the link verifies the address; the redirect into the app is not needed here.
  const verify = await request.get(mail.action_link, { maxRedirects: 0 });
  expect(verify.status()).toBe(303);
  expect(verify.headers()['location']).toContain('access_token=');
  return { email, password, fullName };
}

/** An account that signed up but never followed the confirmation link. */
export async function createUnconfirmedAccount(
  request: APIRequestContext,
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('unconfirmed');
  const password = 'correct-horse-battery';
  const signUp = await request.post('/auth/v1/signup', {
    headers: { apikey: 'pacta-local-anon-key' },
    data: {
      email,
      password,
      data: { full_name: 'Unconfirmed User', role: 'creator', social_links: { instagram: 'https://instagram.com/u' } },
    },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  return { email, password };
}
