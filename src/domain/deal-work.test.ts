import { describe, expect, test } from 'vitest';
import {
  DELIVERABLE_STATUS_TEXT,
  OFFER_SENT,
  TERMS_ACCEPTED,
  applicationStatusText,
  defaultTermsSheet,
  payoutOnHoldText,
} from './deal-work.ts';
import { termsSheet } from './collections/deal-work.ts';

const base = {
  status: 'pending' as const,
  offer_by: null,
  terms_version: 0,
  terms_agreed_version: 0,
  payout_due_at: null,
  delivered_at: null,
};
const day = (iso: string) => iso.slice(0, 10);

describe('the statuses both sides read, word for word', () => {
  test('deliverable statuses', () => {
    expect(Object.values(DELIVERABLE_STATUS_TEXT)).toEqual(
      expect.arrayContaining(['Draft submitted', 'Changes requested', 'Approved', 'Live']),
    );
    expect([OFFER_SENT, TERMS_ACCEPTED, payoutOnHoldText('Dec 4')]).toEqual([
      'Offer sent',
      'Terms accepted',
      'Payout on hold until Dec 4',
    ]);
  });

  test('an application’s line: an offer waiting, terms in force, the payout hold', () => {
    expect(applicationStatusText({ ...base, offer_by: 'brand' }, day)).toBe('Offer sent');
    const accepted = { ...base, status: 'accepted' as const };
    expect(applicationStatusText({ ...accepted, terms_version: 1 }, day)).toBeUndefined();
    expect(applicationStatusText({ ...accepted, terms_version: 1, terms_agreed_version: 1 }, day)).toBe(
      'Terms accepted',
    );
    // A newer version waiting for both sides is not in force yet.
    expect(applicationStatusText({ ...accepted, terms_version: 2, terms_agreed_version: 1 }, day)).toBeUndefined();
    expect(
      applicationStatusText(
        { ...accepted, terms_agreed_version: 1, terms_version: 1, payout_due_at: '2026-12-04T10:00:00.000Z' },
        day,
      ),
    ).toBe('Payout on hold until 2026-12-04');
  });

  test('the default sheet is a valid sheet with one deliverable per item of the brief', () => {
    const sheet = defaultTermsSheet(['Instagram Post', 'TikTok Video'], '2026-12-11');
    expect(termsSheet.parse(sheet)).toEqual(sheet);
    expect(sheet.deliverables.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(defaultTermsSheet([], '2026-12-11').deliverables).toEqual([
      { id: 'd1', title: 'Content', due_date: '2026-12-11' },
    ]);
  });
});
