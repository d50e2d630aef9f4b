/**
 * XP awards and levels (docs/design.md "XP awards": the spec's first table; levels 1–20, 20 is the cap).
 * The server awards XP (a trigger/function); the UI only displays it with these same numbers.
 */
export const XP_AWARDS = {
  profile_complete: 50,
  deal_apply: 25,
  deal_complete: 100,
  referral_qualified: 75,
  review: 30,
  pro_upgrade: 500,
  first_deal: 300,
} as const;

/** The XP needed to reach level n is LEVEL_THRESHOLDS[n - 1]. */
export const LEVEL_THRESHOLDS = [
  0, 100, 300, 600, 1000, 1500, 2100, 2800, 3600, 4500, 5500, 6600, 7800, 9100, 10500, 12000, 13600, 15300, 17100,
  19000,
] as const;

export const MAX_LEVEL = LEVEL_THRESHOLDS.length;

export function levelForXp(xp: number): number {
  const total = Math.max(0, Math.floor(xp));
  let level = 1;
  for (let i = 1; i < LEVEL_THRESHOLDS.length; i++) {
    if (total >= LEVEL_THRESHOLDS[i]!) level = i + 1;
  }
  return level;
}

export type LevelProgress = {
  level: number;
  xp: number;
  /** XP at which the current level started. */
  levelStartXp: number;
  /** XP needed for the next level; null at the cap. */
  nextLevelXp: number | null;
  /** XP still missing for the next level (0 at the cap). */
  xpToNextLevel: number;
  /** 0..1 through the current level (1 at the cap). */
  progress: number;
};

/** What the XP progress bar shows: level and XP to the next level. */
export function levelProgress(xp: number): LevelProgress {
  const total = Math.max(0, Math.floor(xp));
  const level = levelForXp(total);
  const levelStartXp = LEVEL_THRESHOLDS[level - 1]!;
  const nextLevelXp = level < MAX_LEVEL ? LEVEL_THRESHOLDS[level]! : null;
  if (nextLevelXp === null) return { level, xp: total, levelStartXp, nextLevelXp, xpToNextLevel: 0, progress: 1 };
  return {
    level,
    xp: total,
    levelStartXp,
    nextLevelXp,
    xpToNextLevel: nextLevelXp - total,
    progress: (total - levelStartXp) / (nextLevelXp - levelStartXp),
  };
}
