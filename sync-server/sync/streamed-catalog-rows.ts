import type { Database, JwtClaims } from '../db/database.ts';
import {
  COLLECTION_NAMES,
  collectionSpecs,
  type CollectionName,
  type CollectionSpec,
} from '../../src/domain/collections/index.ts';
import { streamEvent } from '../../src/domain/contracts/change-stream.ts';
import type { ServerCollection } from './collections.ts';
import type { CheckpointSeal } from './checkpoint-seal.ts';
import { shownRows, type ChangedRow, type Doc } from './pull.ts';
import { inReadSnapshot } from './snapshot.ts';

/**
 * A signed-in reader with nothing of their own: no profile (so no role, no Pro, not staff), no deal, no
 * application. RLS policies only ever add rows for a user (`deals_read` is one permissive policy whose
 * clauses are joined by OR), so what RLS shows this reader it shows every signed-in user.
 * `tests/sync/streamed-rows.pg.test.ts` pins `deals_read`: a change to it fails that test until this
 * has been read against it.
 */
const ANY_READER: JwtClaims = { sub: '00000000-0000-0000-0000-000000000000', role: 'authenticated' };

/**
 * The catalog collections whose rows may travel in the stream (`rowsInStream` in the shared registry,
 * which devices read too): those whose read policy has been read against `ANY_READER` (and is pinned by
 * the test above).
 */
export const STREAMED_CATALOG: readonly CollectionName[] = COLLECTION_NAMES.filter(
  (name) => (collectionSpecs[name] as CollectionSpec).rowsInStream,
);

/** At most this many rows, and this many bytes, travel in one `rows` event; a larger change is pulled. */
const MAX_STREAMED_ROWS = 50;
const MAX_STREAMED_BYTES = 32 * 1024;

/** Rows held back behind an older transaction still running are read again after this, doubling. */
const HELD_FIRST_MS = 20;
const HELD_MAX_MS = 2_000;
/**
 * A notice whose read found nothing new is read once more after this: its commit may not yet have been
 * visible to new snapshots (Postgres can deliver a NOTIFY a moment before that).
 */
const LOOK_AGAIN_MS = 300;

export type CatalogChange =
  /** The encoded `rows` event, the same bytes for every stream. */
  | { rows: Buffer }
  /** Rows not every reader may see, or too many: the streams get a `change` notice and pull. */
  | { notice: true };

type Position = { xid: string; id: string };

/**
 * Turns the catalog notices of one collection into what every stream of this instance gets: one read per
 * notice (not one pull per device). The instance keeps the feed position it has told its streams about
 * (`head`); each notice reads, in one read-only snapshot, the rows of the feed after it (below the
 * snapshot's xmin, as a pull reads them). When every one of them is a row every signed-in reader sees
 * (read past RLS and again under RLS as `ANY_READER`: the same rows), they go out as a `rows` event from
 * `head` to the last of them, sealed for every reader; otherwise as a `change` notice, and devices pull.
 * Either way `head` moves past them, so the next event follows on.
 *
 * Nothing is skipped: a read starts after the notice arrived; reads run one at a time and a notice
 * during one asks for another; rows held back by an older running transaction are read again (with
 * backoff) until they are not; a read that found nothing looks once more shortly after. A failed read
 * falls back to a `change` notice.
 */
export function streamedCatalogRows(
  db: Database,
  collection: ServerCollection,
  seal: CheckpointSeal,
  send: (change: CatalogChange) => void,
  onError: (err: unknown) => void,
) {
  let head: Position | undefined;
  let reading = false;
  let again = false;
  let closed = false;
  let heldDelay = HELD_FIRST_MS;
  /** A notice arrived since the last read began (a read of our own timer is not one). */
  let noticed = false;
  let timer: NodeJS.Timeout | undefined;

  const later = (ms: number) => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      read();
    }, ms);
    timer.unref();
  };

  function notice() {
    noticed = true;
    read();
  }

  function read() {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void (async () => {
      do {
        again = false;
        try {
          await readOnce();
        } catch (err) {
          onError(err);
          send({ notice: true });
        }
      } while (again && !closed);
      reading = false;
    })();
  }

  async function readOnce() {
    const from = head;
    const byNotice = noticed;
    noticed = false;
    const read = await readAfter(db, collection, from);
    if (!from) {
      // The instance starts: what it knows nothing of, its streams learn from a notice.
      head = read.last ?? { xid: '0', id: '00000000-0000-0000-0000-000000000000' };
      return;
    }
    if (read.held) {
      later(heldDelay);
      heldDelay = Math.min(heldDelay * 2, HELD_MAX_MS);
    } else heldDelay = HELD_FIRST_MS;
    if (read.changed.length === 0) {
      if (!read.held && byNotice) later(LOOK_AGAIN_MS);
      return;
    }
    if (read.changed.length > MAX_STREAMED_ROWS || !read.documents) {
      head = read.changed.length > MAX_STREAMED_ROWS ? read.last! : read.changed.at(-1)!;
      send({ notice: true });
      return;
    }
    const to = read.changed.at(-1)!;
    const event = Buffer.from(
      streamEvent('rows', {
        collection: collection.name,
        from: { ...from, horizon: read.horizon },
        to,
        seal: seal.sealStreamed(collection.name, { ...to, horizon: read.horizon }),
        documents: read.documents,
      }),
    );
    head = to;
    send(event.length <= MAX_STREAMED_BYTES ? { rows: event } : { notice: true });
  }

  return {
    /** A catalog notice of this collection arrived (or the instance starts: the first read finds `head`). */
    notice,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/**
 * In one read-only snapshot: the tombstone horizon, the first rows of the feed after `from` (past RLS; the
 * first `MAX_STREAMED_ROWS + 1`, ids and positions), the feed's last row, whether newer committed rows
 * are held back, and — when the rows are few enough — their documents if `ANY_READER` sees every one of
 * them (else `documents` is undefined). Without `from`, only the horizon and the last row.
 */
async function readAfter(
  db: Database,
  collection: ServerCollection,
  from: Position | undefined,
): Promise<{
  horizon: string;
  changed: ChangedRow[];
  last: Position | null;
  held: boolean;
  documents?: Doc[];
}> {
  return inReadSnapshot(db, ANY_READER, async (tx, becomeAnyReader) => {
    const after = from ?? { xid: '0', id: '00000000-0000-0000-0000-000000000000' };
    const { rows } = await tx.query<{
      horizon: string;
      changed: ChangedRow[] | null;
      last: Position | null;
      held: boolean;
    }>({
      name: `streamed-rows-${collection.name}`,
      text: `select coalesce((select purged_xid::text from sync.purge_watermarks where collection = $1), '0') as horizon,
              (select json_agg(json_build_object('id', k.id, 'xid', k.xid::text) order by k.xid, k.id) from (
                 select t.id, t.change_xid as xid from ${collection.relation} t
                  where (t.change_xid, t.id) > ($2::xid8, $3::uuid)
                    and t.change_xid < pg_snapshot_xmin(pg_current_snapshot())
                  order by t.change_xid, t.id
                  limit $4) k) as changed,
              (select json_build_object('id', t.id, 'xid', t.change_xid::text) from ${collection.relation} t
                where t.change_xid < pg_snapshot_xmin(pg_current_snapshot())
                order by t.change_xid desc, t.id desc
                limit 1) as last,
              exists (select 1 from ${collection.relation} h
                       where (h.change_xid, h.id) > ($2::xid8, $3::uuid)
                         and h.change_xid >= pg_snapshot_xmin(pg_current_snapshot())) as held`,
      values: [collection.name, after.xid, after.id, from ? MAX_STREAMED_ROWS + 1 : 0],
    });
    const row = rows[0]!;
    const changed = (row.changed ?? []).map(({ id, xid }) => ({ id, xid }));
    const read = { horizon: row.horizon, changed, last: row.last, held: row.held };
    if (changed.length === 0 || changed.length > MAX_STREAMED_ROWS) return read;
    await becomeAnyReader();
    const shown = await shownRows(tx, collection, after, MAX_STREAMED_ROWS + 1, false);
    const everyReaderSees = shown.length === changed.length && shown.every((r, i) => r.doc.id === changed[i]!.id);
    return everyReaderSees ? { ...read, documents: shown.map((r) => r.doc) } : read;
  });
}
