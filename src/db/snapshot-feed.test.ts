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

test('a stream opened early says when its first page has arrived, or that it ended without one; opened once per key', async () => {
  let send = (_: Page) => {};
  const arrived: string[] = [];
  const key = prefetchKey('http://sync.test', 'user-c', 'deals', 2);
  const first = prefetchSnapshot(key, async function* () {
    yield await new Promise<Page>((resolve) => (send = resolve));
  });
  void first.then(() => arrived.push('deals'));
  const again = prefetchSnapshot(key, () => {
    throw new Error('a second stream for the same key');
  });
  await Promise.resolve();
  expect(arrived).toEqual([]);
  send(page(1));
  await Promise.all([first, again]);
  expect(arrived).toEqual(['deals']);
  // A stream that fails before any page still resolves: nothing waits on it for ever.
  await prefetchSnapshot(prefetchKey('http://sync.test', 'user-c', 'profiles', 2), async function* () {
    yield* [];
    throw new Error('offline');
  });
  dropPrefetchedSnapshots();
});

/** A page of `n` documents ending at position `at`. */
const bigPage = (at: number, n: number): Page => ({
  documents: Array.from({ length: n }, (_, i) => ({ id: `doc-${at}-${i}`, _deleted: false })),
  checkpoint: { xid: String(at), id: `doc-${at}`, scope: null, horizon: '0' },
});

test('a page taken in parts: each but the last at the position it was asked from, the last at the page’s own', async () => {
  const stream = fakeStream([page(1), bigPage(2, 5), bigPage(3, 2)]);
  const feed = createSnapshotFeed(stream.open);
  feed.start();
  // The first page is never parted: there is no position before it to hand a part at.
  const first = (await feed.take(null, 2))!;
  expect(first.part).toBeUndefined();

  const parts = [];
  let at = first.checkpoint;
  for (let i = 0; i < 3; i++) {
    const part = (await feed.take(at, 2))!;
    parts.push(part);
    at = part.checkpoint;
  }
  expect(parts.map((p) => p.documents.map((d) => d.id))).toEqual([
    ['doc-2-0', 'doc-2-1'],
    ['doc-2-2', 'doc-2-3'],
    ['doc-2-4'],
  ]);
  expect(parts.map((p) => p.checkpoint)).toEqual([first.checkpoint, first.checkpoint, bigPage(2, 5).checkpoint]);
  expect(parts.map((p) => p.part)).toEqual([
    { last: false, of: 5 },
    { last: false, of: 5 },
    { last: true, of: 5 },
  ]);
  // A page no larger than the parts comes whole.
  const next = (await feed.take(at, 2))!;
  expect([next.documents.length, next.part]).toEqual([2, undefined]);
  feed.close();
});
