import { useState } from 'react';

/**
 * A form's validation messages, shown after a failed submit and only while the input still fails
 * the same way: "errors clear as soon as the field is fixed". A message for a different problem
 * waits for the next submit instead of replacing the one the user is fixing.
 */
export function stillFailing(reported: string | null, current: string | null): string | null {
  return reported !== null && current === reported ? reported : null;
}

/** Per-field messages (field → message): each clears on its own once its field is fixed. */
export function stillFailingFields<K extends string>(
  reported: Partial<Record<K, string>>,
  current: Partial<Record<K, string>>,
): Partial<Record<K, string>> {
  const shown: Partial<Record<K, string>> = {};
  for (const key of Object.keys(reported) as K[]) {
    if (reported[key] && current[key] === reported[key]) shown[key] = reported[key];
  }
  return shown;
}

/** One message for the whole form; `check` re-runs the form's own validation on the current input. */
export function useFixableError<T>(input: T, check: (input: T) => string | null) {
  const [reported, report] = useState<string | null>(null);
  const error = reported === null ? null : stillFailing(reported, check(input));
  return [error, report] as const;
}

/** Messages per field; `check` re-runs the form's own validation on the current input. */
export function useFixableFieldErrors<T, K extends string>(input: T, check: (input: T) => Partial<Record<K, string>>) {
  const [reported, report] = useState<Partial<Record<K, string>>>({});
  const errors = Object.keys(reported).length === 0 ? reported : stillFailingFields(reported, check(input));
  return [errors, report] as const;
}
