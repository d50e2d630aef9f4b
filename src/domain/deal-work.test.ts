import { describe, expect, test } from 'vitest';
import {
  DELIVERABLE_STATUS_TEXT,
  OFFER_SENT,
  TERMS_ACCEPTED,
  applicationStatusText,
  defaultTermsSheet,
  payoutOnHoldText,
  whatWaitsOn,
} from './deal-work.ts';
import { termsSheet, type DeliverableWork } from './collections/deal-work.ts';

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

describe('what waits on whom', () => {
  const work = (status: DeliverableWork['status']): DeliverableWork => ({
    status,
    rounds_used: 0,
    rounds_included: 2,
    draft_id: null,
    live_id: null,
    live_url: null,
    confirm_due_at: null,
  });
  const accepted = {
    status: 'accepted' as const,
    offer_by: null,
    terms_version: 1,
    terms_accepted_by: [] as ('creator' | 'brand')[],
    terms_agreed_version: 1,
    work: {},
  };

  test('an offer waits on the side that did not make it', () => {
    const pending = { ...accepted, status: 'pending' as const, offer_by: 'brand' as const, terms_version: 0 };
    expect(whatWaitsOn(pending, 'creator')).toEqual([{ step: 'answer_offer' }]);
    expect(whatWaitsOn(pending, 'brand')).toEqual([]);
  });

  test('new terms wait on whoever has not accepted them', () => {
    const v2 = { ...accepted, terms_version: 2, terms_accepted_by: ['brand' as const] };
    expect(whatWaitsOn(v2, 'creator')).toEqual([{ step: 'accept_terms', version: 2 }]);
    expect(whatWaitsOn(v2, 'brand')).toEqual([]);
  });

  test('drafts to review wait on the brand; revisions and live links on the creator', () => {
    const app = {
      ...accepted,
      work: { d1: work('draft_submitted'), d2: work('changes_requested'), d3: work('approved'), d4: work('live') },
    };
    expect(whatWaitsOn(app, 'brand')).toEqual([{ step: 'review_draft', deliverableId: 'd1' }]);
    expect(whatWaitsOn(app, 'creator')).toEqual([
      { step: 'revise_draft', deliverableId: 'd2' },
      { step: 'submit_live_link', deliverableId: 'd3' },
    ]);
  });
});
