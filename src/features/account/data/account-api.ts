import {
  getAccountDeletion,
  getAccountExport,
  postAccountDeletion,
  postReport,
  type AccountDeletionCheck,
  type ReportBody,
} from '../../../domain/contracts/account.ts';
import { errorBody, errorText, type ErrorCode } from '../../../domain/contracts/errors.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { sessionRetryFetch } from '../../../lib/session/session.ts';

/** A refusal of an account call, with the server's code and words. */
export class AccountApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'offline' | 'network' | 'error',
    message: string,
    /** On a refused deletion: everything that stops it. */
    readonly blockers: string[] = [],
  ) {
    super(message);
  }
}

export const OFFLINE_TEXT = 'You are offline: this needs a connection.';

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) throw new AccountApiError('offline', OFFLINE_TEXT);
  let response: Response;
  try {
    response = await sessionRetryFetch(`${syncServerUrl()}${path}`, {
      method,
      cache: 'no-store',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new AccountApiError('network', 'Pacta could not be reached. Check your connection and try again.');
  }
  const json: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const refusal = errorBody.safeParse(json);
    if (!refusal.success) throw new AccountApiError('error', 'Something went wrong. Please try again.');
    const blockers = Array.isArray(refusal.data.blockers) ? refusal.data.blockers.map(String) : [];
    throw new AccountApiError(refusal.data.code, refusal.data.message || errorText(refusal.data.code), blockers);
  }
  return json;
}

/** The signed-in user's data as the server exports it, saved as a JSON file by the browser. */
export async function downloadMyData(): Promise<void> {
  const data = getAccountExport.response[200].parse(await call('GET', '/api/account/export'));
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `pacta-data-${data.exported_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export async function checkAccountDeletion(): Promise<AccountDeletionCheck> {
  return getAccountDeletion.response[200].parse(await call('GET', '/api/account/deletion'));
}

export async function deleteMyAccount(confirmation: string, password: string | undefined): Promise<void> {
  postAccountDeletion.response[200].parse(
    await call('POST', '/api/account/delete', { confirmation, ...(password ? { password } : {}) }),
  );
}

export async function sendReport(report: ReportBody): Promise<void> {
  postReport.response[202].parse(await call('POST', '/api/reports', report));
}
