import { expect, test } from 'vitest';
import { indexChanges } from './search-index.ts';

test('only new and changed documents are sent, and the ids no longer there are removed', () => {
  const key = (d: { id: string; v: number }) => String(d.v);
  const sent = new Map([
    ['a', '1'],
    ['b', '1'],
    ['c', '1'],
  ]);
  const changes = indexChanges(
    sent,
    [
      { id: 'a', v: 1 },
      { id: 'b', v: 2 },
      { id: 'd', v: 1 },
    ],
    key,
  );
  expect(changes.upserts.map((d) => d.id)).toEqual(['b', 'd']);
  expect(changes.removedIds).toEqual(['c']);
  expect([...changes.next]).toEqual([
    ['a', '1'],
    ['b', '2'],
    ['d', '1'],
  ]);
  expect(
    indexChanges(
      changes.next,
      [
        { id: 'a', v: 1 },
        { id: 'b', v: 2 },
        { id: 'd', v: 1 },
      ],
      key,
    ),
  ).toMatchObject({
    upserts: [],
    removedIds: [],
  });
});
