/**
 * The ten colour themes ("Themes"). Pure data: `theme.ts` applies them, and
 * `themes.test.ts` checks every pair of colours the UI puts on top of each other for WCAG AA contrast.
 */
export const THEME_NAMES = [
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
] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const DEFAULT_THEME: ThemeName = 'warm';

export type ThemePalette = {
  label: string;
  scheme: 'light' | 'dark';
  /** Page background. */
  bg: string;
  /** Cards, nav bar, inputs. */
  surface: string;
  /** Subtle panels and chips. */
  surface2: string;
  text: string;
  /** Secondary text; still AA on bg, surface and surface2. */
  muted: string;
  border: string;
  /** Buttons, links, focus ring. */
  primary: string;
  /** Text on a primary button. */
  onPrimary: string;
  /** Inline error text on surfaces. */
  danger: string;
  /** Inline success text on surfaces. */
  success: string;
};

const light = { scheme: 'light', surface: '#ffffff', danger: '#b42318', success: '#1d6b38' } as const;

export const THEMES: Record<ThemeName, ThemePalette> = {
  warm: {
    ...light,
    label: 'Warm',
    bg: '#fbf7f2',
    surface2: '#f3ece3',
    text: '#2b211a',
    muted: '#67564a',
    border: '#e2d5c6',
    primary: '#a8431a',
    onPrimary: '#ffffff',
  },
  slate: {
    ...light,
    label: 'Slate',
    bg: '#f5f7fa',
    surface2: '#e9edf2',
    text: '#1b2330',
    muted: '#525d6d',
    border: '#d5dce5',
    primary: '#2f5b8f',
    onPrimary: '#ffffff',
  },
  lavender: {
    ...light,
    label: 'Lavender',
    bg: '#f8f6fc',
    surface2: '#eee9f7',
    text: '#261f36',
    muted: '#5c5370',
    border: '#ddd5ec',
    primary: '#643fab',
    onPrimary: '#ffffff',
  },
  olive: {
    ...light,
    label: 'Olive',
    bg: '#f7f7f0',
    surface2: '#ecece0',
    text: '#23261a',
    muted: '#575b45',
    border: '#d9dac6',
    primary: '#515f1b',
    onPrimary: '#ffffff',
  },
  dark: {
    label: 'Dark',
    scheme: 'dark',
    bg: '#12141a',
    surface: '#1c1f27',
    surface2: '#262a34',
    text: '#eef0f5',
    muted: '#a9b0bf',
    border: '#3a404d',
    primary: '#8ab4ff',
    onPrimary: '#0d1420',
    danger: '#ff8f85',
    success: '#7ddc9c',
  },
  amber: {
    ...light,
    label: 'Amber',
    bg: '#fffaf0',
    surface2: '#fbefd6',
    text: '#2c2210',
    muted: '#66522c',
    border: '#ecdcb8',
    primary: '#8f5400',
    onPrimary: '#ffffff',
  },
  ocean: {
    ...light,
    label: 'Ocean',
    bg: '#f2f8fb',
    surface2: '#e2eff5',
    text: '#0f2633',
    muted: '#48626f',
    border: '#cfe1ea',
    primary: '#0a6381',
    onPrimary: '#ffffff',
  },
  rose: {
    ...light,
    label: 'Rose',
    bg: '#fdf6f7',
    surface2: '#f8e6e9',
    text: '#33191e',
    muted: '#704c56',
    border: '#efd3d9',
    primary: '#a82347',
    onPrimary: '#ffffff',
  },
  forest: {
    ...light,
    label: 'Forest',
    bg: '#f3f7f3',
    surface2: '#e3eee4',
    text: '#15261a',
    muted: '#48604e',
    border: '#cfdfd2',
    primary: '#2d6a3e',
    onPrimary: '#ffffff',
  },
  sunset: {
    ...light,
    label: 'Sunset',
    bg: '#fff6f1',
    surface2: '#fde5d8',
    text: '#301a14',
    muted: '#6e4b3b',
    border: '#f2d2c2',
    primary: '#b5361f',
    onPrimary: '#ffffff',
  },
};

/** Toast backgrounds: the same in every theme, with white text. */
export const TOAST_COLOURS = { error: '#b42318', success: '#1d6b38', text: '#ffffff' } as const;

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
