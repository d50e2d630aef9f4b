import type { Database } from '../db/database.ts';

/**
 * Hard-deletes tombstones (soft-deleted rows) older than the horizon and records, per collection,
 * the newest purged change id; clients whose checkpoint predates it are reset on their next pull.
 * Rows still referenced by other rows stay as tombstones. Remembered deletions of rows the server
 * never had go at the same age.
 */
export async function purgeTombstones(db: Database, horizonDays: number): Promise<Record<string, number>> {
  return db.asService(async (tx) => {
    const { rows } = await tx.query<{ collection: string; purged: number }>(
      `select collection, purged from sync.purge_tombstones(make_interval(secs => $1))`,
      [horizonDays * 86_400],
    );
    // Deletions of rows the server never had are remembered as long as tombstones are (push.ts).
    await tx.query(`delete from sync.early_deletions where deleted_at < now() - make_interval(secs => $1)`, [
      horizonDays * 86_400,
    ]);
    const out: Record<string, number> = {};
    for (const r of rows) out[r.collection] = (out[r.collection] ?? 0) + Number(r.purged);
    return out;
  });
}
