import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { SyncCheckpoint } from '../../src/domain/collections/index.ts';
import { CHECKPOINT_SEAL_SEPARATOR, STREAMED_SEAL_MARK } from '../../src/domain/contracts/change-stream.ts';

export type CheckpointSeal = {
  /** The checkpoint as sent to `userId`: its scope carries a seal over the whole position. */
  seal(userId: string, collection: string, checkpoint: SyncCheckpoint): SyncCheckpoint;
  /**
   * The checkpoint as the client sent it, with its scope unsealed; a scope whose seal does not match
   * (a position the server never issued to this user, or one from before seals) becomes one no feed
   * has, so the pull restarts the feed (a reset serves only rows the user may read).
   */
  open(userId: string, collection: string, checkpoint: SyncCheckpoint): SyncCheckpoint;
  /**
   * The seal of a position the change stream gives every signed-in reader with rows every one of them
   * may read (`rows` events): bound to the position, not to a user or a scope. Any device in step sent
   * those rows would have been issued this very position by a pull, whatever its scope; the scope it
   * puts beside the seal is checked against the user's scope now, as every scope is.
   */
  sealStreamed(collection: string, position: Omit<SyncCheckpoint, 'scope'>): string;
};

const FORGED_SCOPE = 'unsealed';

/**
 * Seals catalog checkpoints. An incremental catalog page reads the rows changed since the checkpoint
 * past RLS and answers those the user may not read as removals (`{ id, _deleted: true }`); from a
 * position the client made up (`xid` 1) that would list the id of every deal it may not read. Only
 * positions the server issued to this user are honoured. Participant collections (scope null) read
 * under RLS only and are not sealed.
 */
export async function loadCheckpointSeal(db: Database): Promise<CheckpointSeal> {
  const stored = await db.asService(async (tx) => {
    const { rows } = await tx.query<{ secret: string }>(
      `with made as (
         insert into pacta_private.checkpoint_seal_keys (secret) values ($1)
         on conflict (singleton) do nothing returning secret)
       select secret from made
       union all
       select secret from pacta_private.checkpoint_seal_keys where not exists (select 1 from made)`,
      [randomBytes(32).toString('base64url')],
    );
    // Two instances starting together: the one whose insert lost waited for the other's commit, but its
    // statement's snapshot is older than that row. A new statement sees it.
    return (
      rows[0] ?? (await tx.query<{ secret: string }>('select secret from pacta_private.checkpoint_seal_keys')).rows[0]
    );
  });
  if (!stored) throw new Error('the checkpoint seal key could not be stored');
  // A key object, not the bytes: createHmac checks a Buffer key's type anew on every call, which
  // cost ~16 µs per seal or open (~4 µs with the key object) — once per pull, 5,000 per catalog burst.
  const secret = createSecretKey(Buffer.from(stored.secret, 'base64url'));
  const mac = (userId: string, collection: string, c: SyncCheckpoint, scope: string) =>
    createHmac('sha256', secret)
      .update(JSON.stringify([userId, collection, scope, c.xid, c.id, c.horizon]))
      .digest()
      .subarray(0, 16);
  // Another message than a user's seal (five parts, the first `streamed`): neither stands for the other.
  const streamedMac = (collection: string, c: Omit<SyncCheckpoint, 'scope'>) =>
    createHmac('sha256', secret)
      .update(JSON.stringify(['streamed', collection, c.xid, c.id, c.horizon]))
      .digest()
      .subarray(0, 16);
  const matches = (given: Buffer, expected: Buffer) =>
    given.length === expected.length && timingSafeEqual(given, expected);

  return {
    seal(userId, collection, checkpoint) {
      if (checkpoint.scope === null) return checkpoint;
      const tag = mac(userId, collection, checkpoint, checkpoint.scope).toString('base64url');
      return { ...checkpoint, scope: `${checkpoint.scope}~${tag}` };
    },
    open(userId, collection, checkpoint) {
      if (checkpoint.scope === null) return checkpoint;
      const at = checkpoint.scope.lastIndexOf(CHECKPOINT_SEAL_SEPARATOR);
      const scope = checkpoint.scope.slice(0, Math.max(at, 0));
      const tag = checkpoint.scope.slice(at + 1);
      const valid =
        at > 0 &&
        (tag.startsWith(STREAMED_SEAL_MARK)
          ? matches(Buffer.from(tag.slice(STREAMED_SEAL_MARK.length), 'base64url'), streamedMac(collection, checkpoint))
          : matches(Buffer.from(tag, 'base64url'), mac(userId, collection, checkpoint, scope)));
      return { ...checkpoint, scope: valid ? scope : FORGED_SCOPE };
    },
    sealStreamed(collection, position) {
      return `${STREAMED_SEAL_MARK}${streamedMac(collection, position).toString('base64url')}`;
    },
  };
}
