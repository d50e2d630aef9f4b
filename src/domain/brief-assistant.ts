import { parseBudgetCents, type CampaignBrief } from './campaign-brief.ts';

/**
 * The brief assistant (the wizard's side panel): advice from the data already on the device, no
 * outside service, the same answer for the same data.
 */

/** What the assistant reads of a deal and of a profile. */
export type AssistantDeal = { status: string; niches: readonly string[]; amount_cents: number };
export type AssistantCreator = { role: string; niches: readonly string[] };

export type PayFigures = {
  /** Completed deals sharing a niche with the brief. */
  count: number;
  medianCents: number;
  minCents: number;
  maxCents: number;
  /** The usual range: the middle half of those deals (25th to 75th percentile). */
  usualLowCents: number;
  usualHighCents: number;
};

export type ChecklistItem = { label: string; done: boolean; required: boolean };
export type AssistantWarning = { code: 'budget_below_range' | 'timeline_too_short'; message: string };

export type BriefAdvice = {
  pay: PayFigures | null;
  creatorsInNiches: number;
  checklist: ChecklistItem[];
  warnings: AssistantWarning[];
};

/** Fewer similar deals than this and no "usual range" warning is given (too little to go on). */
export const MIN_DEALS_FOR_RANGE = 3;

/**
 * Days a creator needs to produce one deliverable, before the brand's review. Several deliverables
 * are produced mostly in parallel: the longest one, plus a day for each further one, plus the
 * brand's review of drafts.
 */
export const PRODUCTION_DAYS: Record<string, number> = {
  'Instagram Post': 3,
  'Instagram Story': 1,
  'TikTok Video': 4,
  'YouTube Video': 10,
  'Blog Post': 5,
  'Twitter Post': 1,
};
export const REVIEW_DAYS = 3;
export const TIMELINE_DAYS: Record<string, number> = {
  '1 week': 7,
  '2 weeks': 14,
  '1 month': 30,
  '2 months': 60,
  '3+ months': 90,
};

/** The value at fraction `p` of sorted values, interpolated between neighbours, rounded to a cent. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of nothing');
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low));
}

export function payFigures(deals: readonly AssistantDeal[], niches: readonly string[]): PayFigures | null {
  const wanted = new Set(niches);
  const amounts = deals
    .filter((d) => d.status === 'completed' && d.niches.some((n) => wanted.has(n)))
    .map((d) => d.amount_cents)
    .sort((a, b) => a - b);
  if (amounts.length === 0) return null;
  return {
    count: amounts.length,
    medianCents: percentile(amounts, 0.5),
    minCents: amounts[0]!,
    maxCents: amounts.at(-1)!,
    usualLowCents: percentile(amounts, 0.25),
    usualHighCents: percentile(amounts, 0.75),
  };
}

/** Days needed for the deliverables: the longest, a day per further one, and the brand's review. */
export function daysNeeded(deliverables: readonly string[]): number {
  const days = deliverables.map((d) => PRODUCTION_DAYS[d]).filter((d): d is number => d !== undefined);
  if (days.length === 0) return 0;
  return Math.max(...days) + (days.length - 1) + REVIEW_DAYS;
}

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: cents % 100 ? 2 : 0 })}`;

function shortestTimelineFor(days: number): string | null {
  return Object.entries(TIMELINE_DAYS).find(([, d]) => d >= days)?.[0] ?? null;
}

export function adviseBrief(
  brief: CampaignBrief,
  deals: readonly AssistantDeal[],
  creators: readonly AssistantCreator[],
): BriefAdvice {
  const niches = brief.niches;
  const pay = niches.length ? payFigures(deals, niches) : null;
  const wanted = new Set(niches);
  const creatorsInNiches = niches.length
    ? creators.filter((c) => c.role === 'creator' && c.niches.some((n) => wanted.has(n))).length
    : 0;
  const budget = parseBudgetCents(brief.budget);

  const checklist: ChecklistItem[] = [
    { label: 'Campaign title', done: brief.title.trim() !== '', required: true },
    { label: 'Niches (1 to 3)', done: niches.length >= 1 && niches.length <= 3, required: true },
    { label: 'Campaign goals', done: brief.goals.trim() !== '', required: true },
    { label: 'Deliverables', done: brief.deliverables.length > 0, required: true },
    { label: 'Budget per creator', done: budget !== null && budget >= 5_000, required: true },
    { label: 'Timeline', done: brief.timeline in TIMELINE_DAYS, required: true },
    { label: 'Target audience', done: brief.target_audience.trim() !== '', required: false },
    { label: 'Key messaging', done: brief.key_messaging.trim() !== '', required: false },
    { label: 'Brand guidelines', done: brief.brand_guidelines.trim() !== '', required: false },
    { label: 'Product URL', done: brief.product_url.trim() !== '', required: false },
  ];

  const warnings: AssistantWarning[] = [];
  if (pay && pay.count >= MIN_DEALS_FOR_RANGE && budget !== null && budget < pay.usualLowCents) {
    warnings.push({
      code: 'budget_below_range',
      message:
        `Your budget of ${dollars(budget)} is below the usual range for ${niches.join(', ')} ` +
        `(${dollars(pay.usualLowCents)}–${dollars(pay.usualHighCents)}): expect fewer applications.`,
    });
  }
  const needed = daysNeeded(brief.deliverables);
  const available = TIMELINE_DAYS[brief.timeline];
  if (available !== undefined && needed > available) {
    const enough = shortestTimelineFor(needed);
    const what = brief.deliverables.length === 1 ? brief.deliverables[0] : `${brief.deliverables.length} deliverables`;
    warnings.push({
      code: 'timeline_too_short',
      message:
        `${brief.timeline} is short for ${what}: creators usually need about ${needed} days ` +
        `including your review${enough ? `; consider ${enough}` : ''}.`,
    });
  }
  return { pay, creatorsInNiches, checklist, warnings };
}
