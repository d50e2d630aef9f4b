import { formatUsd } from './fees.ts';
import { profileCompleteness, type CompletenessInput } from './profile-completeness.ts';

/**
 * Smart suggestions (spec 001 §9): deal suggestions at 80–120% of the average of the user's completed
 * deals, a budget tip when that average exceeds $500, priorities high / medium / low, at most 5.
 * docs/design.md "suggestions": deterministic per user and day — the spec's "randomised" amount comes from a generator
 * seeded with (user, day), so the dashboard and /suggestions agree and a reload shows the same list.
 */
export const MAX_SUGGESTIONS = 5;
export const NO_SUGGESTIONS_TEXT = 'No suggestions available right now.';
/** A budget tip appears when the average completed deal exceeds this ($500). */
export const BUDGET_TIP_AVERAGE_CENTS = 50_000;
export const SUGGESTION_RANGE = { min: 0.8, max: 1.2 } as const;

export type SuggestionPriority = 'high' | 'medium' | 'low';
export type SmartSuggestion = {
  id: string;
  kind: 'profile' | 'deal' | 'budget' | 'activity';
  priority: SuggestionPriority;
  title: string;
  text: string;
  to: string;
  action: string;
};

export type SuggestionDeal = { id: string; title: string; amount_cents: number; niches: readonly string[] };

export type SuggestionInput = {
  userId: string;
  /** The local calendar day, 'YYYY-MM-DD': suggestions change once a day. */
  day: string;
  role: 'creator' | 'brand';
  profile: CompletenessInput | null;
  /** Amounts of the user's completed deals (as winning creator, or as brand). */
  completedDealAmountsCents: readonly number[];
  /** Open deals a creator could still apply to (not their own applications); ignored for brands. */
  openDeals: readonly SuggestionDeal[];
  /** Applications (creator) or deals (brand) the user has: none yet suggests the first step. */
  activityCount: number;
};

const PRIORITY_ORDER: Record<SuggestionPriority, number> = { high: 0, medium: 1, low: 2 };

/** 32-bit FNV-1a of a string: the seed of the day's generator. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: string): () => number {
  let state = hash(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const roundToDollars = (cents: number, step = 500) => Math.max(100, Math.round(cents / step) * step);

export function smartSuggestions(input: SuggestionInput): SmartSuggestion[] {
  const random = seededRandom(`${input.userId}:${input.day}`);
  const list: SmartSuggestion[] = [];

  // Staff are not asked to complete a member profile (the dashboard's checklist is not shown to them either).
  if (input.profile && input.profile.role !== 'admin') {
    for (const item of profileCompleteness(input.profile).missing) {
      const social = item.key === 'linkedin' || item.key === 'instagram';
      list.push({
        id: `profile-${item.key}`,
        kind: 'profile',
        priority: 'high',
        title: 'Complete your profile',
        text: `${item.label} to complete your profile (+50 XP) and get better matches.`,
        to: social ? '/settings?section=social' : '/settings?section=account',
        action: social ? 'Add link' : 'Edit profile',
      });
    }
  }

  if (input.activityCount === 0) {
    list.push(
      input.role === 'brand'
        ? {
            id: 'first-deal',
            kind: 'activity',
            priority: 'medium',
            title: 'Publish your first deal',
            text: 'Publish a deal and let creators come to you.',
            to: '/deals/new',
            action: 'Create a deal',
          }
        : {
            id: 'first-application',
            kind: 'activity',
            priority: 'medium',
            title: 'Find your first deal',
            text: 'Swipe through open deals that match your niches.',
            to: '/swipe',
            action: 'Swipe deals',
          },
    );
  }

  const amounts = input.completedDealAmountsCents.filter((a) => Number.isFinite(a) && a > 0);
  if (amounts.length > 0) {
    const average = Math.round(amounts.reduce((s, a) => s + a, 0) / amounts.length);
    const factor = SUGGESTION_RANGE.min + random() * (SUGGESTION_RANGE.max - SUGGESTION_RANGE.min);
    const target = roundToDollars(average * factor);
    if (input.role === 'creator') {
      const low = average * SUGGESTION_RANGE.min;
      const high = average * SUGGESTION_RANGE.max;
      const niches = new Set((input.profile?.niches ?? []).map((n) => n.toLowerCase()));
      const fits = input.openDeals
        .filter((d) => d.amount_cents >= low && d.amount_cents <= high)
        .map((d) => ({
          d,
          niche: d.niches.some((n) => niches.has(n.toLowerCase())) ? 0 : 1,
          distance: Math.abs(d.amount_cents - target),
        }))
        .sort((a, b) => a.niche - b.niche || a.distance - b.distance || a.d.id.localeCompare(b.d.id))
        .slice(0, 2);
      for (const { d } of fits) {
        list.push({
          id: `deal-${d.id}`,
          kind: 'deal',
          priority: 'medium',
          title: d.title,
          text:
            `“${d.title}” pays ${formatUsd(d.amount_cents, { compact: true })}, ` +
            `in line with your average completed deal of ${formatUsd(average, { compact: true })}.`,
          to: `/deals/${d.id}`,
          action: 'View deal',
        });
      }
      if (fits.length === 0) {
        list.push({
          id: 'deal-target',
          kind: 'deal',
          priority: 'medium',
          title: 'Pitch for deals like your best ones',
          text: `Look for deals around ${formatUsd(target, { compact: true })}, close to your average completed deal.`,
          to: '/deals',
          action: 'Browse deals',
        });
      }
    } else {
      list.push({
        id: 'deal-target',
        kind: 'deal',
        priority: 'medium',
        title: 'Your next deal',
        text: `Deals around ${formatUsd(target, { compact: true })} match what your completed deals paid.`,
        to: '/deals/new',
        action: 'Create a deal',
      });
    }
    if (average > BUDGET_TIP_AVERAGE_CENTS) {
      list.push(
        input.role === 'brand'
          ? {
              id: 'budget-tip',
              kind: 'budget',
              priority: 'low',
              title: 'Budget tip',
              text:
                `Your completed deals average ${formatUsd(average, { compact: true })}: ` +
                'a campaign brief with several creators spreads that budget further.',
              to: '/campaign/new',
              action: 'Start a brief',
            }
          : {
              id: 'budget-tip',
              kind: 'budget',
              priority: 'low',
              title: 'Budget tip',
              text:
                `Your completed deals average ${formatUsd(average, { compact: true })}: favour brands whose deals pay ` +
                `${formatUsd(roundToDollars(average * SUGGESTION_RANGE.min), { compact: true })} or more.`,
              to: '/brand-matching',
              action: 'Brand Matching',
            },
      );
    }
  }

  return list
    .map((s, i) => ({ s, i }))
    .sort((a, b) => PRIORITY_ORDER[a.s.priority] - PRIORITY_ORDER[b.s.priority] || a.i - b.i)
    .slice(0, MAX_SUGGESTIONS)
    .map(({ s }) => s);
}
