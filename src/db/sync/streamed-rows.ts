import type { SyncCheckpoint } from '../../domain/collections/index.ts';
import {
  checkpointAfterRows,
  compareFeedPositions,
  holdsBoundedSet,
  type ChangeStreamEvent,
} from '../../domain/contracts/change-stream.ts';
import type { SyncDoc } from '../sync-api.ts';

export type StreamedRows = ChangeStreamEvent<'rows'>;
type Page = { documents: SyncDoc[]; checkpoint: SyncCheckpoint };

/**
 * Where streamed rows stand against the checkpoint a device holds:
 * - `next`: they follow it exactly (same position, same tombstone horizon): applying them is what a pull
 *   from it would bring;
 * - `had`: the device already stands at or past their last row (a pull brought them, or newer);
 * - `gap`: anything else — rows between are missing, or the device's position is unknown: pull. A device
 *   holding a bounded working set pulls too: the rows are every reader's, and only its pull knows which
 *   of them are in its set.
 */
export function placeOf(held: SyncCheckpoint | null | undefined, rows: StreamedRows): 'next' | 'had' | 'gap' {
  if (!held || held.horizon !== rows.from.horizon) return 'gap';
  if (held.xid === rows.from.xid && held.id === rows.from.id) return holdsBoundedSet(held.scope) ? 'gap' : 'next';
  return compareFeedPositions(held, rows.to) >= 0 ? 'had' : 'gap';
}

/**
 * The rows of one collection that arrive in the change stream, applied through its RxDB replication
 * only where they follow the checkpoint RxDB holds, so nothing is skipped and nothing older overwrites
 * something newer.
 *
 * RxDB's checkpoint is known exactly when its pull handler is called (`pullStarted`) and what it will
 * be once that pull's page is stored (`pullEnded`). Rows that follow it are handed to RxDB's pull stream
 * as a page with its checkpoint (`emit`: no request, no RESYNC) when RxDB is idle (`canEmit`); RxDB
 * drops such a page if a pull starts before the page is processed, and that pull, asked after the rows
 * arrived, brings them. Otherwise they wait here and a pull is asked for (`pull`), which takes them
 * without a request (`take`) when they follow its checkpoint, and pulls over HTTP when they do not.
 * While a pull runs (retries included) nothing is emitted: its page decides where the rows stand.
 */
export function createStreamedFeed(opts: {
  emit(page: Page): void;
  pull(): void;
  canEmit(): boolean;
  /** RxDB is busy: call `resume` once it may be idle (or `pull`). Absent: pull at once. */
  whenIdle?(): void;
  /** Rows the device already had, dropped: they will not be written. */
  dropped?(rows: StreamedRows): void;
}) {
  /** The checkpoint RxDB holds once everything handed to it is stored; undefined until its first pull. */
  let position: SyncCheckpoint | null | undefined;
  let pulling = false;
  const waiting: StreamedRows[] = [];

  function drain() {
    if (pulling) return;
    while (waiting.length > 0) {
      const rows = waiting[0]!;
      const place = placeOf(position, rows);
      if (place === 'had') {
        opts.dropped?.(waiting.shift()!);
        continue;
      }
      if (place === 'gap') return opts.pull();
      if (!opts.canEmit()) return opts.whenIdle ? opts.whenIdle() : opts.pull();
      waiting.shift();
      const checkpoint = checkpointAfterRows(position!, rows);
      opts.emit({ documents: rows.documents as SyncDoc[], checkpoint });
      position = checkpoint;
    }
  }

  return {
    /** Rows arrived in the change stream. */
    arrived(rows: StreamedRows) {
      waiting.push(rows);
      drain();
    },
    /** After `whenIdle`: rows still waiting are handed to RxDB if it is idle now, or wait again. */
    resume: drain,
    /** RxDB's pull handler was called with this checkpoint (RxDB's own). */
    pullStarted(checkpoint: SyncCheckpoint | null) {
      pulling = true;
      position = checkpoint;
    },
    /**
     * The waiting rows that follow `checkpoint`, one after another, as the page a pull would bring (null
     * if none do). Rows the device already had are dropped.
     */
    take(checkpoint: SyncCheckpoint | null, batchSize: number): Page | null {
      let at = checkpoint;
      const documents: SyncDoc[] = [];
      while (waiting.length > 0 && documents.length < batchSize) {
        const place = placeOf(at, waiting[0]!);
        if (place === 'gap') break;
        const rows = waiting.shift()!;
        if (place === 'had') {
          opts.dropped?.(rows);
          continue;
        }
        documents.push(...(rows.documents as SyncDoc[]));
        at = checkpointAfterRows(at!, rows);
      }
      return documents.length > 0 ? { documents, checkpoint: at! } : null;
    },
    /** The pull handler answered: RxDB stores the page's checkpoint (not that of a page without documents). */
    pullEnded(checkpoint: SyncCheckpoint | null, page: { documents: unknown[]; checkpoint?: SyncCheckpoint | null }) {
      pulling = false;
      position = page.documents.length > 0 && page.checkpoint ? page.checkpoint : checkpoint;
      drain();
    },
  };
}
