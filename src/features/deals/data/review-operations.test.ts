import { expect, test } from 'vitest';
import { isPublished, reviewWindowClosesAt, revieweesFor } from './review-operations.ts';

const deal = { brand_id: 'brand', selected_creator_ids: ['c1', 'c2'], status: 'completed' as const };

test('the brand reviews its selected creators, a selected creator the brand, nobody else anyone; only once completed', () => {
  expect(revieweesFor(deal, 'brand')).toEqual(['c1', 'c2']);
  expect(revieweesFor(deal, 'c2')).toEqual(['brand']);
  expect(revieweesFor(deal, 'stranger')).toEqual([]);
  expect(revieweesFor({ ...deal, status: 'in_progress' }, 'brand')).toEqual([]);
});

test('the window closes 14 days after completion; a review shows to others from its publication on', () => {
  expect(reviewWindowClosesAt({ completed_at: '2026-11-01T00:00:00.000Z' })).toBe(
    Date.parse('2026-11-15T00:00:00.000Z'),
  );
  expect(reviewWindowClosesAt({ completed_at: null })).toBeNull();
  const now = Date.parse('2026-11-10T00:00:00.000Z');
  expect(isPublished({ published_at: '2026-11-09T00:00:00.000Z' }, now)).toBe(true);
  expect(isPublished({ published_at: '2026-11-15T00:00:00.000Z' }, now)).toBe(false);
  expect(isPublished({ published_at: null }, now)).toBe(false);
});
