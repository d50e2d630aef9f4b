import { expect, test } from 'vitest';
import { emptyConversationText } from './conversation-texts.ts';

test('an empty conversation greets a name ending in a full stop with one full stop, not two', () => {
  expect(emptyConversationText('Northwind Outdoor Co.')).toBe('No messages yet. Say hello to Northwind Outdoor Co.');
  expect(emptyConversationText('Maya Chen')).toBe('No messages yet. Say hello to Maya Chen.');
});
