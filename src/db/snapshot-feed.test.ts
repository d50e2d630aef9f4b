import { expect, test } from 'vitest';
import type { PullResponse } from '../domain/collections/index.ts';
import { createSnapshotFeed, dropPrefetchedSnapshots, prefetchKey, prefetchSnapshot } from './snapshot-feed.ts';
import type { SyncDoc } from './sync-api.ts';

type Page = PullResponse<SyncDoc>;

const page = (n: number): Page => ({
  documents: [{ id: `doc-${n}`, _deleted: false }],
  checkpoint: { xid: String(n), id: `doc-${n}`, scope: null, horizon: '0' },
});

/** A stream that sends `pages`, then stays open until aborted; records that it was opened and aborted. */
function fakeStream(pages: Page[]) {
  const seen = { opened: 0, aborted: 0 };
  const open = async function* (signal: AbortSignal): AsyncGenerator<Page> {
    seen.opened++;
    signal.addEventListener('abort', () => seen.aborted++);
    for (const p of pages) yield p;
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
  };
  return { open, seen };
}

test('a stream opened early is the one the first start takes: its pages in order, no second request', async () => {
  const key = prefetchKey('http://sync.test', 'User-A', 'deals', 2);
  const early = fakeStream([page(1), page(2)]);
  prefetchSnapshot(key, early.open);
  const own = fakeStream([page(9)]);
  const feed = createSnapshotFeed(own.open, key);
  feed.start();
  const first = await feed.take(null);
  expect(first?.documents[0]?.id).toBe('doc-1');
  expect((await feed.take(first!.checkpoint))?.documents[0]?.id).toBe('doc-2');
  expect([early.seen.opened, own.seen.opened]).toEqual([1, 0]);
  feed.close();
  expect(early.seen.aborted).toBe(1);
});

test('streams opened early are dropped on sign-out: closed on the server, and a later start opens its own', async () => {
  const key = prefetchKey('http://sync.test', 'user-b', 'deals', 2);
  const early = fakeStream([page(1)]);
  prefetchSnapshot(key, early.open);
  await Promise.resolve();
  dropPrefetchedSnapshots();
  expect(early.seen.aborted).toBe(1);
  const own = fakeStream([page(5)]);
  const feed = createSnapshotFeed(own.open, key);
  feed.start();
  expect((await feed.take(null))?.documents[0]?.id).toBe('doc-5');
  expect(own.seen.opened).toBe(1);
  feed.close();
});
