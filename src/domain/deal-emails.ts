/**
 * The e-mails for what waits on someone, one kind each; a user opts out per kind (Settings →
 * Notifications, or the one-click link in the e-mail), stored as `profiles.email_opt_out`.
 */
export const DEAL_EMAIL_KINDS = [
  'offer',
  'terms_proposed',
  'draft_to_review',
  'changes_requested',
  'payout_released',
] as const;
export type DealEmailKind = (typeof DEAL_EMAIL_KINDS)[number];

/** What Settings shows beside each kind's switch. */
export const DEAL_EMAIL_LABELS: Record<DealEmailKind, string> = {
  offer: 'An offer waits for your answer',
  terms_proposed: 'New terms wait for your answer',
  draft_to_review: 'A draft waits for your review',
  changes_requested: 'Changes are requested on your draft',
  payout_released: 'A payout is released',
};
