import { onSessionManager } from '../lib/session/session-events.ts';
import type { ProfileSnapshot, SessionDataPort } from '../lib/session/session-types.ts';
import { loadLocalDataManager } from './local-data-manager-loader.ts';

/** RxDB loads with the first signed-in use, never on the landing page of a signed-out visitor. */
const manager = loadLocalDataManager;

/**
 * What the session manager asks of the local data (src/lib/session/session-types.ts): the profile
 * from the user's local database, the pending-changes count and wait-for-sync of the sign-out prompt,
 * and deleting the user's database on sign-out.
 */
export const sessionDataPort: SessionDataPort = {
  async loadProfile(userId) {
    const db = await (await manager()).openUserDatabase(userId);
    const doc = await db.profiles.findOne(userId).exec();
    return doc ? (doc.toMutableJSON() as ProfileSnapshot) : null;
  },
  watchProfile(userId, onProfile) {
    let stopped = false;
    let unsubscribe = () => {};
    void manager()
      .then((m) => m.openUserDatabase(userId))
      .then((db) => {
        if (stopped) return;
        const sub = db.profiles
          .findOne(userId)
          .$.subscribe((doc) => onProfile(doc ? (doc.toMutableJSON() as ProfileSnapshot) : null));
        unsubscribe = () => sub.unsubscribe();
      })
      .catch(() => {
        // The profile then stays as the sign-up metadata described it.
      });
    return () => {
      stopped = true;
      unsubscribe();
    };
  },
  async pendingChanges() {
    return (await manager()).pendingChangeCount();
  },
  async waitForSync() {
    await (await manager()).waitForSync();
  },
  async clearUserData(userId) {
    await (await manager()).clearUserDatabase(userId);
  },
};

/**
 * Hands the port to the session manager as soon as it is created (synchronously, before it restores
 * the session), so the first profile load already reads the local database.
 */
export function connectSessionDataPort(): () => void {
  return onSessionManager((sessionManager) => sessionManager.setDataPort(sessionDataPort));
}
