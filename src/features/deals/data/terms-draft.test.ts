import { expect, test } from 'vitest';
import { defaultTermsSheet } from '../../../domain/deal-work.ts';
import { DealWorkError } from './deal-work-operations.ts';
import { draftFromSheet, parseTermsDraft } from './terms-draft.ts';

const v1 = defaultTermsSheet(['Instagram Reel', 'Story'], '2026-12-04');

test('a proposal keeps the ids of kept deliverables and gives a new one an id never used before', () => {
  const draft = draftFromSheet(v1);
  // d2 was dropped in an earlier version: a new deliverable must not take its id (and its progress).
  const earlier = [v1, { ...v1, deliverables: v1.deliverables.slice(0, 1) }];
  const sheet = parseTermsDraft(
    {
      ...draft,
      deliverables: [draft.deliverables[0]!, { id: null, title: ' TikTok ', dueDate: '2026-12-10' }],
      usageRights: 'paid_ads',
      usageDays: '90',
      exclusivityDays: '30',
    },
    earlier,
    [v1],
  );
  expect(sheet.deliverables).toEqual([
    { id: 'd1', title: 'Instagram Reel', due_date: '2026-12-04' },
    { id: 'd3', title: 'TikTok', due_date: '2026-12-10' },
  ]);
  expect(sheet).toMatchObject({ usage_rights: 'paid_ads', usage_days: 90, exclusivity_days: 30, revision_rounds: 2 });
});

test('a proposal that changes nothing, or is out of bounds, is refused with what to fix', () => {
  const draft = draftFromSheet(v1);
  const refusal = (fields: Partial<typeof draft>) => {
    try {
      parseTermsDraft({ ...draft, ...fields }, [v1], [v1]);
    } catch (err) {
      return err instanceof DealWorkError ? err.message : 'not a DealWorkError';
    }
    return 'accepted';
  };
  expect(refusal({})).toBe('These terms are the same as before: change something first.');
  // Paid-ads days are only read for paid ads: organic only with other days is still the same sheet.
  expect(refusal({ usageDays: '90' })).toBe('These terms are the same as before: change something first.');
  expect(refusal({ revisionRounds: '11' })).toBe('Revision rounds: a whole number from 0 to 10.');
  expect(refusal({ revisionRounds: '1.5' })).toBe('Revision rounds: a whole number from 0 to 10.');
  expect(refusal({ approvalWindowHours: '0' })).toBe('Approval window: a number of hours from 1 to 720.');
  expect(refusal({ usageRights: 'paid_ads', usageDays: '' })).toBe('Paid ads: a number of days from 1 to 3650.');
  expect(refusal({ deliverables: [] })).toBe('Keep at least one deliverable.');
  expect(refusal({ deliverables: [{ id: 'd1', title: '  ', dueDate: '2026-12-04' }] })).toBe(
    'Give every deliverable a title.',
  );
  expect(refusal({ deliverables: [{ id: 'd1', title: 'Reel', dueDate: '' }] })).toBe('Choose a due date for Reel.');
  expect(refusal({ payoutHoldHours: '24' })).toBe('accepted');
});
