import { map } from 'rxjs';
import type { ProfileDocument } from '../../domain/collections/index.ts';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useLiveQuery, type LiveResult } from './use-live-query.ts';

/** The signed-in user's profile from the local database (null until it has synced). */
export function useMyProfile(): LiveResult<ProfileDocument | null> {
  const userId = useAuth().user?.id ?? null;
  return useProfile(userId);
}

/** Any profile the user can see, live from the local database (null when not on this device). */
export function useProfile(id: string | null): LiveResult<ProfileDocument | null> {
  return useLiveQuery(
    (db) =>
      id ? db.profiles.findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as ProfileDocument) : null))) : null,
    [id],
  );
}
