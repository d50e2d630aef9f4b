import { expect, test } from 'vitest';
import { defaultTermsSheet } from './deal-work.ts';
import { termsChanges } from './terms-sheet-text.ts';

test('a proposed version is shown as the lines it changes against the version in force', () => {
  const v1 = defaultTermsSheet(['Instagram Reel', 'Story'], '2026-12-04');
  const v2 = {
    ...v1,
    deliverables: [
      { ...v1.deliverables[0]!, due_date: '2026-12-11' },
      { id: 'd3', title: 'TikTok', due_date: '2026-12-18' },
    ],
    usage_rights: 'paid_ads' as const,
    usage_days: 30,
    payout_hold_hours: 24,
  };
  expect(termsChanges(v1, v2, (d) => d)).toEqual([
    { label: 'Deliverable', before: 'Instagram Reel, due 2026-12-04', after: 'Instagram Reel, due 2026-12-11' },
    { label: 'Deliverable added', before: '—', after: 'TikTok, due 2026-12-18' },
    { label: 'Deliverable removed', before: 'Story, due 2026-12-04', after: '—' },
    {
      label: 'Usage rights',
      before: 'Organic posts only (no paid ads)',
      after: 'Organic posts and paid ads for 30 days',
    },
    { label: 'Payout hold', before: '3 days', after: '24 hours' },
  ]);
  expect(termsChanges(v1, v1, (d) => d)).toEqual([]);
});
