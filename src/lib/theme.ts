import { useSyncExternalStore } from 'react';
import { DEFAULT_THEME, THEMES, isThemeName, type ThemeName } from './themes.ts';

/** The choice is stored locally (spec: "stored locally, default warm"); it is a device preference, not synced. */
export const THEME_STORAGE_KEY = 'pacta.theme';

const listeners = new Set<() => void>();

export function readStoredTheme(): ThemeName {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeName(stored) ? stored : DEFAULT_THEME;
  } catch {
    // Storage can be unavailable (privacy modes); the default theme still works.
    return DEFAULT_THEME;
  }
}

let current: ThemeName = DEFAULT_THEME;

/** Writes the palette into CSS custom properties on <html>; styles only ever read `var(--…)`. */
export function applyTheme(name: ThemeName): void {
  const palette = THEMES[name];
  const root = document.documentElement;
  root.dataset.theme = name;
  root.style.colorScheme = palette.scheme;
  const vars: Record<string, string> = {
    '--bg': palette.bg,
    '--surface': palette.surface,
    '--surface-2': palette.surface2,
    '--text': palette.text,
    '--muted': palette.muted,
    '--border': palette.border,
    '--primary': palette.primary,
    '--on-primary': palette.onPrimary,
    '--danger': palette.danger,
    '--success': palette.success,
  };
  for (const [key, value] of Object.entries(vars)) root.style.setProperty(key, value);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', palette.bg);
  current = name;
}

export function setTheme(name: ThemeName): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, name);
  } catch {
    // Not persisted, but still applied for this visit.
  }
  applyTheme(name);
  for (const listener of listeners) listener();
}

/** Applies the stored theme; called once before the first render. */
export function initTheme(): void {
  applyTheme(readStoredTheme());
  // Another tab changing the theme changes this one too.
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) {
      applyTheme(readStoredTheme());
      for (const listener of listeners) listener();
    }
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): [ThemeName, (name: ThemeName) => void] {
  const theme = useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULT_THEME,
  );
  return [theme, setTheme];
}
