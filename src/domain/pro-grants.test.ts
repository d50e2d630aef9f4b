import { expect, test } from 'vitest';
import { PERMANENT_GRANT, isProGrantActive, proGrantUntil } from './pro-grants.ts';

const grant = (feature: string, expires_at: string | null, user_id = 'me') => ({ kind: 'pro_feature', user_id, data: { feature, expires_at } });

test('the latest pro_deals grant of the user decides; other features and users do not', () => {
  expect(proGrantUntil('me', [])).toBeNull();
  expect(proGrantUntil('me', [grant('lower_commission', '2030-01-01T00:00:00Z'), grant('pro_deals', '2030-01-01T00:00:00Z', 'you')])).toBeNull();
  expect(proGrantUntil('me', [grant('pro_deals', '2027-01-01T00:00:00Z'), grant('pro_deals', '2028-01-01T00:00:00Z')])).toBe('2028-01-01T00:00:00Z');
  expect(proGrantUntil('me', [grant('pro_deals', null)])).toBe(PERMANENT_GRANT);
});

test('a grant is active until its end', () => {
  const now = Date.parse('2026-11-23T00:00:00Z');
  expect(isProGrantActive('2027-11-23T00:00:00Z', now)).toBe(true);
  expect(isProGrantActive('2026-11-23T00:00:00Z', now)).toBe(false);
  expect(isProGrantActive(PERMANENT_GRANT, now)).toBe(true);
  expect(isProGrantActive(null, now)).toBe(false);
});
