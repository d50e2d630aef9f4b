import { describe, expect, test } from 'vitest';
import {
  COMMISSION_BP,
  PRO_COMMISSION_BP,
  SERVICE_FEE_BP,
  commissionRateOf,
  dealPaymentSummary,
  formatRate,
  formatUsd,
  parseUsdToCents,
  percentOfCents,
  proYearlySavingPercent,
} from './fees.ts';

describe('dealPaymentSummary', () => {
  test('a $1,000 deal with a free creator: brand pays $1,120, creator gets $950', () => {
    expect(dealPaymentSummary(100_000, { creatorIsPro: false })).toEqual({
      amountCents: 100_000,
      serviceFeeCents: 12_000,
      brandTotalCents: 112_000,
      commissionCents: 5_000,
      creatorPayoutCents: 95_000,
      commissionBp: COMMISSION_BP,
    });
  });

  test('a Pro creator pays the lower 2.5% commission', () => {
    const s = dealPaymentSummary(100_000, { creatorIsPro: true });
    expect(s.commissionCents).toBe(2_500);
    expect(s.creatorPayoutCents).toBe(97_500);
    expect(s.commissionBp).toBe(PRO_COMMISSION_BP);
    expect(s.brandTotalCents).toBe(112_000);
  });

  test('rounds half a cent up and keeps every figure an integer that adds up', () => {
    // 2.5% of $0.99 = 2.475 cents → 2; 12% of 99 = 11.88 → 12; 5% of 99 = 4.95 → 5.
    expect(dealPaymentSummary(99, { creatorIsPro: true }).commissionCents).toBe(2);
    expect(dealPaymentSummary(99, { creatorIsPro: false })).toMatchObject({
      serviceFeeCents: 12,
      commissionCents: 5,
      creatorPayoutCents: 94,
    });
    // 5% of 10 cents = 0.5 → 1 (half up); 2.5% of 20 cents = 0.5 → 1.
    expect(percentOfCents(10, COMMISSION_BP)).toBe(1);
    expect(percentOfCents(20, PRO_COMMISSION_BP)).toBe(1);
    for (const amount of [1, 7, 333, 12_345, 99_999_999]) {
      const s = dealPaymentSummary(amount, { creatorIsPro: amount % 2 === 0 });
      for (const v of Object.values(s)) expect(Number.isInteger(v)).toBe(true);
      expect(s.brandTotalCents - s.serviceFeeCents).toBe(amount);
      expect(s.creatorPayoutCents + s.commissionCents).toBe(amount);
    }
  });

  test('rejects amounts that are not whole, non-negative cents', () => {
    expect(() => dealPaymentSummary(10.5, { creatorIsPro: false })).toThrow(RangeError);
    expect(() => dealPaymentSummary(-1, { creatorIsPro: false })).toThrow(RangeError);
    expect(() => dealPaymentSummary(Number.NaN, { creatorIsPro: false })).toThrow(RangeError);
  });

  test('a zero amount has no fees', () => {
    expect(dealPaymentSummary(0, { creatorIsPro: false })).toMatchObject({ brandTotalCents: 0, creatorPayoutCents: 0 });
  });
});

describe('formatting', () => {
  test('rates print as the pages show them', () => {
    expect(formatRate(SERVICE_FEE_BP)).toBe('12%');
    expect(formatRate(COMMISSION_BP)).toBe('5%');
    expect(formatRate(PRO_COMMISSION_BP)).toBe('2.5%');
  });

  test('dollars with thousands separators', () => {
    expect(formatUsd(100_000)).toBe('$1,000.00');
    expect(formatUsd(100_000, { compact: true })).toBe('$1,000');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(-250)).toBe('-$2.50');
  });

  test('parses typed dollar amounts into cents', () => {
    expect(parseUsdToCents('1,250.5')).toBe(125_050);
    expect(parseUsdToCents('$35')).toBe(3_500);
    expect(parseUsdToCents('0.07')).toBe(7);
    expect(parseUsdToCents('1.234')).toBeUndefined();
    expect(parseUsdToCents('abc')).toBeUndefined();
    expect(parseUsdToCents('')).toBeUndefined();
  });
});

describe('proYearlySavingPercent', () => {
  test('$315 a year against 12 × $35 = $420 saves 25%', () => {
    expect(proYearlySavingPercent()).toBe(25);
  });

  test('rounds down and never goes below zero', () => {
    expect(proYearlySavingPercent(1_000, 10_001)).toBe(16);
    expect(proYearlySavingPercent(1_000, 12_000)).toBe(0);
    expect(proYearlySavingPercent(1_000, 13_000)).toBe(0);
  });
});

describe('commissionRateOf', () => {
  test('names the rate a recorded commission was taken at, even where rounding hides it', () => {
    expect(commissionRateOf(40_000, 2_000)).toBe(COMMISSION_BP);
    expect(commissionRateOf(40_000, 1_000)).toBe(PRO_COMMISSION_BP);
    // 2.5% of $3.33 is 8.325 cents, recorded as 8: still the Pro rate, not 2.4%.
    expect(commissionRateOf(333, 8)).toBe(PRO_COMMISSION_BP);
    expect(commissionRateOf(40_000, 1_234)).toBeNull();
  });
});
