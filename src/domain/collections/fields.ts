import { z } from 'zod';

/**
 * Building blocks of the replicated document schemas. These schemas describe the SHAPE of a
 * document (types, enums, ids). Value rules (lengths, minimum amounts, transitions) are enforced
 * per row by the database, so a rule violation comes back as a rejected write for that one row
 * instead of failing a whole push batch (see docs/decisions/001-sync-protocol.md).
 */
export const uuid = z.guid();
export const timestamp = z.iso.datetime({ offset: true });
/** Money is always integer cents. */
export const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const count = z.number().int().min(0);
export const stringList = z.array(z.string());
export const jsonObject = z.record(z.string(), z.unknown());

/** Why the server refused a write; set only on the client, shown by the UI, never pushed back. */
export const syncRejection = z.object({ code: z.string(), message: z.string() });
export type SyncRejection = z.infer<typeof syncRejection>;

/**
 * Sync columns every replicated document carries. All are server-owned: a client may hold any
 * placeholder (a new local document sets `created_at` to "now" for sorting); the server stamps them.
 * `_deleted` is RxDB's deleted flag (the table's `deleted` column) and is not part of the schema.
 */
export const syncColumns = {
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  version: z.number().int().min(0).optional(),
  sync_rejection: syncRejection.nullable().optional(),
} as const;

/** Names of the sync columns as the server treats them (never written from a client). */
export const SYNC_COLUMN_NAMES = ['created_at', 'updated_at', 'version'] as const;
/**
 * The newest-first sort key of a collection whose screens list "newest first": `created_at` as a
 * number that grows toward the past (minus its microseconds since 1970). Derived on the device for
 * every write (src/db/newest-first.ts), never part of the zod schema, never sent to the server: the
 * local database's indexes run in one direction only (IndexedDB cursors ascend; RxDB re-sorts every
 * `desc` query in memory, reading the whole range), so "the 10 newest" needs a key that ascends.
 */
export const NEWEST_FIRST = 'newest_first' as const;

/**
 * The last calendar day a deal is offered, as YYYY-MM-DD: its `deadline` when that is a date, else
 * NO_LAST_DAY (no deadline, or the free text of an older deal). Derived on the device for every write
 * (src/db/newest-first.ts), never sent: the deal lists ask for `open_until >= today` and count it on an
 * index, which `deadline` (nullable, free text) cannot be.
 */
export const OPEN_UNTIL = 'open_until' as const;
export const NO_LAST_DAY = '9999-12-31';

/** Client-only fields: stored locally, ignored by the server. */
export const CLIENT_ONLY_FIELDS = ['sync_rejection', NEWEST_FIRST, OPEN_UNTIL] as const;
