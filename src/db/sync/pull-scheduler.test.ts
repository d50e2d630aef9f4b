import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { PactaDatabase } from '../create-database.ts';
import { BehaviorSubject } from 'rxjs';
import { createPullScheduler, downstreamIdleWithin } from './pull-scheduler.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** An idle database stand-in and no replication yet: a pull asked for goes out on the next turn. */
function scheduler(stopped = () => false) {
  const resyncs: number[] = [];
  const db = { idleQueue: { isIdle: () => true }, requestIdlePromise: () => Promise.resolve() };
  const pulls = createPullScheduler({
    db: db as unknown as PactaDatabase,
    resync: () => resyncs.push(Date.now()),
    replication: () => undefined,
    stopped,
  });
  return { pulls, resyncs };
}

test('notices that arrive while a pull is held are answered by one pull', async () => {
  const { pulls, resyncs } = scheduler();
  pulls.soon();
  pulls.soon();
  pulls.soon();
  await vi.runAllTimersAsync();
  expect(resyncs).toHaveLength(1);
  pulls.soon();
  await vi.runAllTimersAsync();
  expect(resyncs).toHaveLength(2);
});

test('rows held back on the server are pulled again with a growing delay, which starts over once none are', async () => {
  const { pulls, resyncs } = scheduler();
  const start = Date.now();
  pulls.pending(true);
  await vi.advanceTimersByTimeAsync(200);
  expect(resyncs).toEqual([start + 200]);
  pulls.pending(true);
  await vi.advanceTimersByTimeAsync(200);
  expect(resyncs).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(resyncs).toHaveLength(2);
  pulls.pending(false);
  pulls.pending(true);
  const again = Date.now();
  await vi.advanceTimersByTimeAsync(200);
  expect(resyncs.at(-1)).toBe(again + 200);
});

test('after stop nothing is pulled: timers cleared, a held pull dropped', async () => {
  let stopped = false;
  const { pulls, resyncs } = scheduler(() => stopped);
  pulls.later(300);
  pulls.pending(true);
  stopped = true;
  pulls.stop();
  pulls.soon();
  await vi.runAllTimersAsync();
  expect(resyncs).toEqual([]);
});

test("a notice's pull waits for a busy database only while the collection has local writes to push", async () => {
  // Another collection's first sync keeps the database busy throughout.
  const db = { idleQueue: { isIdle: () => false }, requestIdlePromise: () => new Promise<void>(() => {}) };
  let waiting = false;
  const resyncs: number[] = [];
  const pulls = createPullScheduler({
    db: db as unknown as PactaDatabase,
    resync: () => resyncs.push(Date.now()),
    replication: () => undefined,
    stopped: () => false,
    localChangesWaiting: () => waiting,
  });
  const start = Date.now();
  pulls.soon();
  await vi.advanceTimersByTimeAsync(0);
  expect(resyncs).toEqual([start]);

  waiting = true;
  pulls.soon();
  await vi.advanceTimersByTimeAsync(999);
  expect(resyncs).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(resyncs).toEqual([start, start + 1_000]);
});

/** A replication's downstream as `idleDownstream` reads it: first sync done or not, pulling, pushing. */
function replicationState(firstSyncDone: boolean, pulling: boolean, pushing: boolean) {
  const down = new BehaviorSubject(pulling);
  const up = new BehaviorSubject(pushing);
  const state = {
    internalReplicationState: {
      firstSyncDone: { down: new BehaviorSubject(firstSyncDone) },
      events: { active: { down, up } },
    },
  };
  return { state: state as unknown as Parameters<typeof downstreamIdleWithin>[0], down, up };
}

test('streamed rows wait for a downstream storing a page, and hand over the moment it is idle', async () => {
  const { state, down } = replicationState(true, true, false);
  let idle: boolean | undefined;
  void downstreamIdleWithin(state, 1_000).then((v) => (idle = v));
  await vi.advanceTimersByTimeAsync(300);
  expect(idle).toBeUndefined();
  down.next(false);
  await vi.advanceTimersByTimeAsync(0);
  expect(idle).toBe(true);
});

test('a downstream busy for longer, or still in its first sync, is not waited for', async () => {
  const busy = replicationState(true, false, true);
  let idle: boolean | undefined;
  void downstreamIdleWithin(busy.state, 1_000).then((v) => (idle = v));
  await vi.advanceTimersByTimeAsync(1_000);
  expect(idle).toBe(false);
  await expect(downstreamIdleWithin(replicationState(false, false, false).state, 1_000)).resolves.toBe(false);
});
