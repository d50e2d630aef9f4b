import { z } from 'zod';

/**
 * Every error code the server answers with, its HTTP status and the words a user sees for it. The
 * server's `HttpError` takes only a code of this table with its status (a typecheck fails on any
 * other), and the client shows a refusal's text from here when the body brings none.
 *
 * A code may carry a more precise sentence in its body (`message`, e.g. "Push at most 500 rows per
 * request"); `text` is what the code means to the person at the screen. The local auth's codes are
 * Supabase Auth's (GoTrue's), so `@supabase/supabase-js` reads them as it reads a hosted project's;
 * two of them answer 401 on Pacta's own routes and 403 on the auth's, as GoTrue does.
 */
export const ERRORS = {
  // Requests the server cannot read
  bad_request: { status: 400, text: 'Invalid request. Please check your input.' },
  bad_json: { status: 400, text: 'Invalid request. Please check your input.' },
  invalid_input: { status: 400, text: 'Some of the text contains characters Pacta cannot store.' },
  validation_failed: { status: 400, text: 'Invalid request. Please check your input.' },
  invalid_request: { status: 400, text: 'Invalid request. Please check your input.' },
  invalid_deal_id: { status: 400, text: 'The deal id must be a UUID.' },
  invalid_period: { status: 400, text: 'Pick a period: this week, this month or all time.' },
  invalid_query: { status: 400, text: 'Invalid request. Please check your input.' },
  invalid_reason: { status: 400, text: 'Describe the problem in 10 to 2,000 characters.' },
  invalid_refund: { status: 400, text: 'The refund must be between $0 and the deal amount.' },
  invalid_signature: { status: 400, text: 'The Stripe signature of this webhook is not valid.' },
  payload_too_large: { status: 413, text: 'That is too much to send at once.' },
  url_too_long: { status: 414, text: 'The request address is too long.' },
  unsupported_media_type: { status: 415, text: 'Invalid request. Please check your input.' },
  not_found: { status: 404, text: 'Resource not found.' },

  // Who is asking
  no_authorization: { status: 401, text: 'Session expired. Please sign in again.' },
  bad_jwt: { status: [401, 403], text: 'Session expired. Please sign in again.' },
  session_not_found: { status: [401, 403], text: 'Session expired. Please sign in again.' },
  user_not_found: { status: 403, text: 'Session expired. Please sign in again.' },
  forbidden: { status: 403, text: 'Access denied. You do not have permission for this action.' },
  admin_only: { status: 403, text: 'Only Pacta staff can do this.' },
  creators_only: { status: 403, text: 'Only creators set up payouts.' },
  not_yourself: { status: 403, text: 'You can only upgrade your own account.' },
  not_deal_owner: { status: 403, text: "Only the deal's brand can do this." },
  not_a_participant: { status: 403, text: 'Only the brand and the creator of a deal can do this.' },
  out_of_scope: { status: 403, text: 'You cannot change this.' },
  read_only_collection: { status: 403, text: 'This is written by Pacta only.' },

  // The local auth (GoTrue's codes)
  invalid_credentials: { status: 400, text: 'Sign in failed. Please check your credentials and try again.' },
  email_not_confirmed: { status: 400, text: 'Please verify your email before signing in' },
  user_banned: { status: 400, text: 'This account is suspended.' },
  user_already_exists: { status: 422, text: 'An account with this email already exists.' },
  weak_password: { status: 422, text: 'This password is too weak. Please choose a different one.' },
  same_password: { status: 422, text: 'The new password must be different from the old one.' },
  current_password_required: { status: 400, text: 'Please enter your current password' },
  current_password_invalid: { status: 400, text: 'Your current password is incorrect' },
  refresh_token_not_found: { status: 400, text: 'Session expired. Please sign in again.' },
  refresh_token_already_used: { status: 400, text: 'Session expired. Please sign in again.' },
  session_expired: { status: 400, text: 'Session expired. Please sign in again.' },
  otp_expired: { status: 403, text: 'This link has expired or was already used. Ask for a new one.' },
  over_request_rate_limit: { status: 429, text: 'Too many attempts. Please wait a few minutes and try again.' },
  over_email_send_rate_limit: { status: 429, text: 'An email was sent a moment ago. Please wait before asking again.' },

  // Limits
  contact_rate_limited: {
    status: 429,
    text: 'You have sent several messages in a short time. Please wait an hour before sending another.',
  },
  too_many_rows: { status: 413, text: 'Too many changes at once.' },
  too_many_streams: { status: 429, text: 'Too many live connections. Close another tab or device, then try again.' },
  push_endpoint_not_https: { status: 400, text: 'This browser cannot receive notifications from Pacta.' },
  push_endpoint_invalid: { status: 400, text: 'This browser cannot receive notifications from Pacta.' },
  push_endpoint_not_public: { status: 400, text: 'This browser cannot receive notifications from Pacta.' },
  push_endpoint_not_found: { status: 400, text: 'This browser cannot receive notifications from Pacta.' },

  // Sync
  client_too_old: { status: 426, text: 'This version of Pacta is out of date. Reload the app to update it.' },
  unknown_collection: { status: 404, text: 'Resource not found.' },
  bad_checkpoint: { status: 400, text: 'Invalid request. Please check your input.' },
  server_owned_field: { status: 400, text: 'Pacta sets this field itself.' },

  // Deals and money
  deal_not_found: { status: 404, text: 'Deal not found.' },
  profile_not_found: { status: 404, text: 'Profile not found.' },
  payments_unavailable: { status: 503, text: 'Payments are not available right now.' },
  already_subscribed: {
    status: 409,
    text: 'You already have a Pro subscription: use Manage subscription to change it.',
  },
  no_subscription: { status: 409, text: 'You have no subscription to manage yet.' },
  checkout_failed: { status: 502, text: 'Failed to start checkout. Please try again.' },
  portal_failed: { status: 502, text: 'Failed to open the billing portal. Please try again.' },
  onboarding_failed: { status: 502, text: 'Failed to start payout setup. Please try again.' },
  payout_failed: { status: 502, text: 'The payout could not be sent. Please try again.' },
  refund_failed: { status: 502, text: 'The refund could not be sent. Please try again.' },
  deal_closed: { status: 409, text: 'This deal is cancelled.' },
  already_funded: { status: 409, text: 'This deal is already funded.' },
  no_creator_accepted: { status: 409, text: 'Accept a creator before funding the deal.' },
  payment_in_progress: {
    status: 409,
    text: 'A payment for this deal has just gone through and is being confirmed. Reload in a moment.',
  },
  no_open_checkout: { status: 409, text: 'This deal has no open checkout.' },
  deal_not_completed: { status: 409, text: 'The deal is not completed yet.' },
  not_funded: { status: 409, text: 'The brand has not funded this deal yet.' },
  deal_disputed: { status: 409, text: 'This deal is disputed: Pacta staff will resolve it.' },
  already_refunded: { status: 409, text: 'This deal was refunded to the brand.' },
  already_released: { status: 409, text: 'The payout was already released.' },
  already_disputed: { status: 409, text: 'This deal is already disputed.' },
  no_creator: { status: 409, text: 'This deal has no creator to pay.' },
  payouts_not_set_up: { status: 409, text: 'The creator has not set up payouts yet.' },
  no_cancel_request: { status: 409, text: 'The brand has not asked to cancel this deal.' },
  consent_not_needed: { status: 409, text: 'Only a funded deal in progress needs the creator to agree.' },
  dispute_window_closed: { status: 409, text: 'The time to open a dispute has passed.' },
  not_disputed: { status: 409, text: 'This deal has no open dispute.' },
  amount_mismatch: { status: 409, text: "The escrow does not hold the creators' agreed prices: contact Pacta staff." },
  submission_required: { status: 400, text: 'Choose the deliverable and the submission the dispute is about.' },
  submission_not_found: { status: 404, text: 'That submission is not part of this deal.' },
  invalid_token: { status: 400, text: 'This link is not valid.' },
  invalid_search: { status: 400, text: 'This search cannot be run. Check the words and filters.' },
  search_rate_limited: { status: 429, text: 'Too many searches in a minute. Wait a moment and try again.' },
  kept_deals_full: {
    status: 409,
    text: 'Your devices keep as many deals opened from search as they can. This deal opens while you are online.',
  },
  // Account tools
  money_in_escrow: {
    status: 409,
    text: 'A deal of yours holds money in escrow. Your account can be deleted once it is released or refunded.',
  },
  checkout_open: { status: 409, text: 'A payment for a deal of yours is open. Finish or cancel it first.' },
  deal_in_progress: { status: 409, text: 'A deal of yours is in progress. Complete or cancel it first.' },
  subscription_active: { status: 409, text: 'Your Pro subscription is active. Cancel it in Settings → Pro first.' },
  staff_account: { status: 409, text: 'Staff accounts are removed by an operator.' },
  confirmation_required: { status: 400, text: 'Type DELETE to confirm.' },
  account_delete_rate_limited: {
    status: 429,
    text: 'Too many attempts to delete this account. Please wait an hour and try again.',
  },
  export_rate_limited: { status: 429, text: 'You have exported your data several times this hour. Try again later.' },
  report_rate_limited: { status: 429, text: 'You have sent several reports in a short time. Please wait an hour.' },
  blocked: { status: 403, text: 'You cannot message this person.' },
  account_deleted: { status: 409, text: 'This account was deleted.' },
  card_dispute_open: {
    status: 409,
    text: "The brand's bank is handling a card dispute: Stripe settles it, not Pacta.",
  },

  // The server itself
  internal_error: { status: 500, text: 'Server error. Please try again later.' },
  database_unavailable: { status: 503, text: 'Pacta is briefly unavailable. Please try again in a moment.' },
} as const satisfies Record<string, { status: number | readonly number[]; text: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The HTTP status (or statuses) a code is answered with. */
export type ErrorStatus<C extends ErrorCode> = C extends ErrorCode
  ? (typeof ERRORS)[C]['status'] extends readonly (infer S)[]
    ? S
    : (typeof ERRORS)[C]['status']
  : never;

export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** Every refusal's body: `{ code, message }`, and for some a field more (`issues`, `minimum`, `detail`). */
export const errorBody = z.looseObject({ code: z.enum(ERROR_CODES), message: z.string() });
export type ErrorBody = z.infer<typeof errorBody>;

/** Whether a code the client received is one of the table's (a stranger is shown by its status). */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERRORS, code);

/** The words a user sees for a code. */
export const errorText = (code: ErrorCode): string => ERRORS[code].text;
