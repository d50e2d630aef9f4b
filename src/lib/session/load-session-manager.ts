import { importOrReload } from '../code-reload.ts';
import type { SessionManager } from './session-manager.ts';

/**
 * Loads the session module (and supabase-js) on demand and returns the started manager. Kept apart
 * from session-events.ts, which session.ts itself imports, so the two never import each other. A failed
 * load reloads the page once (code-reload.ts).
 */
export function loadSessionManager(): Promise<SessionManager> {
  return importOrReload(() => import('./session.ts')).then((m) => m.getSessionManager());
}
