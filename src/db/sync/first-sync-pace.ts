import { raceTimer } from '../../lib/retry.ts';

/**
 * How a streamed first sync hands its pages to RxDB, so that a change committed meanwhile shows at once.
 *
 * RxDB asks for a collection's next page without waiting for the last one to be stored, and stores
 * every page that arrived meanwhile in one write. A brand's 50,000 applications streamed in a few
 * seconds and were stored in writes of 5,000 to 6,000 documents, and a deal committed meanwhile took 1.3
 * to 3.5 s to show: each step of its way (reading its server state, RxDB's checkpoint, its write)
 * waited behind one of them, since IndexedDB runs an origin's transactions one after another. Two rules
 * bound that:
 * - past the first `PACED_FROM_DOCUMENTS`, a page is handed over in parts of `PACED_PART_DOCUMENTS`,
 *   each once the ones before it are written, so a write holds a part of a page (the pull page, 1,000).
 *   Letting one page run ahead merged pages into writes of 2,000 and kept live changes at a median of
 *   580 ms, against 440 ms with writes of one page. Not for
 *   a collection whose rows the change stream carries: nothing arrives for it before its first sync is
 *   done, and writes of one page cost a big first sync about a tenth more time (10,000 deals: 6.6–6.8 s
 *   against 6.2 s);
 * - rows the change stream carries go first: while a collection whose first sync is done applies some,
 *   paced first-sync pages wait (each page 1 s at most, so a busy catalog cannot stall them). Rows that
 *   arrive during their own collection's first sync wait for it and hold nothing back.
 */

/** The longest rows from the change stream hold a first-sync page back (then they count as applied). */
export const LIVE_ROWS_FIRST_MS = 1_000;
/**
 * Pages are paced once this many documents of the first sync were handed over: a smaller first sync
 * (a creator's 1,000 applications, a profile) writes a page or two anyway, and paced, each of its
 * pages waited for a big unpaced write (the deals) to end: a creator's first sync took 1.67× the raw
 * limit instead of 1.46× (median of 3 devices each).
 */
export const PACED_FROM_DOCUMENTS = 2_000;
/**
 * A paced page is handed to RxDB in parts of this many documents, each its own write: a change from the
 * stream then waits behind half a page. A brand's first sync (50,000 applications) while deals were
 * committed, one run each: whole pages of 1,000, live median 444 ms, p95 567 ms, the sync 41.0 s;
 * parts of 500, 287 and 372 ms, 41.3 s; parts of 250, 190 and 251 ms, but 49.1 s (each write of a full
 * replication is several IndexedDB transactions: RxDB's reads, the documents, their server states,
 * the checkpoint).
 */
export const PACED_PART_DOCUMENTS = 500;
/** The longest a page waits for the pages before it to be written (a document RxDB does not write, a conflict say, is never counted). */
export const PAGE_WAIT_MS = 2_000;

/** Rows from the change stream being applied, in every collection: first-sync pages wait while there are. */
export function createLiveRowsFirst(maxHoldMs = LIVE_ROWS_FIRST_MS) {
  let applying = 0;
  let waiters: (() => void)[] = [];
  return {
    /**
     * Rows arrived; the call returned says they are written. It is made anyway after `maxHoldMs` (rows
     * the device already had are never written); `onEnd` runs once, whichever comes first.
     */
    begin(onEnd?: () => void): () => void {
      applying++;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        onEnd?.();
        applying--;
        if (applying > 0) return;
        const woken = waiters;
        waiters = [];
        woken.forEach((wake) => wake());
      };
      const timer = setTimeout(end, maxHoldMs);
      return end;
    },
    /** Resolves once no rows from the change stream are being applied. */
    settled(): Promise<void> {
      return applying === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}

export type LiveRowsFirst = ReturnType<typeof createLiveRowsFirst>;

/**
 * One collection's streamed first sync: counts the documents handed to RxDB and those it has written.
 * `paced`: pages wait for the pages before them to be written (see above).
 */
export function createPagePace(opts: { liveRows: LiveRowsFirst; paced: boolean; maxWaitMs?: number }) {
  const maxWaitMs = opts.maxWaitMs ?? PAGE_WAIT_MS;
  let handed = 0;
  let written = 0;
  let wake: (() => void) | undefined;
  const behind = () => handed > written;
  const isPaced = () => opts.paced && handed >= PACED_FROM_DOCUMENTS;
  return {
    /** The most documents a page is handed over in now: paced pages go in parts (undefined: whole). */
    partSize(): number | undefined {
      return isPaced() ? PACED_PART_DOCUMENTS : undefined;
    },
    /** RxDB wrote this many pulled documents to the collection. */
    written(count: number) {
      written = Math.min(handed, written + count);
      if (!behind()) wake?.();
    },
    /**
     * Resolves when a page of `count` documents may be handed over. Unpaced, or among the first
     * `PACED_FROM_DOCUMENTS`: at once. Paced: once rows from the change stream are applied (or
     * `LIVE_ROWS_FIRST_MS` passed) and the pages before it are written (or `maxWaitMs` passed).
     */
    async handOver(count: number): Promise<void> {
      if (!isPaced()) {
        handed += count;
        return;
      }
      // Rows arriving one after another (a busy catalog) hold each page `LIVE_ROWS_FIRST_MS` at most.
      const decided = new AbortController();
      await Promise.race([opts.liveRows.settled(), raceTimer(LIVE_ROWS_FIRST_MS, decided.signal)]);
      decided.abort();
      if (behind()) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, maxWaitMs);
        });
        clearTimeout(timer);
        wake = undefined;
      }
      handed += count;
    },
  };
}

export type PagePace = ReturnType<typeof createPagePace>;

/**
 * How many documents of a streamed page count for the pace: those not on the stream's first page. A
 * fresh feed's first page holds its newest rows, which come again in their place in the feed, and RxDB
 * does not write a document it already holds unchanged: counted, those repeats would never be written,
 * and every paced page would wait its full `PAGE_WAIT_MS`.
 */
export function createFirstPageRepeats() {
  let first: ReadonlySet<string> | undefined;
  return (ids: readonly string[]): number => {
    if (!first) {
      first = new Set(ids);
      return ids.length;
    }
    const firstPage = first;
    return ids.filter((id) => !firstPage.has(id)).length;
  };
}
