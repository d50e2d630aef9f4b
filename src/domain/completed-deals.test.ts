import { expect, test } from 'vitest';
import { isCompletedDealOf } from './completed-deals.ts';

const deal = { status: 'completed' as const, brand_id: 'brand', selected_creator_ids: ['c1', 'c2'] };

test('a completed deal counts for its brand and every selected creator, not for a rejected applicant', () => {
  expect(isCompletedDealOf(deal, 'brand')).toBe(true);
  expect(isCompletedDealOf(deal, 'c1')).toBe(true);
  expect(isCompletedDealOf(deal, 'c2')).toBe(true);
  expect(isCompletedDealOf(deal, 'rejected-creator')).toBe(false);
  expect(isCompletedDealOf({ ...deal, status: 'in_progress' }, 'c1')).toBe(false);
});
