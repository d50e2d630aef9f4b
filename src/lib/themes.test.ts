import { expect, test } from 'vitest';
import { DEFAULT_THEME, THEMES, THEME_NAMES, TOAST_COLOURS, contrastRatio } from './themes.ts';

test('ten themes, warm by default', () => {
  expect(THEME_NAMES).toEqual([
    'warm',
    'slate',
    'lavender',
    'olive',
    'dark',
    'amber',
    'ocean',
    'rose',
    'forest',
    'sunset',
  ]);
  expect(DEFAULT_THEME).toBe('warm');
});

test('contrast ratio of black on white is 21', () => {
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
});

test.each(THEME_NAMES)('theme %s meets WCAG AA for every text colour on every background it sits on', (name) => {
  const t = THEMES[name];
  const pairs: [string, string, string][] = [];
  for (const [bgName, bg] of [
    ['bg', t.bg],
    ['surface', t.surface],
    ['surface2', t.surface2],
  ] as const) {
    for (const [fgName, fg] of [
      ['text', t.text],
      ['muted', t.muted],
      ['primary', t.primary],
      ['danger', t.danger],
      ['success', t.success],
    ] as const) {
      pairs.push([`${fgName} on ${bgName}`, fg, bg]);
    }
  }
  pairs.push(['onPrimary on primary', t.onPrimary, t.primary]);
  const failing = pairs
    .filter(([, fg, bg]) => contrastRatio(fg, bg) < 4.5)
    .map(([label, fg, bg]) => `${label} ${contrastRatio(fg, bg).toFixed(2)}`);
  expect(failing).toEqual([]);
});

test('toast text is readable on both toast colours', () => {
  expect(contrastRatio(TOAST_COLOURS.text, TOAST_COLOURS.error)).toBeGreaterThanOrEqual(4.5);
  expect(contrastRatio(TOAST_COLOURS.text, TOAST_COLOURS.success)).toBeGreaterThanOrEqual(4.5);
});
