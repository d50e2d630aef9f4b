import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import { savedListId } from '../../../domain/saved-lists.ts';

const NOBODY: readonly string[] = [];

/** The ids of the people the user blocked (what the device holds, synced or not). */
export function useBlockedPeople(userId: string | null | undefined): readonly string[] {
  const live = useLiveQuery(
    (db) =>
      userId
        ? db.saved_lists
            .findOne(savedListId(userId, 'blocked_users'))
            .$.pipe(map((doc) => (doc && !doc.deleted ? [...doc.items] : [])))
        : null,
    [userId],
  );
  return live.data ?? NOBODY;
}
