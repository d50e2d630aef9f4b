import { expect, test } from 'vitest';
import { payoutRows } from './payout-history.ts';

const reward = (id: string, user_id: string, data: Record<string, unknown>) => ({
  id,
  kind: 'referral_reward' as const,
  user_id,
  data,
});

test('own rewards only, underscores as spaces, paid_at else issued_at, newest first, filtered by status', () => {
  const docs = [
    reward('a', 'me', {
      reward_type: 'pro_subscription',
      amount_cents: 1000,
      status: 'paid',
      issued_at: '2026-09-01T00:00:00Z',
      paid_at: '2026-10-01T00:00:00Z',
    }),
    reward('b', 'me', {
      reward_type: 'deal_earnings_share',
      amount_cents: 1250,
      status: 'pending',
      issued_at: '2026-11-20T00:00:00Z',
      paid_at: null,
    }),
    reward('c', 'you', {
      reward_type: 'pro_subscription',
      amount_cents: 1000,
      status: 'pending',
      issued_at: '2026-11-21T00:00:00Z',
    }),
    { id: 'd', kind: 'referral' as const, user_id: 'me', data: {} },
  ];
  expect(payoutRows('me', docs, 'all')).toEqual([
    { id: 'b', type: 'deal earnings share', amountCents: 1250, status: 'pending', date: '2026-11-20T00:00:00Z' },
    { id: 'a', type: 'pro subscription', amountCents: 1000, status: 'paid', date: '2026-10-01T00:00:00Z' },
  ]);
  expect(payoutRows('me', docs, 'pending').map((r) => r.id)).toEqual(['b']);
  expect(payoutRows('me', docs, 'paid').map((r) => r.id)).toEqual(['a']);
});
