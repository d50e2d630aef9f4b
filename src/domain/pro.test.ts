import { describe, expect, test } from 'vitest';
import { hasGrantedFeatureNow, isProNow } from './pro.ts';

const now = Date.parse('2026-11-23T12:00:00Z');
const later = '2026-12-23T12:00:00Z';
const earlier = '2026-10-23T12:00:00Z';

describe('is this user Pro now', () => {
  test('a paid tier counts while its end date has not passed; no end date is open-ended', () => {
    expect(isProNow({ pro_tier: 'basic', pro_until: later }, now)).toBe(true);
    expect(isProNow({ pro_tier: 'premium', pro_until: null }, now)).toBe(true);
    expect(isProNow({ pro_tier: 'basic', pro_until: earlier }, now)).toBe(false);
    expect(isProNow({ pro_tier: 'basic', pro_until: new Date(now).toISOString() }, now)).toBe(false);
    expect(isProNow({ pro_tier: 'free', pro_until: later }, now)).toBe(false);
  });

  test('an unexpired grant of Pro access counts; other features and ended grants do not', () => {
    expect(isProNow({ pro_tier: 'free', granted_pro_features: { pro_deals: later } }, now)).toBe(true);
    expect(isProNow({ pro_tier: 'free', granted_pro_features: { pro_deals: null } }, now)).toBe(true);
    expect(isProNow({ pro_tier: 'free', granted_pro_features: { pro_deals: earlier } }, now)).toBe(false);
    expect(isProNow({ pro_tier: 'free', granted_pro_features: { priority_support: later } }, now)).toBe(false);
    expect(hasGrantedFeatureNow({ granted_pro_features: { priority_support: later } }, 'priority_support', now)).toBe(
      true,
    );
  });

  test('nobody, or a profile not synced yet, is not Pro', () => {
    expect(isProNow(null, now)).toBe(false);
    expect(isProNow({}, now)).toBe(false);
  });
});
