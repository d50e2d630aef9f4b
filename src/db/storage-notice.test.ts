import { expect, test } from 'vitest';
import { withoutStorageNotice } from './storage-notice.ts';

test("only RxDB's storage advertisement is left out; other warnings pass", () => {
  const seen: unknown[][] = [];
  const warn = withoutStorageNotice((...args) => seen.push(args));
  warn(
    '-------------- RxDB Open Core RxStorage -------------------------------\nYou are using the free Dexie.js based RxStorage',
  );
  warn('RxDB: something else', 1);
  warn({ not: 'a string' });
  expect(seen).toEqual([['RxDB: something else', 1], [{ not: 'a string' }]]);
});
