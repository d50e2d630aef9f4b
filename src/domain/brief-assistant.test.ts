import { expect, test } from 'vitest';
import { EMPTY_BRIEF, type CampaignBrief } from './campaign-brief.ts';
import { adviseBrief, daysNeeded, payFigures, percentile, type AssistantDeal } from './brief-assistant.ts';

const deal = (amountDollars: number, niches: string[], status = 'completed'): AssistantDeal => ({
  status,
  niches,
  amount_cents: amountDollars * 100,
});
const deals = [
  deal(100, ['Fitness']),
  deal(200, ['Fitness', 'Health']),
  deal(300, ['Outdoors']),
  deal(400, ['Fitness']),
  deal(1000, ['Fitness']),
  deal(5000, ['Fitness'], 'open'), // not completed: ignored
  deal(9000, ['Gaming']), // another niche: ignored
];
const brief: CampaignBrief = {
  ...EMPTY_BRIEF,
  title: 'Trail',
  niches: ['Fitness', 'Outdoors'],
  goals: 'Reach',
  deliverables: ['Instagram Post'],
  budget: '250',
  timeline: '2 weeks',
};

test('percentiles interpolate between neighbours', () => {
  expect(percentile([100], 0.5)).toBe(100);
  expect(percentile([100, 200], 0.5)).toBe(150);
  expect(percentile([10, 20, 30, 40, 50], 0.25)).toBe(20);
  expect(percentile([10, 20, 30, 40], 0.75)).toBe(33);
});

test('what completed deals in the chosen niches paid: median and ranges', () => {
  expect(payFigures(deals, ['Fitness', 'Outdoors'])).toEqual({
    count: 5,
    medianCents: 30_000,
    minCents: 10_000,
    maxCents: 100_000,
    usualLowCents: 20_000,
    usualHighCents: 40_000,
  });
  expect(payFigures(deals, ['Pets'])).toBeNull();
});

test('creators in the niches, and the checklist of what is missing', () => {
  const creators = [
    { role: 'creator', niches: ['Fitness'] },
    { role: 'creator', niches: ['Outdoors', 'Travel'] },
    { role: 'creator', niches: ['Gaming'] },
    { role: 'brand', niches: ['Fitness'] },
  ];
  const advice = adviseBrief(brief, deals, creators);
  expect(advice.creatorsInNiches).toBe(2);
  expect(advice.checklist.filter((i) => !i.done).map((i) => i.label)).toEqual([
    'Target audience',
    'Key messaging',
    'Brand guidelines',
    'Product URL',
  ]);
  const empty = adviseBrief(EMPTY_BRIEF, deals, creators);
  expect(empty.pay).toBeNull();
  expect(empty.creatorsInNiches).toBe(0);
  expect(empty.checklist.filter((i) => i.required && !i.done)).toHaveLength(6);
  expect(empty.warnings).toEqual([]);
});

test("a budget below the niche's usual range is warned about, given enough deals", () => {
  expect(adviseBrief(brief, deals, []).warnings).toEqual([]);
  const low = adviseBrief({ ...brief, budget: '150' }, deals, []);
  expect(low.warnings).toEqual([
    {
      code: 'budget_below_range',
      message:
        'Your budget of $150 is below the usual range for Fitness, Outdoors ($200–$400): expect fewer applications.',
    },
  ]);
  // Two deals are too few to call anything usual.
  expect(
    adviseBrief({ ...brief, niches: ['Health'], budget: '60' }, [deal(500, ['Health']), deal(600, ['Health'])], [])
      .warnings,
  ).toEqual([]);
});

test('a deadline too short for the deliverables is warned about', () => {
  expect(daysNeeded([])).toBe(0);
  expect(daysNeeded(['Instagram Story'])).toBe(4);
  expect(daysNeeded(['YouTube Video', 'Instagram Post', 'Twitter Post'])).toBe(15);
  const tight = adviseBrief(
    { ...brief, deliverables: ['YouTube Video', 'Instagram Post', 'Twitter Post'], timeline: '1 week' },
    deals,
    [],
  );
  expect(tight.warnings).toEqual([
    {
      code: 'timeline_too_short',
      message:
        '1 week is short for 3 deliverables: creators usually need about 15 days including your review; consider 1 month.',
    },
  ]);
  expect(adviseBrief({ ...brief, deliverables: ['YouTube Video'], timeline: '2 weeks' }, deals, []).warnings).toEqual(
    [],
  );
  expect(
    adviseBrief({ ...brief, deliverables: ['YouTube Video'], timeline: '1 week' }, deals, []).warnings[0]!.message,
  ).toBe(
    '1 week is short for YouTube Video: creators usually need about 13 days including your review; consider 2 weeks.',
  );
});
