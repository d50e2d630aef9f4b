import { useSyncExternalStore } from 'react';
import { getSessionManager } from '../../lib/session/session.ts';
import type { SessionState } from '../../lib/session/session-types.ts';

/** The session state for auth screens (they load supabase-js anyway, so they may create the manager). */
export function useSessionState(): SessionState {
  const manager = getSessionManager();
  return useSyncExternalStore(manager.subscribe, manager.getState);
}
