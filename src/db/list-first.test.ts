import { defer, Subject } from 'rxjs';
import { expect, test } from 'vitest';
import { listFirst } from './list-first.ts';

test('the totals are asked for only once the list has its first result, then both stay live', () => {
  const list = new Subject<string[]>();
  const totals = new Subject<number>();
  const seen: { list: string[]; totals?: number }[] = [];
  const sub = listFirst(list, totals).subscribe((v) => seen.push(v));

  expect(totals.observed).toBe(false);
  list.next(['a']);
  expect(totals.observed).toBe(true);
  expect(seen).toEqual([{ list: ['a'], totals: undefined }]);

  totals.next(1);
  list.next(['a', 'b']);
  totals.next(2);
  expect(seen.slice(1)).toEqual([
    { list: ['a'], totals: 1 },
    { list: ['a', 'b'], totals: 1 },
    { list: ['a', 'b'], totals: 2 },
  ]);

  sub.unsubscribe();
  expect(list.observed).toBe(false);
  expect(totals.observed).toBe(false);
});

test('the list is read once, not again for the totals', () => {
  const list = new Subject<string[]>();
  let reads = 0;
  const sub = listFirst(
    defer(() => {
      reads++;
      return list;
    }),
    new Subject<number>(),
  ).subscribe();
  list.next(['a']);
  list.next(['b']);
  expect(reads).toBe(1);
  sub.unsubscribe();
});
