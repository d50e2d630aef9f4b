import type { PullResponse, SyncCheckpoint } from '../domain/collections/index.ts';
import type { SyncDoc } from './sync-api.ts';

type Page = PullResponse<SyncDoc>;

const keyOf = (checkpoint: SyncCheckpoint | null | undefined) =>
  checkpoint ? `${checkpoint.xid}/${checkpoint.id}/${checkpoint.scope ?? ''}/${checkpoint.horizon}` : 'start';

/**
 * The first sync of a collection this device holds nothing of, as one streamed request: pages read
 * from one server snapshot arrive while earlier ones are written. RxDB still asks page by page (its
 * pull handler gets the checkpoint of the page before); `take` answers from the stream when the
 * checkpoint is the one the stream is at, and otherwise (another checkpoint, the stream ended or
 * failed) answers nothing and the caller pulls as usual from that checkpoint — every page carries a
 * checkpoint a pull can continue from.
 */
export function createSnapshotFeed(open: (signal: AbortSignal) => AsyncGenerator<Page>) {
  let current: { at: string; pages: Page[]; ended: boolean; wake: () => void; abort: AbortController } | undefined;

  function close() {
    current?.abort.abort();
    current = undefined;
  }

  return {
    /** Starts the stream (a previous one is dropped). */
    start() {
      close();
      const feed = { at: keyOf(null), pages: [] as Page[], ended: false, wake: () => {}, abort: new AbortController() };
      current = feed;
      // Read ahead: pages are parsed and queued while RxDB writes the ones before.
      void (async () => {
        try {
          for await (const page of open(feed.abort.signal)) {
            feed.pages.push(page);
            feed.wake();
          }
        } catch {
          // A failed stream ends here; the caller pulls on from the last page it took.
        } finally {
          feed.ended = true;
          feed.wake();
        }
      })();
    },
    /** The next streamed page after `checkpoint`, or undefined when the stream cannot answer it. */
    async take(checkpoint: SyncCheckpoint | null): Promise<Page | undefined> {
      const feed = current;
      if (!feed || feed.at !== keyOf(checkpoint)) return undefined;
      while (feed.pages.length === 0 && !feed.ended) await new Promise<void>((resolve) => (feed.wake = resolve));
      const page = feed.pages.shift();
      if (!page || current !== feed) {
        if (current === feed) close();
        return undefined;
      }
      feed.at = keyOf(page.checkpoint);
      return page;
    },
    close,
  };
}
