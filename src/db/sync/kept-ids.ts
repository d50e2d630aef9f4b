import type { BrowserPort } from './browser-port.ts';

/**
 * The ids of documents the leader tab keeps track of across reloads, in localStorage:
 * `pending`, local changes waiting for the server; `refused`, documents kept with a refusal.
 */
export type KeptIds = 'pending' | 'refused';

const storageKey = (userId: string, what: KeptIds) => `pacta.${what}.${userId.toLowerCase()}`;

export function readKeptIds(storage: ReturnType<BrowserPort['storage']>, userId: string, what: KeptIds): string[] {
  try {
    const raw = storage?.getItem(storageKey(userId, what));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function writeKeptIds(
  storage: ReturnType<BrowserPort['storage']>,
  userId: string,
  what: KeptIds,
  ids: string[],
): void {
  try {
    if (ids.length) storage?.setItem(storageKey(userId, what), JSON.stringify(ids));
    else storage?.removeItem(storageKey(userId, what));
  } catch {
    // Storage full or blocked: the in-memory count still works for this visit.
  }
}
