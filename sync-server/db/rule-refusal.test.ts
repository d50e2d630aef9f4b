import { expect, test } from 'vitest';
import { ruleRefusal } from './rule-refusal.ts';

test('a PTnnn error is a refusal with status nnn, its code and its sentence; anything else is not', () => {
  expect(ruleRefusal({ code: 'PT409', message: 'kept_deals_full', detail: 'This device keeps 1,000 deals.' })).toEqual({
    status: 409,
    code: 'kept_deals_full',
    message: 'This device keeps 1,000 deals.',
  });
  expect(ruleRefusal({ code: 'PT403', message: 'not_a_participant' })).toEqual({
    status: 403,
    code: 'not_a_participant',
    message: 'not_a_participant',
  });
  expect(ruleRefusal({ code: '23505', message: 'duplicate key' })).toBeUndefined();
  expect(ruleRefusal({ code: 'P0001', message: 'raised' })).toBeUndefined();
  expect(ruleRefusal(new Error('connection lost'))).toBeUndefined();
  expect(ruleRefusal(undefined)).toBeUndefined();
});
