import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * What axe finds that would stop someone using the page: serious or critical findings of WCAG 2.1 A
 * and AA and axe's best practices, each as "rule: the elements it names". `within` narrows the check
 * to one part of the page (a CSS selector), e.g. an open menu.
 */
export async function blockingAxeViolations(page: Page, within?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    // Only violations are read: axe then skips collecting every element that passed.
    .options({ resultTypes: ['violations'] })
    // The app has no cross-origin frames, so axe runs in the page itself: the default mode opens a
    // second page to combine the frames' results, about half a second per check on a busy 2-core machine.
    .setLegacyMode(true);
  if (within) builder = builder.include(within);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
