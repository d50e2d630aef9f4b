import { passwordRefusals } from '../../lib/session/password-refusals.ts';

/** Settings sections: the `section` query parameter, with its accepted aliases. */
export const SETTINGS_SECTIONS = [
  { key: 'account', label: 'Account' },
  { key: 'security', label: 'Security' },
  { key: 'personalisation', label: 'Personalisation' },
  { key: 'notifications', label: 'Notifications' },
  { key: 'pro', label: 'Pro' },
  { key: 'privacy', label: 'Privacy' },
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]['key'];

/** stripe → pro (billing), profile and social → account (where the profile and social links are edited). */
const ALIASES: Record<string, SettingsSection> = { stripe: 'pro', profile: 'account', social: 'account' };

export function normaliseSection(value: string | null): SettingsSection {
  if (!value) return 'account';
  const known = SETTINGS_SECTIONS.find((s) => s.key === value);
  return known ? known.key : (ALIASES[value] ?? 'account');
}

export const PASSWORD_MIN_LENGTH = 8;

/** Settings password change: the current password given; new must equal confirm; at least 8 characters. */
export function passwordChangeError(input: { current: string; password: string; confirm: string }): string | null {
  if (!input.current) return passwordRefusals.currentRequired;
  if (input.password.length < PASSWORD_MIN_LENGTH) return 'Password must be at least 8 characters long';
  if (input.password !== input.confirm) return 'Passwords do not match';
  return null;
}

/** Settings loading retries: 2 s apart, up to 2 times. */
export const SETTINGS_RETRY = { delayMs: 2_000, retries: 2 } as const;
