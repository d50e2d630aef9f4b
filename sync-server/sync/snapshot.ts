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
  try {
    await tx.query('begin isolation level repeatable read read only');
    const result = await work(tx, () => becomeUser(tx, claims));
    await tx.query('commit');
    return result;
  } catch (err) {
    await tx.query('rollback').catch(() => {});
    throw err;
  } finally {
    tx.release();
  }
}
