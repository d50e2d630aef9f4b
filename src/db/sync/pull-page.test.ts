import type { RxCollection } from 'rxdb';
import { expect, test, vi } from 'vitest';
import type { SyncCheckpoint } from '../../domain/collections/index.ts';
import type { SyncApi, SyncDoc } from '../sync-api.ts';
import { createSnapshotFeed } from '../snapshot-feed.ts';
import { pullPage, type PullSource } from './pull-page.ts';

const checkpoint = (id: string): SyncCheckpoint => ({
  xid: '10',
  id: `00000000-0000-4000-8000-00000000000${id}`,
  scope: null,
  horizon: '0',
});

/** A collection holding `docs`, as the pull reads it (the first document; pages of them by id). */
function collectionOf(docs: SyncDoc[]) {
  const asRx = (doc: SyncDoc) => ({ primary: doc.id, toJSON: () => doc });
  return {
    findOne: () => ({ exec: async () => (docs[0] ? asRx(docs[0]) : null) }),
    find: () => ({ exec: async () => docs.map(asRx) }),
  } as unknown as RxCollection<SyncDoc>;
}

/** A feed read from no checkpoint while the device holds `local`; `pages` are the server's answers, in turn. */
function source(local: SyncDoc[], pages: Awaited<ReturnType<SyncApi['pull']>>[]) {
  const pull = vi.fn(async () => pages.shift()!);
  const src: PullSource = {
    api: { pull } as unknown as SyncApi,
    collection: collectionOf(local),
    name: 'drafts',
    batchSize: 100,
    hooks: {
      snapshot: undefined,
      onPending: () => {},
      onStreamEnd: () => {},
      waitingToPush: () => false,
      readFeed: (read) => read(),
    },
  };
  return { src, pull };
}

const draft = { id: 'd1', title: 'Written offline' } as unknown as SyncDoc;

test('a restarted feed that ended with rows held back is read again before a document it lacks is removed', async () => {
  // The draft's push was just answered, but an older transaction on the server held it out of the feed.
  const { src, pull } = source(
    [draft],
    [
      { documents: [], checkpoint: checkpoint('1'), pending: true },
      { documents: [draft], checkpoint: checkpoint('2') },
    ],
  );
  const page = await pullPage(src, null);
  expect(pull).toHaveBeenCalledTimes(2);
  expect(page.documents).toEqual([draft]);
  expect(page.checkpoint).toEqual(checkpoint('2'));
});

test('a complete restarted feed removes the documents it lacks at once', async () => {
  const { src, pull } = source([draft], [{ documents: [], checkpoint: checkpoint('1') }]);
  const page = await pullPage(src, null);
  expect(pull).toHaveBeenCalledTimes(1);
  expect(page.documents).toEqual([{ ...draft, _deleted: true }]);
});

test('a streamed page handed over in parts is read as a page once: its end and its held rows at its last part', async () => {
  const page = (n: number, at: string, pending = false) => ({
    documents: Array.from({ length: n }, (_, i) => ({ id: `${at}-${i}` }) as unknown as SyncDoc),
    checkpoint: checkpoint(at),
    ...(pending ? { pending: true as const } : {}),
  });
  const stream = [page(100, '1'), page(100, '2'), page(30, '3', true)];
  const snapshot = createSnapshotFeed(async function* () {
    yield* stream;
  });
  const ends: string[] = [];
  const { src } = source([], []);
  src.hooks = {
    ...src.hooks,
    snapshot,
    streamedPart: () => 40,
    onPending: (pending) => ends.push(`pending ${pending}`),
    onStreamEnd: () => ends.push('end'),
  };
  const taken = [];
  let at: SyncCheckpoint | null = null;
  for (let i = 0; i < 5; i++) {
    const got = await pullPage(src, at);
    taken.push(got.documents.length);
    at = got.checkpoint ?? null;
    if (i === 0 || i === 3) expect(ends.splice(0)).toEqual(['pending false']);
    else if (i === 4) expect(ends).toEqual(['pending true', 'end']);
    else expect(ends).toEqual([]);
  }
  // The first page whole; the second in parts of 40; the short last page, smaller than a part, whole.
  expect(taken).toEqual([100, 40, 40, 20, 30]);
  expect(at).toEqual(checkpoint('3'));
});
