import { expect, test } from 'vitest';
import { createFeedTurns } from './feed-turns.ts';

/** A promise and the functions that settle it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const turn = () => new Promise<void>((r) => setTimeout(r, 0));

test('a feed is read only once the pushes in flight are answered', async () => {
  const turns = createFeedTurns();
  const answer = deferred<string>();
  const log: string[] = [];
  const pushed = turns.push(() => answer.promise).then((v) => log.push(`push ${v}`));
  const read = turns.readFeed(async () => log.push('feed read'));
  await turn();
  expect(log).toEqual([]);
  answer.resolve('answered');
  await Promise.all([pushed, read]);
  expect(log).toEqual(['push answered', 'feed read']);
});

test.each([
  ['while a feed is read', true],
  ['in the same moment as a feed read', false],
])('a push asked for %s waits for the read to end', async (_when, readStartsFirst) => {
  const turns = createFeedTurns();
  const feed = deferred();
  const log: string[] = [];
  const read = turns.readFeed(async () => {
    log.push('read started');
    await feed.promise;
    log.push('read ended');
  });
  if (readStartsFirst) await turn();
  const pushed = turns.push(async () => log.push('push sent'));
  await turn();
  expect(log).toEqual(['read started']);
  feed.resolve();
  await Promise.all([read, pushed]);
  expect(log).toEqual(['read started', 'read ended', 'push sent']);
});

test('a failed push or read does not hold the other side', async () => {
  const turns = createFeedTurns();
  await expect(turns.push(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
  await expect(turns.readFeed(() => Promise.reject(new Error('dropped')))).rejects.toThrow('dropped');
  await expect(turns.push(async () => 'sent')).resolves.toBe('sent');
  await expect(turns.readFeed(async () => 'read')).resolves.toBe('read');
});

test('pushes do not wait for one another', async () => {
  const turns = createFeedTurns();
  const first = deferred<string>();
  const slow = turns.push(() => first.promise);
  await expect(turns.push(async () => 'second')).resolves.toBe('second');
  first.resolve('first');
  await expect(slow).resolves.toBe('first');
});
