import { expect, test } from 'vitest';
import { checkpointAfterRows, readStreamEvent, streamEvent } from './change-stream.ts';

test('an event the server writes is read back by the client in the same shape', () => {
  const text = streamEvent('change', { collection: 'deals' });
  expect(text).toBe('event: change\ndata: {"collection":"deals"}\n\n');
  const data = /^data: (.*)$/m.exec(text)![1]!;
  expect(readStreamEvent('change', data)).toEqual({ collection: 'deals' });
});

test('data that is not the contract’s shape is not read', () => {
  expect(readStreamEvent('change', '{"collection":42}')).toBeUndefined();
  expect(readStreamEvent('reconnect', '{"within":-1}')).toBeUndefined();
  expect(readStreamEvent('hello', 'not json')).toBeUndefined();
});

test('rows in the stream are read back, and a device that applies them stands at their end under its own scope', () => {
  const rows = {
    collection: 'deals',
    from: { xid: '10', id: '00000000-0000-0000-0000-000000000001', horizon: '3' },
    to: { xid: '12', id: '00000000-0000-0000-0000-000000000002' },
    seal: '.abc',
    documents: [{ id: '00000000-0000-0000-0000-000000000002', _deleted: false, title: 'New' }],
  };
  const data = /^data: (.*)$/m.exec(streamEvent('rows', rows))![1]!;
  expect(readStreamEvent('rows', data)).toEqual(rows);
  expect(readStreamEvent('rows', JSON.stringify({ ...rows, documents: [] }))).toBeUndefined();
  const held = { xid: '10', id: rows.from.id, scope: 'creator:pro~userSeal', horizon: '3' };
  expect(checkpointAfterRows(held, rows)).toEqual({
    xid: '12',
    id: rows.to.id,
    scope: 'creator:pro~.abc',
    horizon: '3',
  });
});
