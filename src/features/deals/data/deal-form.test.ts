import { expect, test } from 'vitest';
import {
  EMPTY_CREATE_DRAFT,
  MESSAGES,
  parseDealAmount,
  splitRequirements,
  validateCreateDeal,
  validateEditDeal,
  type CreateDealDraft,
} from './deal-form.ts';

const valid: CreateDealDraft = {
  ...EMPTY_CREATE_DRAFT,
  title: ' Reel ',
  description: 'A reel',
  amount: '250',
  niches: ['Fitness'],
};

test('requirements are split on commas, trimmed, empty items dropped', () => {
  expect(splitRequirements(' one reel, ,two stories ,, ')).toEqual(['one reel', 'two stories']);
  expect(splitRequirements('')).toEqual([]);
});

test('the amount is a decimal dollar amount of at least $1, stored in cents', () => {
  expect(parseDealAmount('1')).toEqual({ ok: true, value: 100 });
  expect(parseDealAmount('1,250.5')).toEqual({ ok: true, value: 125_050 });
  expect(parseDealAmount('$99.99')).toEqual({ ok: true, value: 9_999 });
  expect(parseDealAmount('0.99')).toMatchObject({ ok: false, message: MESSAGES.minAmount });
  expect(parseDealAmount('ten')).toMatchObject({ ok: false, message: MESSAGES.invalidAmount });
  expect(parseDealAmount('1.999')).toMatchObject({ ok: false });
});

test('create: required fields first, then niches (1 to 5)', () => {
  expect(validateCreateDeal({ ...valid, title: '  ' }, { advanced: false })).toEqual({
    ok: false,
    message: 'Please fill in all required fields.',
  });
  expect(validateCreateDeal({ ...valid, amount: '' }, { advanced: false })).toEqual({
    ok: false,
    message: 'Please fill in all required fields.',
  });
  expect(validateCreateDeal({ ...valid, niches: [] }, { advanced: false })).toMatchObject({
    ok: false,
    message: 'Please select at least one niche.',
  });
  expect(validateCreateDeal({ ...valid, niches: ['A', 'B', 'C', 'D', 'E', 'F'] }, { advanced: false })).toMatchObject({
    ok: false,
  });
  const ok = validateCreateDeal(
    { ...valid, niches: ['A', 'B', 'C', 'D', 'E'], requirements: 'a, b', deadline: ' ' },
    { advanced: false },
  );
  expect(ok).toEqual({
    ok: true,
    value: expect.objectContaining({
      title: 'Reel',
      amount_cents: 25_000,
      requirements: ['a', 'b'],
      deadline: null,
      category: null,
      payout_format: 'fixed',
      is_campaign: false,
    }),
  });
});

test('create: the performance rate only counts for a performance-paid campaign', () => {
  const draft = {
    ...valid,
    payoutFormat: 'performance' as const,
    isCampaign: false,
    performanceRate: '5',
    totalBudget: '1000',
    maxCreators: '3',
  };
  expect(validateCreateDeal(draft, { advanced: true })).toMatchObject({
    ok: true,
    value: { performance_rate: null, budget_cents: 100_000, max_creators: 3 },
  });
  expect(validateCreateDeal({ ...draft, isCampaign: true }, { advanced: true })).toMatchObject({
    ok: true,
    value: { performance_rate: 5, is_campaign: true },
  });
  expect(validateCreateDeal({ ...draft, maxCreators: '0' }, { advanced: true })).toMatchObject({
    ok: false,
    field: 'maxCreators',
  });
  // Without the advanced options the defaults apply whatever the hidden fields hold.
  expect(validateCreateDeal(draft, { advanced: false })).toMatchObject({
    ok: true,
    value: { payout_format: 'fixed', budget_cents: null },
  });
});

test('edit: title, description and amount required; comma-split requirements; free-text deadline', () => {
  const base = {
    title: 'T',
    description: 'D',
    amount: '12.5',
    requirements: 'x, , y',
    category: ' ',
    deadline: 'End of March',
    proOnly: true,
  };
  const saved = { deadline: 'End of March', amount_cents: 1_250, escrow_status: 'none' };
  expect(validateEditDeal(base, saved)).toEqual({
    ok: true,
    value: {
      title: 'T',
      description: 'D',
      amount_cents: 1_250,
      requirements: ['x', 'y'],
      category: null,
      deadline: 'End of March',
      pro_only: true,
    },
  });
  expect(validateEditDeal({ ...base, description: '' }, saved)).toEqual({
    ok: false,
    message: 'Please fill in all required fields.',
  });
});

test('edit predicts the server: a funded deal keeps its amount; a changed deadline must not have passed', () => {
  const draft = {
    title: 'T',
    description: 'D',
    amount: '300',
    requirements: '',
    category: '',
    deadline: '2020-01-01',
    proOnly: false,
  };
  const funded = { deadline: '2020-01-01', amount_cents: 25_000, escrow_status: 'pending' };
  expect(validateEditDeal(draft, funded, '2026-11-27')).toEqual({
    ok: false,
    message: 'The amount cannot change once the deal is funded.',
    field: 'amount',
  });
  // The deadline it already has is kept as it is; a new past one is refused.
  expect(validateEditDeal({ ...draft, amount: '250' }, funded, '2026-11-27')).toMatchObject({ ok: true });
  expect(validateEditDeal({ ...draft, amount: '250', deadline: '2026-11-26' }, funded, '2026-11-27')).toMatchObject({
    ok: false,
    message: 'The deadline has passed. Pick today or a later date.',
    field: 'deadline',
  });
});

test('create refuses a deadline that has passed', () => {
  const draft = { ...EMPTY_CREATE_DRAFT, title: 'T', description: 'D', amount: '100', niches: ['Fitness'] };
  expect(validateCreateDeal({ ...draft, deadline: '2020-01-01' }, { advanced: false, today: '2026-11-27' })).toEqual({
    ok: false,
    message: 'The deadline has passed. Pick today or a later date.',
    field: 'deadline',
  });
  expect(
    validateCreateDeal({ ...draft, deadline: '2026-11-27' }, { advanced: false, today: '2026-11-27' }),
  ).toMatchObject({ ok: true });
});
