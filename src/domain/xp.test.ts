import { expect, test } from 'vitest';
import { LEVEL_THRESHOLDS, MAX_LEVEL, XP_AWARDS, levelForXp, levelProgress } from './xp.ts';

test('awards follow the first XP table', () => {
  expect(XP_AWARDS).toEqual({
    profile_complete: 50,
    deal_apply: 25,
    deal_complete: 100,
    referral_qualified: 75,
    review: 30,
    pro_upgrade: 500,
    first_deal: 300,
  });
});

test('levels start at the spec thresholds and cap at 20', () => {
  expect(MAX_LEVEL).toBe(20);
  expect(levelForXp(0)).toBe(1);
  expect(levelForXp(99)).toBe(1);
  expect(levelForXp(100)).toBe(2);
  expect(levelForXp(4_499)).toBe(9);
  expect(levelForXp(4_500)).toBe(10);
  expect(levelForXp(5_500)).toBe(11);
  expect(levelForXp(19_000)).toBe(20);
  expect(levelForXp(1_000_000)).toBe(20);
  expect(levelForXp(-5)).toBe(1);
  LEVEL_THRESHOLDS.forEach((threshold, i) => expect(levelForXp(threshold)).toBe(i + 1));
});

test('progress shows XP to the next level, and none at the cap', () => {
  expect(levelProgress(150)).toEqual({
    level: 2,
    xp: 150,
    levelStartXp: 100,
    nextLevelXp: 300,
    xpToNextLevel: 150,
    progress: 0.25,
  });
  expect(levelProgress(25_000)).toMatchObject({ level: 20, nextLevelXp: null, xpToNextLevel: 0, progress: 1 });
});
