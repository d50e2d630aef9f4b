/** The contact form's fields and rules (name, email (email format), subject, message required). */
export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General Inquiry' },
  { value: 'support', label: 'Technical Support' },
  { value: 'partnership', label: 'Partnership' },
  { value: 'billing', label: 'Billing' },
  { value: 'feature', label: 'Feature Request' },
  { value: 'other', label: 'Other' },
] as const;

export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]['value'];
export type ContactMessage = { name: string; email: string; subject: ContactSubject; message: string };
export type ContactDraft = { name: string; email: string; subject: string; message: string };
export type ContactErrors = Partial<Record<keyof ContactDraft, string>>;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Field limits match the contact_messages table's checks, so a valid form is never refused for size. */
export const CONTACT_LIMITS = { name: 120, message: 10_000 } as const;

export function validateContact(
  draft: ContactDraft,
): { ok: true; value: ContactMessage } | { ok: false; errors: ContactErrors } {
  const errors: ContactErrors = {};
  const name = draft.name.trim();
  const email = draft.email.trim();
  const message = draft.message.trim();
  if (!name) errors.name = 'Please enter your name.';
  else if (name.length > CONTACT_LIMITS.name)
    errors.name = `Please keep your name under ${CONTACT_LIMITS.name} characters.`;
  if (!email) errors.email = 'Please enter your email address.';
  else if (!EMAIL.test(email)) errors.email = 'Please enter a valid email address.';
  const subject = CONTACT_SUBJECTS.find((s) => s.value === draft.subject)?.value;
  if (!subject) errors.subject = 'Please choose a subject.';
  if (!message) errors.message = 'Please enter a message.';
  else if (message.length > CONTACT_LIMITS.message)
    errors.message = `Please keep your message under ${CONTACT_LIMITS.message.toLocaleString('en-US')} characters.`;
  if (Object.keys(errors).length > 0 || !subject) return { ok: false, errors };
  return { ok: true, value: { name, email, subject, message } };
}
