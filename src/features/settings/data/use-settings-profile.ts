import { useEffect, useState } from 'react';
import { useLocalData } from '../../../db/hooks/use-database.ts';
import { useMyProfile } from '../../../db/hooks/use-my-profile.ts';
import type { ProfileDocument } from '../../../domain/collections/index.ts';
import { MESSAGES, settingsLoadError } from '../../../lib/errors.ts';
import { SETTINGS_RETRY } from '../settings-sections.ts';

export type SettingsProfile =
  | { state: 'loading'; attempt: number }
  | { state: 'ready'; profile: ProfileDocument }
  | { state: 'error'; message: string; retry(): void };

/**
 * The profile Settings edits, from the local database. While it is not there yet (a first sync still
 * running) loading retries automatically up to 2 times, 2 seconds apart, then shows
 * 'Failed to load settings: {reason}' with Try Again.
 */
export function useSettingsProfile(): SettingsProfile {
  const local = useLocalData();
  const [round, setRound] = useState(0);
  const profile = useMyProfile();
  const [attempt, setAttempt] = useState(0);
  const missing = local.status === 'ready' && !profile.loading && !profile.error && profile.data === null;

  useEffect(() => {
    if (!missing || attempt >= SETTINGS_RETRY.retries) return;
    const timer = setTimeout(() => setAttempt((n) => n + 1), SETTINGS_RETRY.delayMs);
    return () => clearTimeout(timer);
  }, [missing, attempt, round]);

  const retry = () => {
    setAttempt(0);
    setRound((n) => n + 1);
    if (local.status === 'error') local.retry();
  };
  if (local.status === 'error')
    return { state: 'error', message: settingsLoadError(local.error ?? MESSAGES.profileCouldNotLoad), retry };
  if (profile.error) return { state: 'error', message: settingsLoadError(profile.error.message), retry };
  if (profile.data) return { state: 'ready', profile: profile.data };
  if (missing && attempt >= SETTINGS_RETRY.retries)
    return { state: 'error', message: settingsLoadError(MESSAGES.profileNotFound), retry };
  return { state: 'loading', attempt };
}
