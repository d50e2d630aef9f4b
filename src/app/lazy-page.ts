import { isValidElement, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { markBoot } from '../lib/boot-marks.ts';
import { importOrReload } from '../lib/code-reload.ts';

/** A page whose code loads on first use, and can be asked to start loading before it renders. */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload(): void };

/** React.lazy for a named export: `lazyPage(() => import('./about-page.tsx'), 'AboutPage')`. */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyPage {
  let loading: Promise<M> | undefined;
  // One load shared by the preload and the render. A failed one reloads the page once; after that it is
  // forgotten, so the error screen's next try asks again.
  const once = () =>
    (loading ??= importOrReload(load).catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const page = lazy(async () => {
    const module = await once();
    markBoot('page-code-loaded');
    return { default: module[name] as ComponentType };
  });
  return Object.assign(page, { preload: () => void once().catch(() => {}) });
}

/**
 * Starts loading the code of the page `element` renders, if it is a lazy page: a guard that waits for
 * the session calls it, so the page's code arrives while the session is restored, not after.
 */
export function preloadPage(element: ReactNode): void {
  if (!isValidElement(element)) return;
  const type = element.type as Partial<LazyPage>;
  if (typeof type.preload === 'function') type.preload();
}
