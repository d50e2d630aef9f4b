import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { conversationIdFor, sha256 } from './conversation-id.ts';

test('sha256 matches Node for any input', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      expect(Buffer.from(sha256(bytes)).toString('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    }),
  );
});

test('the id is the same whoever starts the conversation, and differs per deal', () => {
  const a = '0191d0c4-1111-7000-8000-000000000001';
  const b = '0191d0c4-2222-7000-8000-000000000002';
  const deal = '0191d0c4-3333-7000-8000-000000000003';
  expect(conversationIdFor(a, b, deal)).toBe(conversationIdFor(b, a, deal));
  expect(conversationIdFor(a, b, null)).not.toBe(conversationIdFor(a, b, deal));
  expect(conversationIdFor(a, b, deal)).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
});
