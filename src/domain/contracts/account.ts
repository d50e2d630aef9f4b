import { z } from 'zod';

/** The account tools under /api: export my data, delete my account, report a person or a deal. */

/** A stored row as the export gives it: its columns by name (the table's own shape). */
const row = z.record(z.string(), z.unknown());

export const getAccountExport = {
  summary: 'Everything the signed-in user owns or is a party to, as one JSON document',
  response: {
    200: z.object({
      format: z.literal('pacta-export/1'),
      exported_at: z.string(),
      account: z.object({ id: z.guid(), email: z.string().nullable(), created_at: z.string().nullable() }),
      profile: row.nullable(),
      deals: z.array(row),
      applications: z.array(row),
      deal_events: z.array(row),
      conversations: z.array(row),
      messages: z.array(row),
      reviews: z.array(row),
      support_tickets: z.array(row),
      support_messages: z.array(row),
      saved_lists: z.array(row),
      drafts: z.array(row),
      notifications: z.array(row),
      payments: z.object({ escrows: z.array(row), ledger: z.array(row) }),
      files: z.array(
        z.object({
          bucket: z.string(),
          name: z.string(),
          size: z.number().nullable(),
          content_type: z.string().nullable(),
          created_at: z.string().nullable(),
        }),
      ),
    }),
  },
};
export type AccountExport = z.infer<(typeof getAccountExport.response)[200]>;

/**
 * What stops an account from being deleted now (the server decides; the app shows why first).
 * Each is also the refusal's code.
 */
export const DELETION_BLOCKERS = [
  'money_in_escrow',
  'checkout_open',
  'deal_in_progress',
  'subscription_active',
  'staff_account',
] as const;
export type DeletionBlocker = (typeof DELETION_BLOCKERS)[number];

/** What the person types to confirm: a deletion cannot be undone. */
export const DELETION_CONFIRMATION = 'DELETE';

export const getAccountDeletion = {
  summary: 'Whether the signed-in account may be deleted now, and if not, why',
  response: {
    200: z.object({ blockers: z.array(z.enum(DELETION_BLOCKERS)), needs_password: z.boolean() }),
  },
};
export type AccountDeletionCheck = z.infer<(typeof getAccountDeletion.response)[200]>;

export const postAccountDeletion = {
  summary: 'Deletes the signed-in account (refused while money is held or a deal is in progress)',
  body: z.object({
    confirmation: z.string().max(20),
    password: z.string().max(200).optional(),
  }),
  response: { 200: z.object({ deleted: z.literal(true) }) },
};

export const REPORT_REASONS = ['spam', 'scam', 'harassment', 'inappropriate', 'impersonation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_TEXT: Record<ReportReason, string> = {
  spam: 'Spam',
  scam: 'Scam or fraud',
  harassment: 'Harassment or abuse',
  inappropriate: 'Inappropriate content',
  impersonation: 'Pretending to be someone else',
  other: 'Something else',
};
export const REPORT_DETAILS_MAX = 2000;

export const postReport = {
  summary: 'Reports a person or a deal to Pacta staff (the same answer whether it exists or not)',
  body: z.object({
    target: z.enum(['user', 'deal']),
    target_id: z.guid(),
    reason: z.enum(REPORT_REASONS),
    details: z.string().trim().max(REPORT_DETAILS_MAX).default(''),
  }),
  response: { 202: z.object({ received: z.literal(true) }) },
};
export type ReportBody = z.input<typeof postReport.body>;
