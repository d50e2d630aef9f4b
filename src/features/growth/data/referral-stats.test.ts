import { expect, test } from 'vitest';
import { referralStats } from './use-referral-stats.ts';

const me = 'user-me';
const records = [
  { kind: 'referral', user_id: me, data: { qualified: true } },
  { kind: 'referral', user_id: me, data: { qualified: false } },
  { kind: 'referral_reward', user_id: me, data: { amount_cents: 1_000 } },
  { kind: 'referral', user_id: 'someone-else', data: { qualified: true } },
  { kind: 'referral_reward', user_id: 'someone-else', data: { amount_cents: 2_500 } },
  { kind: 'xp_log', user_id: me, data: { xp_gained: 25 } },
] as const;

test('a user counts their own referrals: total, active (qualified) and earnings', () => {
  expect(referralStats(me, records as never)).toEqual({ total: 2, active: 1, earningsCents: 1_000 });
});

test('an admin sees all referrals in the panel', () => {
  expect(referralStats(me, records as never, { everyone: true })).toEqual({
    total: 3,
    active: 2,
    earningsCents: 3_500,
  });
});
