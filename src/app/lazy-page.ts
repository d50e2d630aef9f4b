import { lazy, type ComponentType } from 'react';

/** React.lazy for a named export: `lazyPage(() => import('./about-page.tsx'), 'AboutPage')`. */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
