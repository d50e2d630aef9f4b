import { expect, test } from 'vitest';
import type { SyncCheckpoint } from '../../domain/collections/index.ts';
import { createStreamedFeed, placeOf, type StreamedRows } from './streamed-rows.ts';

const ID = (n: number) => `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;
const at = (xid: number, id = 1, horizon = '0'): SyncCheckpoint => ({
  xid: String(xid),
  id: ID(id),
  scope: 'creator:free~userSeal',
  horizon,
});
const rows = (from: number, to: number, horizon = '0'): StreamedRows => ({
  collection: 'deals',
  from: { xid: String(from), id: ID(1), horizon },
  to: { xid: String(to), id: ID(1) },
  seal: `.seal${to}`,
  documents: [{ id: `deal-${to}`, _deleted: false }],
});

test('streamed rows follow a checkpoint only from its very position and horizon', () => {
  expect(placeOf(at(10), rows(10, 12))).toBe('next');
  expect(placeOf(at(12), rows(10, 12))).toBe('had');
  expect(placeOf(at(15), rows(10, 12))).toBe('had');
  expect(placeOf(at(9), rows(10, 12))).toBe('gap');
  expect(placeOf(at(11), rows(10, 12))).toBe('gap');
  expect(placeOf(at(10, 2), rows(10, 12))).toBe('gap');
  expect(placeOf(at(10, 1, '5'), rows(10, 12))).toBe('gap');
  expect(placeOf(null, rows(10, 12))).toBe('gap');
  expect(placeOf(undefined, rows(10, 12))).toBe('gap');
});

test('a device holding a bounded working set pulls on streamed rows: its pull decides what is in its set', () => {
  const bounded: SyncCheckpoint = {
    ...at(10),
    scope: 'creator:free|1,0,2026-11-01T00:00:00Z,' + ID(9) + ',k~userSeal',
  };
  expect(placeOf(bounded, rows(10, 12))).toBe('gap');
  expect(placeOf({ ...bounded, xid: '12' }, rows(10, 12))).toBe('had');
});

function feed(canEmit = true) {
  const emitted: { documents: unknown[]; checkpoint: SyncCheckpoint }[] = [];
  const dropped: string[] = [];
  let pulls = 0;
  const f = createStreamedFeed({
    emit: (page) => emitted.push(page),
    pull: () => pulls++,
    canEmit: () => canEmit,
    dropped: (r) => dropped.push(r.to.xid),
  });
  return { f, emitted, dropped, pulls: () => pulls };
}

test('rows that follow the checkpoint RxDB holds go to its pull stream with the checkpoint after them', () => {
  const { f, emitted, pulls } = feed();
  f.pullStarted(at(8));
  f.pullEnded(at(8), { documents: [{}], checkpoint: at(10) });
  f.arrived(rows(10, 12));
  f.arrived(rows(12, 14));
  expect(emitted.map((p) => p.checkpoint)).toEqual([
    { xid: '12', id: ID(1), scope: 'creator:free~.seal12', horizon: '0' },
    { xid: '14', id: ID(1), scope: 'creator:free~.seal14', horizon: '0' },
  ]);
  expect(pulls()).toBe(0);
});

test('rows that arrive while a pull runs wait for its page: emitted if they follow it, dropped if it had them', () => {
  const { f, emitted, dropped } = feed();
  f.pullStarted(at(10));
  f.arrived(rows(10, 12));
  f.arrived(rows(12, 14));
  expect(emitted).toEqual([]);
  f.pullEnded(at(10), { documents: [{}], checkpoint: at(12) });
  expect(emitted.map((p) => p.checkpoint.xid)).toEqual(['14']);
  // Said, so that whatever waits for them to be written stops waiting.
  expect(dropped).toEqual(['12']);
});

test('a gap asks for a pull; a page without documents leaves RxDB on the checkpoint it had', () => {
  const { f, emitted, pulls } = feed();
  f.arrived(rows(10, 12));
  expect(pulls()).toBe(1);
  f.pullStarted(at(8));
  f.pullEnded(at(8), { documents: [], checkpoint: at(10) });
  expect(emitted).toEqual([]);
  expect(pulls()).toBe(2);
});

test('when RxDB is busy, the asked-for pull takes the waiting rows without a request', () => {
  const { f, emitted, dropped, pulls } = feed(false);
  f.pullStarted(at(8));
  f.pullEnded(at(8), { documents: [{}], checkpoint: at(10) });
  f.arrived(rows(10, 12));
  f.arrived(rows(12, 14));
  expect(emitted).toEqual([]);
  expect(pulls()).toBeGreaterThan(0);
  f.pullStarted(at(10));
  const page = f.take(at(10), 100);
  expect(page?.documents.map((d) => d.id)).toEqual(['deal-12', 'deal-14']);
  expect(page?.checkpoint.xid).toBe('14');
  expect(f.take(at(14), 100)).toBeNull();
  // A pull already past rows that wait: they are dropped, and said to be.
  f.arrived(rows(14, 16));
  f.pullStarted(at(18));
  expect(f.take(at(18), 100)).toBeNull();
  expect(dropped).toEqual(['16']);
});

test('a pull from elsewhere takes nothing that does not follow its checkpoint', () => {
  const { f } = feed(false);
  f.arrived(rows(10, 12));
  f.pullStarted(at(9));
  expect(f.take(at(9), 100)).toBeNull();
});

test('rows that follow a busy RxDB wait for it to be idle; a gap still asks for a pull', () => {
  let idle = false;
  let pulls = 0;
  let waits = 0;
  const emitted: unknown[] = [];
  const f = createStreamedFeed({
    emit: (page) => emitted.push(page),
    pull: () => pulls++,
    canEmit: () => idle,
    whenIdle: () => waits++,
  });
  f.pullStarted(at(8));
  f.pullEnded(at(8), { documents: [{}], checkpoint: at(10) });
  f.arrived(rows(10, 12));
  expect([emitted.length, pulls, waits]).toEqual([0, 0, 1]);
  idle = true;
  f.resume();
  expect([emitted.length, pulls, waits]).toEqual([1, 0, 1]);
  // Rows that do not follow: a pull, however idle or busy RxDB is.
  idle = false;
  f.arrived(rows(20, 22));
  expect([emitted.length, pulls, waits]).toEqual([1, 1, 1]);
});
