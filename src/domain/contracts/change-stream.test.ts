import { expect, test } from 'vitest';
import { readStreamEvent, streamEvent } from './change-stream.ts';

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
