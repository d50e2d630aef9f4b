import { becomeUser, type Database, type JwtClaims, type Tx } from '../db/database.ts';

/**
 * Runs a read in ONE repeatable-read snapshot that starts with the server's own rights and then
 * switches to the user (`asUser` semantics: claims + role `authenticated`, so RLS applies).
 * Pull needs both views of the same snapshot: the feed position and scope bookkeeping (and, for
 * catalog collections, which rows changed at all) read past RLS; the documents are read under it.
 */
export async function inReadSnapshot<T>(
  db: Database,
  claims: JwtClaims,
  work: (tx: Tx, becomeUser: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const tx = await db.pool.connect();
  let result: T;
  try {
    await tx.query('begin isolation level repeatable read read only');
    result = await work(tx, () => becomeUser(tx, claims));
  } catch (err) {
    await tx.query('rollback').catch(() => {});
    tx.release();
    throw err;
  }
  // Everything was read: the answer goes out while the read-only transaction ends (one round trip
  // less between a commit and the screen). The connection returns to the pool only once it has
  // ended; a failure to end it discards the connection instead.
  void tx.query('commit').then(
    () => tx.release(),
    (err: unknown) => tx.release(err instanceof Error ? err : true),
  );
  return result;
}
