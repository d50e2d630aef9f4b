import type { CollectionName } from '../../domain/collections/index.ts';
import { SyncHttpError, type PushRow, type SyncApi, type SyncDoc } from '../sync-api.ts';
import { refusedRow, ROW_REFUSAL_STATUSES } from './decisions.ts';

/**
 * One push. If the server refuses the whole batch because of one row (a write outside the user's
 * scope, a changed server-owned field, an invalid document), the rows are retried one by one and
 * the refused row comes back as a local conflict carrying `sync_rejection`, so one bad row never
 * blocks the queue.
 */
export async function pushRows(api: Pick<SyncApi, 'push'>, name: CollectionName, rows: PushRow[]): Promise<SyncDoc[]> {
  try {
    return (await api.push(name, rows)).conflicts;
  } catch (err) {
    if (!(err instanceof SyncHttpError) || !ROW_REFUSAL_STATUSES.includes(err.status)) throw err;
    if (rows.length > 1) {
      const conflicts: SyncDoc[] = [];
      for (const row of rows) conflicts.push(...(await pushRows(api, name, [row])));
      return conflicts;
    }
    return [refusedRow(rows[0]!, err)];
  }
}
