import type { RxConflictHandler, WithDeleted } from 'rxdb';
import { deepEqual } from 'rxdb/plugins/utils';

/** A document as the replication compares it: no RxDB bookkeeping, no empty rejection marker. */
function comparable<T>(doc: WithDeleted<T>): Record<string, unknown> {
  const { _meta: _m, _rev: _r, _attachments: _a, ...rest } = doc as Record<string, unknown>;
  if (rest.sync_rejection === null || rest.sync_rejection === undefined) delete rest.sync_rejection;
  return rest;
}

/**
 * The server decides: on a conflict the master state wins (the server already applied its rules,
 * and a rejected write comes back as the master plus `sync_rejection` for the UI to show).
 */
export const serverWinsConflictHandler: RxConflictHandler<Record<string, unknown>> = {
  isEqual: (a, b) => deepEqual(comparable(a), comparable(b)),
  resolve: (input) => Promise.resolve(input.realMasterState),
};
