import { useId } from 'react';
import { useTheme } from '../lib/theme.ts';
import { THEMES, THEME_NAMES, isThemeName } from '../lib/themes.ts';

/**
 * The theme choice. `swatches` is the full picker (Settings › Personalisation); `select` is the compact
 * one in the footer.
 */
export function ThemePicker({ variant = 'swatches' }: { variant?: 'swatches' | 'select' }) {
  const [theme, setTheme] = useTheme();
  const id = useId();
  if (variant === 'select') {
    return (
      <div className="theme-select">
        <label htmlFor={id}>Theme</label>
        <select id={id} value={theme} onChange={(e) => isThemeName(e.target.value) && setTheme(e.target.value)}>
          {THEME_NAMES.map((name) => (
            <option key={name} value={name}>
              {THEMES[name].label}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <fieldset className="theme-swatches">
      <legend className="visually-hidden">Theme</legend>
      {THEME_NAMES.map((name) => (
        <label key={name}>
          <input
            type="radio"
            name={`${id}-theme`}
            value={name}
            checked={theme === name}
            onChange={() => setTheme(name)}
          />
          <span
            className="theme-swatch-dot"
            style={{ background: `linear-gradient(135deg, ${THEMES[name].bg} 50%, ${THEMES[name].primary} 50%)` }}
            aria-hidden="true"
          />
          {THEMES[name].label}
        </label>
      ))}
    </fieldset>
  );
}
