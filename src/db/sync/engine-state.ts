/**
 * The lifecycle of the signed-in user's local database in this tab, as one small state machine:
 *
 *   closed → opening → ready (leader or follower) → closing → closed
 *                               └──────────────→ deleting → closed
 *
 * - `opening`: the database is being created (a previous one finishes closing first).
 * - `ready`: screens read it. A leader tab replicates; a follower shows the leader's status.
 * - `closing`: the session ended without a sign-out (unsynced changes go out after the next sign-in).
 * - `deleting`: the user signed out on purpose: nothing of theirs stays on the device.
 *
 * Only the sync engine (sync-engine.ts) moves it; React and the session subscribe to it.
 */
export type EnginePhase =
  | { phase: 'closed' }
  | { phase: 'opening'; userId: string }
  | { phase: 'ready'; userId: string; role: 'leader' | 'follower' }
  | { phase: 'closing'; userId: string }
  | { phase: 'deleting'; userId: string };

export type EngineEvent =
  | { type: 'open'; userId: string }
  | { type: 'opened'; userId: string }
  | { type: 'open_failed'; userId: string }
  | { type: 'elected'; userId: string }
  | { type: 'yielded'; userId: string }
  | { type: 'close'; userId: string }
  | { type: 'delete'; userId: string }
  | { type: 'closed'; userId: string };

export const CLOSED: EnginePhase = { phase: 'closed' };

const userOf = (state: EnginePhase): string | undefined => (state.phase === 'closed' ? undefined : state.userId);

/**
 * The next phase after `event`. Events about another user than the current one are late answers of
 * work already replaced (a database opened for a user who signed out meanwhile): they change nothing.
 */
export function nextEnginePhase(state: EnginePhase, event: EngineEvent): EnginePhase {
  const { userId } = event;
  switch (event.type) {
    case 'open':
      // Opening another user's database replaces the current one (which closes on the way).
      return userOf(state) === userId && state.phase !== 'closing' && state.phase !== 'deleting'
        ? state
        : { phase: 'opening', userId };
    case 'opened':
      return state.phase === 'opening' && state.userId === userId
        ? { phase: 'ready', userId, role: 'follower' }
        : state;
    case 'open_failed':
      return state.phase === 'opening' && state.userId === userId ? CLOSED : state;
    case 'elected':
    case 'yielded':
      return state.phase === 'ready' && state.userId === userId
        ? { phase: 'ready', userId, role: event.type === 'elected' ? 'leader' : 'follower' }
        : state;
    case 'close':
      return (state.phase === 'opening' || state.phase === 'ready') && state.userId === userId
        ? { phase: 'closing', userId }
        : state;
    case 'delete':
      // Signing out deletes the database whether or not this tab has it open.
      return state.phase === 'closed' || state.userId === userId ? { phase: 'deleting', userId } : state;
    case 'closed':
      return (state.phase === 'closing' || state.phase === 'deleting') && state.userId === userId ? CLOSED : state;
  }
}
