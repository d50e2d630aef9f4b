import { expect, test } from 'vitest';
import { applicationDocument, profileDocument } from '../../../domain/collections/index.ts';
import { applicantFacts, applicantsInOrder, SETTABLE_STATUSES, statusLabel } from './applicant-facts.ts';

const application = (id: string, status: 'pending' | 'accepted' | 'rejected', created_at: string) =>
  applicationDocument.parse({
    id: `0190a0b0-0000-7000-8000-00000000000${id}`,
    deal_id: '0190a0b0-0000-7000-8000-0000000000aa',
    creator_id: `0190a0b0-0000-7000-8000-00000000010${id}`,
    status,
    created_at,
  });

test('an accepted creator stays in the applicants list (no "No applicants yet." beside Applications (1))', () => {
  const accepted = application('1', 'accepted', '2026-11-01T00:00:00.000Z');
  expect(applicantsInOrder([accepted]).map((a) => a.status)).toEqual(['accepted']);
  const mixed = applicantsInOrder([
    application('2', 'rejected', '2026-11-01T00:00:00.000Z'),
    accepted,
    application('3', 'pending', '2026-11-03T00:00:00.000Z'),
  ]);
  expect(mixed.map((a) => a.status)).toEqual(['pending', 'accepted', 'rejected']);
});

test('the status control names statuses, not the verbs that set them', () => {
  expect(SETTABLE_STATUSES.map(statusLabel)).toEqual(['Pending', 'Accepted', 'Rejected']);
});

test('an applicant row says what a brand weighs: followers, niches, rating', () => {
  const profile = profileDocument.parse({
    id: '0190a0b0-0000-7000-8000-000000000101',
    full_name: 'Maya Chen',
    followers: 12_400,
    niches: ['Fitness', 'Travel'],
    rating: 4.75,
  });
  expect(applicantFacts(profile)).toEqual(['12,400 followers', 'Fitness, Travel', '4.8 ★']);
  expect(applicantFacts({ ...profile, rating: 0, niches: [] })).toEqual(['12,400 followers', 'No rating yet']);
});
