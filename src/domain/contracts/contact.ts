import { z } from 'zod';

export const CONTACT_SUBJECTS = ['general', 'support', 'partnership', 'billing', 'feature', 'other'] as const;

/** POST /api/contact: the contact form, stored for staff. Mirrors the contact_messages table's checks. */
export const postContact = {
  summary: 'Sends a message to Pacta staff (signed in or not)',
  body: z.object({
    name: z.string().trim().min(1).max(120),
    email: z
      .string()
      .trim()
      .max(320)
      .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'must be an e-mail address'),
    subject: z.enum(CONTACT_SUBJECTS),
    message: z.string().trim().min(1).max(10_000),
  }),
  response: { 201: z.object({ id: z.guid() }) },
};
