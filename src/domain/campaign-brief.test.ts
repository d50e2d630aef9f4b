import { expect, test } from 'vitest';
import {
  BRIEF_MESSAGES,
  EMPTY_BRIEF,
  briefFrom,
  briefToDeal,
  firstInvalidStep,
  isValidUrl,
  parseBudgetCents,
  validateBrief,
  validateStep,
  type CampaignBrief,
} from './campaign-brief.ts';

const valid: CampaignBrief = {
  ...EMPTY_BRIEF,
  title: 'Trail shoes launch',
  niches: ['Fitness', 'Outdoors'],
  goals: 'Show the shoes on real trails.',
  deliverables: ['TikTok Video', 'Instagram Story'],
  budget: '250',
  timeline: '1 month',
};

test('step 1: title required, 1 to 3 niches, goals required, product URL optional but valid', () => {
  expect(validateStep(EMPTY_BRIEF, 0)).toEqual({
    title: BRIEF_MESSAGES.titleRequired,
    niches: BRIEF_MESSAGES.nichesRequired,
    goals: BRIEF_MESSAGES.goalsRequired,
  });
  expect(validateStep({ ...valid, title: '   ' }, 0)).toEqual({ title: BRIEF_MESSAGES.titleRequired });
  expect(validateStep({ ...valid, niches: ['Fitness', 'Food', 'Travel', 'Music'] }, 0)).toEqual({
    niches: BRIEF_MESSAGES.tooManyNiches,
  });
  expect(validateStep({ ...valid, niches: ['Fitness', 'Food', 'Travel'] }, 0)).toEqual({});
  expect(validateStep({ ...valid, niches: ['Knitting'] }, 0)).toEqual({ niches: BRIEF_MESSAGES.nichesRequired });
  expect(validateStep({ ...valid, product_url: 'shop dot com' }, 0)).toEqual({
    product_url: BRIEF_MESSAGES.invalidUrl,
  });
  expect(validateStep({ ...valid, product_url: 'https://shop.example.com/p?x=1' }, 0)).toEqual({});
});

test('step 2: deliverables required, from the six types; the rest optional', () => {
  expect(validateStep({ ...valid, deliverables: [] }, 1)).toEqual({
    deliverables: BRIEF_MESSAGES.deliverablesRequired,
  });
  expect(validateStep({ ...valid, deliverables: ['Podcast'] }, 1)).toEqual({
    deliverables: BRIEF_MESSAGES.deliverablesRequired,
  });
  expect(validateStep(valid, 1)).toEqual({});
});

test('step 3: budget required, numeric, at least $50; timeline one of five', () => {
  expect(validateStep({ ...valid, budget: '' }, 2)).toEqual({ budget: BRIEF_MESSAGES.budgetRequired });
  expect(validateStep({ ...valid, budget: '12a' }, 2)).toEqual({ budget: BRIEF_MESSAGES.budgetNotNumber });
  expect(validateStep({ ...valid, budget: '49.99' }, 2)).toEqual({ budget: BRIEF_MESSAGES.budgetTooLow });
  expect(validateStep({ ...valid, budget: '50' }, 2)).toEqual({});
  expect(validateStep({ ...valid, timeline: '6 weeks' }, 2)).toEqual({ timeline: BRIEF_MESSAGES.timelineRequired });
  expect(validateStep(valid, 3)).toEqual({});
});

test('the whole brief, and the first step to fix', () => {
  expect(validateBrief(valid)).toEqual({});
  expect(firstInvalidStep(valid)).toBe(-1);
  expect(firstInvalidStep({ ...valid, timeline: '' })).toBe(2);
  expect(Object.keys(validateBrief(EMPTY_BRIEF)).sort()).toEqual([
    'budget',
    'deliverables',
    'goals',
    'niches',
    'timeline',
    'title',
  ]);
});

test('budgets and URLs as people type them', () => {
  expect(parseBudgetCents('$1,200')).toBe(120_000);
  expect(parseBudgetCents(' 249.99 ')).toBe(24_999);
  expect(parseBudgetCents('1e3')).toBeNull();
  expect(parseBudgetCents('-60')).toBeNull();
  expect(isValidUrl('http://localhost:8080/x')).toBe(true);
  expect(isValidUrl('ftp://example.com')).toBe(false);
  expect(isValidUrl('https://example')).toBe(false);
});

test('a valid brief becomes a campaign deal; the goals fill the description', () => {
  expect(briefToDeal({ ...valid, product_url: ' https://example.com ', key_messaging: '  ' })).toEqual({
    title: 'Trail shoes launch',
    description: 'Show the shoes on real trails.',
    amount_cents: 25_000,
    niches: ['Fitness', 'Outdoors'],
    deliverables: ['Instagram Story', 'TikTok Video'],
    timeline: '1 month',
    product_url: 'https://example.com',
    target_audience: null,
    key_messaging: null,
    brand_guidelines: null,
    is_campaign: true,
  });
  expect(() => briefToDeal(EMPTY_BRIEF)).toThrow();
});

test('stored draft values of the wrong type read as empty', () => {
  expect(briefFrom({ title: 5, niches: ['Fitness', 3], budget: '80' })).toEqual({
    ...EMPTY_BRIEF,
    niches: ['Fitness'],
    budget: '80',
  });
});
