import type { DealDocument } from '../../../domain/collections/index.ts';
import { parseUsdToCents } from '../../../domain/fees.ts';

export type DealFilterValues = { category: string; minAmount: string; maxAmount: string; niches: string[] };

export const NO_FILTERS: DealFilterValues = { category: '', minAmount: '', maxAmount: '', niches: [] };

export const hasFilters = (f: DealFilterValues): boolean => !!(f.category || f.minAmount.trim() || f.maxAmount.trim() || f.niches.length);

/**
 * The deals list filters: category equal, amount within [min, max] dollars (an unreadable bound is
 * ignored), and at least one of the chosen niches.
 */
export function filterDeals(deals: readonly DealDocument[], f: DealFilterValues): DealDocument[] {
  const min = f.minAmount.trim() ? parseUsdToCents(f.minAmount) : undefined;
  const max = f.maxAmount.trim() ? parseUsdToCents(f.maxAmount) : undefined;
  const niches = new Set(f.niches);
  return deals.filter(
    (d) =>
      (!f.category || d.category === f.category) &&
      (min === undefined || d.amount_cents >= min) &&
      (max === undefined || d.amount_cents <= max) &&
      (niches.size === 0 || d.niches.some((n) => niches.has(n))),
  );
}

/** Which deals a creator may see: open ones, and Pro-only ones only for Pro members (admins see all). */
export function visibleToCreator(deals: readonly DealDocument[], opts: { isPro: boolean; isAdmin: boolean }): DealDocument[] {
  return deals.filter((d) => d.status === 'open' && (!d.pro_only || opts.isPro || opts.isAdmin));
}
