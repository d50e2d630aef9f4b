import { useEffect, useState, useSyncExternalStore } from 'react';
import { onSessionManager } from './session-events.ts';
import type { SessionManager } from './session-manager.ts';
import type { SessionState } from './session-types.ts';

const noop = () => () => {};
const none = () => null;

/**
 * The session manager and its state once something created it (null before). Does not load
 * supabase-js itself, so the shell can use it on every page, the landing page included.
 */
export function useAnnouncedSession(): { manager: SessionManager | null; state: SessionState | null } {
  const [manager, setManager] = useState<SessionManager | null>(null);
  useEffect(() => onSessionManager(setManager), []);
  const state = useSyncExternalStore(manager ? manager.subscribe : noop, manager ? manager.getState : none);
  return { manager, state };
}
