import { parseUsdToCents } from '../../../domain/fees.ts';
import type { DealSelector } from '../data/deal-queries.ts';
import { OPEN_UNTIL } from '../../../domain/collections/index.ts';

export type DealFilterValues = { category: string; minAmount: string; maxAmount: string; niches: string[] };

export const NO_FILTERS: DealFilterValues = { category: '', minAmount: '', maxAmount: '', niches: [] };

export const hasFilters = (f: DealFilterValues): boolean =>
  !!(f.category || f.minAmount.trim() || f.maxAmount.trim() || f.niches.length);

/**
 * Which deals a creator may see: open ones, and Pro-only ones only for Pro members (admins see all).
 * A selector the open-deals indexes serve (status, then pro_only).
 */
export function visibleToCreator(opts: { isPro: boolean; isAdmin: boolean }): DealSelector {
  return opts.isPro || opts.isAdmin ? { status: 'open' } : { status: 'open', pro_only: false };
}

/**
 * Deals whose deadline has not passed on `today` (the user's calendar day, YYYY-MM-DD): no deadline,
 * today or later, or the free text of an older deal. A deal past its deadline refuses applications,
 * so the list, its recommendations and the swipe deck never offer it.
 *
 * The condition is on the deal's derived last day (`open_until`, OPEN_UNTIL), not on `deadline`: it
 * has an index with the status, so the list's total stays a count of index keys. (Closing such deals
 * on the server instead would change the brand's deal and its money for a rule about what is offered,
 * and the server only knows a day has ended once it has ended everywhere on Earth; the device knows
 * the creator's own today.)
 */
function deadlineNotPassed(today: string): DealSelector {
  return { [OPEN_UNTIL]: { $gte: today } } as DealSelector;
}

/** The deals offered to a creator on `today`: those they may see whose deadline has not passed. */
export function offeredToCreator(opts: { isPro: boolean; isAdmin: boolean; today: string }): DealSelector {
  return { ...visibleToCreator(opts), ...deadlineNotPassed(opts.today) };
}

/**
 * The deals list filters over the deals a creator may see: category equal, amount within [min, max]
 * dollars (an unreadable bound is ignored), and at least one of the chosen niches. The local
 * database walks the visible deals newest first and stops at the page's last card.
 */
export function filterDeals(visible: DealSelector, f: DealFilterValues): DealSelector {
  const min = f.minAmount.trim() ? parseUsdToCents(f.minAmount) : undefined;
  // A maximum below the minimum is shown as an error and does not filter (amountFilterErrors).
  const maxRead = f.maxAmount.trim() ? parseUsdToCents(f.maxAmount) : undefined;
  const max = maxRead !== undefined && min !== undefined && maxRead < min ? undefined : maxRead;
  const selector: DealSelector = { ...visible };
  if (f.category) selector.category = f.category;
  if (min !== undefined || max !== undefined)
    selector.amount_cents = {
      ...(min !== undefined ? { $gte: min } : {}),
      ...(max !== undefined ? { $lte: max } : {}),
    };
  // A deal's niches are a list: $in matches a deal having any of the chosen ones.
  if (f.niches.length) selector.niches = { $in: [...f.niches] };
  return selector;
}

export type AmountFilterErrors = { minAmount?: string; maxAmount?: string };

const NOT_AN_AMOUNT = 'Enter an amount in dollars, for example 250.';

/**
 * What is wrong with the amount filters, by field: a bound that is not an amount, or a minimum above
 * the maximum. A field with an error does not filter (filterDeals ignores an unreadable bound).
 */
export function amountFilterErrors(f: Pick<DealFilterValues, 'minAmount' | 'maxAmount'>): AmountFilterErrors {
  const errors: AmountFilterErrors = {};
  const min = f.minAmount.trim() ? parseUsdToCents(f.minAmount) : null;
  const max = f.maxAmount.trim() ? parseUsdToCents(f.maxAmount) : null;
  if (min === undefined) errors.minAmount = NOT_AN_AMOUNT;
  if (max === undefined) errors.maxAmount = NOT_AN_AMOUNT;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    errors.maxAmount = 'The maximum must be at least the minimum.';
  return errors;
}
