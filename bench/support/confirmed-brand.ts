/**
 * A brand account signed up through the public auth API and confirmed from the dev mailbox, as a new
 * user would (the benches run the server with e-mail confirmation on).
 */
export async function createConfirmedBrand(
  origin: string,
  prefix: string,
): Promise<{ email: string; password: string }> {
  const email = `${prefix}-${Date.now().toString(36)}@example.test`;
  const password = 'correct-horse-battery';
  const signUp = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: AUTH_HEADERS,
    body: JSON.stringify({
      email,
      password,
      data: {
        full_name: 'Bench Brand',
        role: 'brand',
        social_links: { linkedin: 'https://linkedin.com/company/bench' },
      },
    }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const mailbox = (await (
    await fetch(`${origin}/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`)
  ).json()) as {
    messages: { kind: string; action_link: string }[];
  };
  const link = mailbox.messages.find((m) => m.kind === 'signup')?.action_link;
  if (!link) throw new Error('no confirmation e-mail in the dev mailbox');
  await fetch(link, { redirect: 'manual' });
  return { email, password };
}

/** The local auth accepts any apikey; supabase-js always sends one. */
export const AUTH_HEADERS = { 'content-type': 'application/json', apikey: 'pacta-local-anon-key' } as const;
