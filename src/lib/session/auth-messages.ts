import { MESSAGES, STATUS_MESSAGES } from '../errors.ts';

/**
 * Texts of the accounts and sessions screens, word for word from the product spec (sections 2, 4, 5
 * and 8). Catalogue messages come from `src/lib/errors.ts` so each text exists once.
 */
export const authMessages = {
  fillAllFields: 'Please fill in all fields',
  acceptTerms: 'Please accept the Terms of Service and the Privacy Policy to create an account.',
  linkedInRequiredForBrands: 'LinkedIn is required for brand accounts',
  socialLinkRequiredForCreators: 'At least one social link is required for creators',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordsDoNotMatch: 'Passwords do not match',
  signUpFailed: MESSAGES.signUpFailed,
  signInFailed: MESSAGES.signInFailed,
  sessionNotCreated: MESSAGES.failedToCreateSession,
  verifyEmailFirst: MESSAGES.verifyEmailFirst,
  verificationEmailSent: 'Verification email sent. Please check your inbox.',
  resetInstructionsSent: 'Password reset instructions have been sent to your email',
  passwordUpdated: 'Password updated successfully',
  passwordChangedSignIn: 'Your password was changed. Sign in with your new password.',
  sessionExpiredRestore: MESSAGES.sessionExpiredRestore,
  sessionExpired: STATUS_MESSAGES.sessionExpired,
  profileFetchTimedOut: MESSAGES.profileFetchTimedOut,
  noValidSession: MESSAGES.noValidSession,
  invalidSession: MESSAGES.invalidSession,
  takingLonger: 'Taking longer than expected...',
  maxRetriesReached: 'Max Retries Reached',
  /** Not in the spec: sign-up with e-mail confirmation on needs to say what happens next. */
  checkEmailToConfirm: 'Account created! Please check your email to confirm your account, then sign in.',
  /** Not in the spec: the network is down while signing in or signing up. */
  offline: 'You are offline. Please check your connection and try again.',
} as const;

/** The session-error dialog allows this many retries ("Retry attempt: n/2"). */
export const MAX_SESSION_RETRIES = 2;
