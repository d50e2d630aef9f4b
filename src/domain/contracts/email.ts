import { z } from 'zod';
import { DEAL_EMAIL_KINDS } from '../deal-emails.ts';

/**
 * The deal e-mails a signed-in user may turn off one by one. (The unsubscribe link's routes answer an
 * HTML page, not JSON, and are not part of this contract.)
 */

const emailKind = z.enum(DEAL_EMAIL_KINDS);

export const getEmailPreferences = {
  summary: 'Each kind of deal e-mail, its label and whether the signed-in user gets it',
  response: {
    200: z.object({ emails: z.array(z.object({ kind: emailKind, label: z.string(), enabled: z.boolean() })) }),
  },
};
export type EmailPreference = z.infer<(typeof getEmailPreferences.response)[200]>['emails'][number];

export const putEmailPreference = {
  summary: 'Turns one kind of deal e-mail on or off for the signed-in user',
  body: z.object({ kind: emailKind, enabled: z.boolean() }),
  response: { 200: z.object({ kind: emailKind, enabled: z.boolean() }) },
};
