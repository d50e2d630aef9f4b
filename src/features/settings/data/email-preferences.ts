import { getEmailPreferences, type EmailPreference } from '../../../domain/contracts/email.ts';
import type { DealEmailKind } from '../../../domain/deal-emails.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

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
  // The server's contract: an answer that drifted from it is a clear failure here, not a wrong switch.
  return getEmailPreferences.response[200].parse(await call('GET')).emails;
}

export async function setEmailPreference(kind: DealEmailKind, enabled: boolean): Promise<void> {
  await call('PUT', { kind, enabled });
}
