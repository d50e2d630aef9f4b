import { browserIsOffline } from './network-errors.ts';
import type { ProfileSnapshot, SessionDataPort } from './session-types.ts';

/**
 * The shapes the session needs from the RxDB database and its replication (`src/db`), written
 * structurally so the auth feature does not load RxDB: whoever opens the user's database passes them in.
 */
type ProfileDocLike = { toJSON(): unknown };
export type LocalDatabaseLike = {
  collections: {
    profiles?: {
      findOne(id: string): {
        exec(): Promise<ProfileDocLike | null>;
        $: { subscribe(next: (doc: ProfileDocLike | null) => void): { unsubscribe(): void } };
      };
    };
  };
  /** Deletes the database and all its data (RxDatabase.remove). */
  remove(): Promise<unknown>;
};
export type ReplicationLike = {
  readonly syncStatus: { pendingPush: number };
  /** Resolves when nothing is left to pull or push. */
  awaitInSync(): Promise<void>;
};

const asProfile = (doc: ProfileDocLike | null): ProfileSnapshot | null => (doc ? (doc.toJSON() as ProfileSnapshot) : null);

/** The session's data port over a user's open database (and its replication, when this tab replicates). */
export function createLocalDataPort(db: LocalDatabaseLike, replication?: ReplicationLike): SessionDataPort {
  return {
    async loadProfile(userId) {
      const profiles = db.collections.profiles;
      return profiles ? asProfile(await profiles.findOne(userId).exec()) : null;
    },
    watchProfile(userId, onProfile) {
      const profiles = db.collections.profiles;
      if (!profiles) return () => {};
      const subscription = profiles.findOne(userId).$.subscribe((doc) => onProfile(asProfile(doc)));
      return () => subscription.unsubscribe();
    },
    pendingChanges: () => replication?.syncStatus.pendingPush ?? 0,
    async waitForSync() {
      // Waiting without a connection would never end: say so at once, the prompt offers the other choices.
      if (browserIsOffline()) throw new TypeError('offline');
      await replication?.awaitInSync();
    },
    async clearUserData() {
      await db.remove();
    },
  };
}
