import webpush from 'web-push';
import type { Database } from '../db/database.ts';

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/**
 * The VAPID key pair the server signs pushes with. Given by the environment (VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY), or made by the first server that starts and kept in the database, so every
 * instance (and every restart) signs with the same key: browsers' subscriptions are bound to it.
 */
export async function loadVapidKeys(
  db: Database,
  given: { publicKey: string | undefined; privateKey: string | undefined; subject: string },
): Promise<VapidKeys> {
  if (given.publicKey && given.privateKey)
    return { publicKey: given.publicKey, privateKey: given.privateKey, subject: given.subject };
  const fresh = webpush.generateVAPIDKeys();
  const row = await db.asService(async (tx) => {
    const { rows } = await tx.query<{ public_key: string; private_key: string }>(
      `with made as (
         insert into pacta_private.vapid_keys (public_key, private_key) values ($1, $2)
         on conflict (singleton) do nothing returning public_key, private_key)
       select public_key, private_key from made
       union all
       select public_key, private_key from pacta_private.vapid_keys where not exists (select 1 from made)`,
      [fresh.publicKey, fresh.privateKey],
    );
    // Two instances starting together: the one whose insert lost waited for the other's commit, but its
    // statement's snapshot is older than that row. A new statement sees it.
    return (
      rows[0] ??
      (
        await tx.query<{ public_key: string; private_key: string }>(
          'select public_key, private_key from pacta_private.vapid_keys',
        )
      ).rows[0]
    );
  });
  if (!row) throw new Error('VAPID keys could not be stored');
  return { publicKey: row.public_key, privateKey: row.private_key, subject: given.subject };
}
