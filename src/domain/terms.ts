/**
 * The Terms of Service a new account accepts, named by the day they were last updated (the Terms
 * page's "Last updated November 1, 2026"). Sign-up sends it; the database records the acceptance
 * with its own clock (pacta_private.terms_acceptances), never the device's.
 */
export const TERMS_VERSION = '2026-11-01';
