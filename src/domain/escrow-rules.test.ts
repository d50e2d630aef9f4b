import { describe, expect, test } from 'vitest';
import { ESCROW_STATUSES } from './collections/marketplace.ts';
import { ESCROW_RULES, escrowAllows, escrowRefusal } from './escrow-rules.ts';

describe('the one escrow table', () => {
  test('each escrow state allows exactly its actions', () => {
    const allowed = Object.fromEntries(
      ESCROW_STATUSES.map((s) => [
        s,
        Object.keys(ESCROW_RULES).filter((a) => ESCROW_RULES[a as keyof typeof ESCROW_RULES].escrow.includes(s)),
      ]),
    );
    expect(allowed).toEqual({
      none: ['fund'],
      pending: ['release', 'dispute', 'requestCancel', 'consentCancel'],
      released: [],
      refunded: [],
      disputed: ['resolve'],
    });
  });

  test('refusals say why, in the order the server asks', () => {
    expect(escrowRefusal('release', { escrowStatus: 'pending', dealStatus: 'in_progress' })?.code).toBe(
      'deal_not_completed',
    );
    expect(escrowRefusal('release', { escrowStatus: 'disputed', dealStatus: 'completed' })?.code).toBe('deal_disputed');
    expect(escrowRefusal('release', { escrowStatus: 'none', dealStatus: 'completed' })?.code).toBe('not_funded');
    expect(escrowRefusal('fund', { escrowStatus: 'pending', dealStatus: 'cancelled' })?.code).toBe('deal_closed');
    expect(escrowRefusal('dispute', { escrowStatus: 'released', dealStatus: 'completed' })?.code).toBe(
      'already_released',
    );
    expect(escrowRefusal('release', { escrowStatus: 'pending', dealStatus: 'completed' })).toBeUndefined();
  });

  test('the panel’s flags: who may act', () => {
    const completed = { escrowStatus: 'pending' as const, dealStatus: 'completed' as const };
    expect(escrowAllows('release', 'brand', completed)).toBe(true);
    expect(escrowAllows('release', 'creator', completed)).toBe(false);
    expect(escrowAllows('dispute', 'creator', completed)).toBe(true);
    expect(escrowAllows('resolve', 'admin', completed)).toBe(false);
    expect(escrowAllows('fund', undefined, { escrowStatus: 'none', dealStatus: 'open' })).toBe(false);
  });
});
