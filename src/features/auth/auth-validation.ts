import { authMessages } from '../../lib/session/auth-messages.ts';
import { SOCIAL_PLATFORMS as PLATFORMS, socialLinkError } from '../../domain/social-links.ts';

export const SOCIAL_PLATFORMS = ['linkedin', 'instagram', 'tiktok', 'youtube', 'twitter'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
export type SocialLinks = Partial<Record<SocialPlatform, string>>;
export type SignUpRole = 'creator' | 'brand';

export const MIN_PASSWORD_LENGTH = 8;

export type SignUpInput = {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: SignUpRole;
  socialLinks: SocialLinks;
  /** The Terms of Service and Privacy Policy were accepted (a box nobody ticks for the user). */
  acceptedTerms: boolean;
};

/** Only the links the user actually typed, trimmed; this is what sign-up stores in the profile. */
export function filledSocialLinks(links: SocialLinks): SocialLinks {
  const out: SocialLinks = {};
  for (const platform of SOCIAL_PLATFORMS) {
    const value = links[platform]?.trim();
    if (value) out[platform] = value;
  }
  return out;
}

/** The two password checks shared by sign-up and reset password (docs/design.md "sign-up"). */
export function validateNewPassword(password: string, confirmPassword: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return authMessages.passwordTooShort;
  if (password !== confirmPassword) return authMessages.passwordsDoNotMatch;
  return null;
}

/**
 * Sign-up rules, first failure wins: required fields, then the password checks (so a user fixes the
 * form top to bottom), then the role's social-link rule.
 */
export function validateSignUp(input: SignUpInput): string | null {
  if (!input.fullName.trim() || !input.email.trim() || !input.password) return authMessages.fillAllFields;
  const passwordProblem = validateNewPassword(input.password, input.confirmPassword);
  if (passwordProblem) return passwordProblem;
  const links = filledSocialLinks(input.socialLinks);
  if (input.role === 'brand' && !links.linkedin) return authMessages.linkedInRequiredForBrands;
  if (input.role === 'creator' && Object.keys(links).length === 0) return authMessages.socialLinkRequiredForCreators;
  for (const { key, label } of PLATFORMS) {
    const problem = links[key] ? socialLinkError(links[key]) : null;
    if (problem) return `${label}: ${problem}`;
  }
  if (!input.acceptedTerms) return authMessages.acceptTerms;
  return null;
}
