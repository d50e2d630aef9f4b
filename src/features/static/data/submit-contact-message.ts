import { SUPPORT_EMAIL } from '../../../lib/config.ts';
import { errorMessage } from '../../../lib/errors.ts';
import type { ContactMessage } from '../contact/contact-validation.ts';

export type ContactResult = { ok: true } | { ok: false; message: string };

export const CONTACT_UNAVAILABLE_MESSAGE = `Your message could not be sent right now. Please email us at ${SUPPORT_EMAIL}.`;
export const CONTACT_OFFLINE_MESSAGE =
  "You are offline, so your message was not sent. Please try again when you're back online.";

/**
 * Sends the contact form to the server, which stores it for staff (table contact_messages).
 * Online only: a contact message is not worth queueing for later without telling the sender.
 * Never throws: failures come back as the message to show.
 */
export async function submitContactMessage(
  message: ContactMessage,
  opts: { accessToken?: string } = {},
): Promise<ContactResult> {
  if (!navigator.onLine) return { ok: false, message: CONTACT_OFFLINE_MESSAGE };
  try {
    const response = await fetch('/api/contact', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(opts.accessToken ? { authorization: `Bearer ${opts.accessToken}` } : {}),
      },
      body: JSON.stringify(message),
    });
    if (response.ok) return { ok: true };
    // No contact endpoint on this server (or not yet): say where to write instead of "Resource not found."
    if (response.status === 404 || response.status === 405) return { ok: false, message: CONTACT_UNAVAILABLE_MESSAGE };
    const body = (await response.json().catch(() => ({}))) as { message?: unknown };
    // A 4xx with the server's own explanation is more useful than the generic catalogue text.
    if (
      response.status >= 400 &&
      response.status < 500 &&
      response.status !== 401 &&
      typeof body.message === 'string'
    ) {
      return { ok: false, message: body.message };
    }
    return { ok: false, message: errorMessage({ status: response.status }) };
  } catch {
    return { ok: false, message: 'Your message could not be sent. Please check your connection and try again.' };
  }
}
