import { filter, firstValueFrom } from 'rxjs';
import { PROFILE_ROLES, type ProfileRole } from '../../domain/collections/index.ts';
import { raceTimer } from '../../lib/retry.ts';
import type { PactaDatabase } from '../create-database.ts';

/**
 * After the profiles' first sync ends without the user's own profile, how long it is still waited for:
 * the feed holds back rows committed behind an older transaction still running (anywhere on the
 * Postgres cluster), and the pull that says so pulls again within a fifth of a second.
 */
const HELD_BACK_GRACE_MS = 2_000;

/**
 * The user's role as the server decided it: the `role` of their own profile (a server-owned field) as
 * replicated to this device. A device that holds no profile yet (a first sign-in) waits until the
 * profile arrives, or until the profiles' first sync ended without it and HELD_BACK_GRACE_MS passed;
 * then, or when `stop` comes first, the role is unknown. The sign-up metadata is never used: it is the
 * user's to edit.
 */
export async function serverDecidedRole(
  db: PactaDatabase,
  userId: string | undefined,
  profilesSync: { awaitInitialReplication(): Promise<void> } | undefined,
  stop: Promise<void>,
): Promise<ProfileRole | undefined> {
  const profiles = db.collections.profiles;
  if (!profiles || userId === undefined) return undefined;
  const own = profiles.findOne(userId.toLowerCase());
  const read = async () => roleOf((await own.exec())?.get('role'));
  try {
    const known = await read();
    if (known || !profilesSync) return known;
    const arrived = firstValueFrom(own.$.pipe(filter((doc) => doc !== null)));
    const decided = new AbortController();
    const syncedWithout = profilesSync
      .awaitInitialReplication()
      .then(() => raceTimer(HELD_BACK_GRACE_MS, decided.signal));
    try {
      await Promise.race([arrived, syncedWithout, stop]);
    } finally {
      decided.abort();
    }
    return await read();
  } catch {
    // The database closed meanwhile (sign-out): nothing starts after it anyway.
    return undefined;
  }
}

function roleOf(value: unknown): ProfileRole | undefined {
  return PROFILE_ROLES.find((role) => role === value);
}
