import { z } from 'zod';
import { DEAL_EMAIL_KINDS, type DealEmailKind } from '../../domain/deal-emails.ts';
import { syncServerUrl } from '../../lib/config.ts';
import { sessionRetryFetch } from '../../lib/session/session.ts';

/** The e-mails a user may turn off one by one (GET /api/email/preferences), as the server answers. */
const preferences = z.object({
  emails: z.array(z.object({ kind: z.enum(DEAL_EMAIL_KINDS), label: z.string(), enabled: z.boolean() })),
});
export type EmailPreference = z.infer<typeof preferences>['emails'][number];

const FAILED = 'Pacta could not be reached. Check your connection and try again.';

async function call(method: 'GET' | 'PUT', body?: unknown): Promise<unknown> {
  if (!navigator.onLine) throw new Error('You are offline: e-mail settings need a connection.');
  let response: Response;
  try {
    response = await sessionRetryFetch(`${syncServerUrl()}/api/email/preferences`, {
      method,
      cache: 'no-store',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error(FAILED);
  }
  const json = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(json.message ?? 'Failed to update settings. Please try again.');
  return json;
}

export async function emailPreferences(): Promise<EmailPreference[]> {
  return preferences.parse(await call('GET')).emails;
}

export async function setEmailPreference(kind: DealEmailKind, enabled: boolean): Promise<void> {
  await call('PUT', { kind, enabled });
}
