import { expect, test } from 'vitest';
import { CLOSED, nextEnginePhase, type EngineEvent, type EnginePhase } from './engine-state.ts';

const run = (events: EngineEvent[], from: EnginePhase = CLOSED) => events.reduce(nextEnginePhase, from);

test('a database opens, its tab is elected and loses the election, then it closes', () => {
  const u = 'u1';
  expect(run([{ type: 'open', userId: u }])).toEqual({ phase: 'opening', userId: u });
  expect(
    run([
      { type: 'open', userId: u },
      { type: 'opened', userId: u },
    ]),
  ).toEqual({
    phase: 'ready',
    userId: u,
    role: 'follower',
  });
  const ready = run([
    { type: 'open', userId: u },
    { type: 'opened', userId: u },
    { type: 'elected', userId: u },
  ]);
  expect(ready).toEqual({ phase: 'ready', userId: u, role: 'leader' });
  expect(nextEnginePhase(ready, { type: 'yielded', userId: u })).toEqual({
    phase: 'ready',
    userId: u,
    role: 'follower',
  });
  expect(run([{ type: 'close', userId: u }], ready)).toEqual({ phase: 'closing', userId: u });
  expect(
    run(
      [
        { type: 'close', userId: u },
        { type: 'closed', userId: u },
      ],
      ready,
    ),
  ).toBe(CLOSED);
});

test('signing out deletes the database whether or not it is open here', () => {
  expect(run([{ type: 'delete', userId: 'u1' }])).toEqual({ phase: 'deleting', userId: 'u1' });
  const ready = run([
    { type: 'open', userId: 'u1' },
    { type: 'opened', userId: 'u1' },
  ]);
  expect(
    run(
      [
        { type: 'delete', userId: 'u1' },
        { type: 'closed', userId: 'u1' },
      ],
      ready,
    ),
  ).toBe(CLOSED);
  // Deleting another user's leftovers leaves the open database alone.
  expect(nextEnginePhase(ready, { type: 'delete', userId: 'u2' })).toBe(ready);
});

test('a failed open ends closed, so the next open starts again', () => {
  const failed = run([
    { type: 'open', userId: 'u1' },
    { type: 'open_failed', userId: 'u1' },
  ]);
  expect(failed).toBe(CLOSED);
  expect(nextEnginePhase(failed, { type: 'open', userId: 'u1' })).toEqual({ phase: 'opening', userId: 'u1' });
});

test('late answers about a replaced user change nothing; opening the same user again is no new open', () => {
  const second = run([
    { type: 'open', userId: 'u1' },
    { type: 'open', userId: 'u2' },
  ]);
  expect(second).toEqual({ phase: 'opening', userId: 'u2' });
  for (const type of ['opened', 'open_failed', 'elected', 'close', 'closed'] as const)
    expect(nextEnginePhase(second, { type, userId: 'u1' })).toBe(second);
  const ready = run([{ type: 'opened', userId: 'u2' }], second);
  expect(nextEnginePhase(ready, { type: 'open', userId: 'u2' })).toBe(ready);
  // A tab that was not ready cannot be elected into readiness.
  expect(nextEnginePhase(CLOSED, { type: 'elected', userId: 'u1' })).toBe(CLOSED);
  // Opening while the same user's database still closes waits for a fresh open.
  expect(nextEnginePhase({ phase: 'closing', userId: 'u2' }, { type: 'open', userId: 'u2' })).toEqual({
    phase: 'opening',
    userId: 'u2',
  });
});
