import type { SessionManager } from './session-manager.ts';

/**
 * A dependency-free meeting point (type-only imports): the always-loaded auth provider learns about
 * the session manager when it is first created, without loading supabase-js for signed-out visitors.
 */
let created: SessionManager | undefined;
const listeners = new Set<(manager: SessionManager) => void>();

export function announceSessionManager(manager: SessionManager): void {
  created = manager;
  for (const listener of listeners) listener(manager);
  listeners.clear();
}

/** Calls `listener` once the manager exists (immediately if it already does). */
export function onSessionManager(listener: (manager: SessionManager) => void): () => void {
  if (created) {
    listener(created);
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
