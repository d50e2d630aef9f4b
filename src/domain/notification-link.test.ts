import { expect, test } from 'vitest';
import { notificationLink } from './notification-link.ts';

test('a notification links to what it is about', () => {
  expect(notificationLink({ link: '/inbox/c1', conversation_id: 'c1' })).toBe('/inbox/c1');
  expect(notificationLink({ deal_id: 'd1', application_id: 'a1' })).toBe('/deals/d1');
  expect(notificationLink({ conversation_id: 'c2', deal_id: 'd1' })).toBe('/inbox/c2');
  expect(notificationLink({ ticket_id: 't1' })).toBe('/support');
  expect(notificationLink({ level: 3, xp: 320 })).toBe('/dashboard');
  expect(notificationLink({})).toBe('/notifications');
});

test('never off-site', () => {
  expect(notificationLink({ link: 'https://evil.example/x', deal_id: 'd1' })).toBe('/deals/d1');
  expect(notificationLink({ link: '//evil.example/x' })).toBe('/notifications');
});
