import { DEAL_TIMELINES } from './collections/marketplace.ts';
import { NICHES } from './niches.ts';

/** The wizard's deliverable types (spec 001 §3, "Deliverable types (6)"). */
export const DELIVERABLE_TYPES = [
  'Instagram Post',
  'Instagram Story',
  'TikTok Video',
  'YouTube Video',
  'Blog Post',
  'Twitter Post',
] as const;
/** "Timeline options (5)": the same five as a deal's timeline. */
export const BRIEF_TIMELINES = DEAL_TIMELINES;
export type BriefTimeline = (typeof BRIEF_TIMELINES)[number];

export const BRIEF_STEPS = [
  'Campaign Overview',
  'Content Requirements',
  'Budget & Timeline',
  'Review & Submit',
] as const;
export const MAX_BRIEF_NICHES = 3;
/** "Minimum budget per creator 50 dollars." */
export const MIN_BRIEF_BUDGET_CENTS = 5_000;

/** A brief as the wizard edits it: text as typed (the budget too, so "12a" can be reported). */
export type CampaignBrief = {
  title: string;
  niches: string[];
  goals: string;
  product_url: string;
  target_audience: string;
  deliverables: string[];
  key_messaging: string;
  brand_guidelines: string;
  budget: string;
  timeline: string;
};
export type BriefField = keyof CampaignBrief;

export const EMPTY_BRIEF: CampaignBrief = {
  title: '',
  niches: [],
  goals: '',
  product_url: '',
  target_audience: '',
  deliverables: [],
  key_messaging: '',
  brand_guidelines: '',
  budget: '',
  timeline: '',
};

/** Which fields each step holds (step 4 reviews them all). */
export const STEP_FIELDS: readonly (readonly BriefField[])[] = [
  ['title', 'niches', 'goals', 'product_url', 'target_audience'],
  ['deliverables', 'key_messaging', 'brand_guidelines'],
  ['budget', 'timeline'],
  [],
];

export const BRIEF_MESSAGES = {
  titleRequired: 'Enter a campaign title.',
  titleTooLong: 'Keep the title under 200 characters.',
  nichesRequired: 'Choose at least one niche.',
  tooManyNiches: 'Choose up to 3 niches.',
  goalsRequired: 'Describe the campaign goals.',
  invalidUrl: 'Enter a valid URL, like https://example.com.',
  deliverablesRequired: 'Choose at least one deliverable.',
  budgetRequired: 'Enter the budget per creator.',
  budgetNotNumber: 'The budget must be a number, like 250.',
  budgetTooLow: 'The budget per creator must be at least $50.',
  timelineRequired: 'Choose a timeline.',
} as const;

export type BriefErrors = Partial<Record<BriefField, string>>;

/** A brief from stored draft values: anything missing or of the wrong type takes the empty value. */
export function briefFrom(values: Record<string, unknown>): CampaignBrief {
  const text = (k: BriefField) => (typeof values[k] === 'string' ? (values[k] as string) : '');
  const list = (k: BriefField) =>
    Array.isArray(values[k]) ? (values[k] as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  return {
    title: text('title'),
    niches: list('niches'),
    goals: text('goals'),
    product_url: text('product_url'),
    target_audience: text('target_audience'),
    deliverables: list('deliverables'),
    key_messaging: text('key_messaging'),
    brand_guidelines: text('brand_guidelines'),
    budget: text('budget'),
    timeline: text('timeline'),
  };
}

/** A web address: http(s), a host name with a dot (or localhost), no spaces. */
export function isValidUrl(value: string): boolean {
  const text = value.trim();
  if (/\s/.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return (
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(url.hostname) ||
    url.hostname === 'localhost'
  );
}

/** The budget in cents, or null when it is not a plain amount ("250", "249.99", "$1,200"). */
export function parseBudgetCents(value: string): number | null {
  const text = value
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const cents = Math.round(Number(text) * 100);
  return Number.isSafeInteger(cents) ? cents : null;
}

function fieldError(brief: CampaignBrief, field: BriefField): string | undefined {
  switch (field) {
    case 'title':
      if (!brief.title.trim()) return BRIEF_MESSAGES.titleRequired;
      return brief.title.trim().length > 200 ? BRIEF_MESSAGES.titleTooLong : undefined;
    case 'niches': {
      const known = brief.niches.filter((n) => (NICHES as readonly string[]).includes(n));
      if (known.length === 0) return BRIEF_MESSAGES.nichesRequired;
      return known.length > MAX_BRIEF_NICHES ? BRIEF_MESSAGES.tooManyNiches : undefined;
    }
    case 'goals':
      return brief.goals.trim() ? undefined : BRIEF_MESSAGES.goalsRequired;
    case 'product_url':
      return brief.product_url.trim() && !isValidUrl(brief.product_url) ? BRIEF_MESSAGES.invalidUrl : undefined;
    case 'deliverables':
      return brief.deliverables.some((d) => (DELIVERABLE_TYPES as readonly string[]).includes(d))
        ? undefined
        : BRIEF_MESSAGES.deliverablesRequired;
    case 'budget': {
      if (!brief.budget.trim()) return BRIEF_MESSAGES.budgetRequired;
      const cents = parseBudgetCents(brief.budget);
      if (cents === null) return BRIEF_MESSAGES.budgetNotNumber;
      return cents < MIN_BRIEF_BUDGET_CENTS ? BRIEF_MESSAGES.budgetTooLow : undefined;
    }
    case 'timeline':
      return (BRIEF_TIMELINES as readonly string[]).includes(brief.timeline)
        ? undefined
        : BRIEF_MESSAGES.timelineRequired;
    default:
      return undefined;
  }
}

/** Errors of one step (0-based), by field; empty when the step may be left. */
export function validateStep(brief: CampaignBrief, step: number): BriefErrors {
  const errors: BriefErrors = {};
  for (const field of STEP_FIELDS[step] ?? []) {
    const message = fieldError(brief, field);
    if (message) errors[field] = message;
  }
  return errors;
}

/** Errors of the whole brief (what Create Campaign checks). */
export function validateBrief(brief: CampaignBrief): BriefErrors {
  return Object.assign({}, ...STEP_FIELDS.map((_, step) => validateStep(brief, step))) as BriefErrors;
}

/** The first step with an error, or -1. */
export function firstInvalidStep(brief: CampaignBrief): number {
  return STEP_FIELDS.findIndex((_, step) => Object.keys(validateStep(brief, step)).length > 0);
}

const optional = (text: string) => (text.trim() ? text.trim() : null);

/**
 * The deal a valid brief creates: a campaign; the goals fill the description; the budget per
 * creator is the amount. Call only when `validateBrief` is empty.
 */
export function briefToDeal(brief: CampaignBrief) {
  const amount = parseBudgetCents(brief.budget);
  if (amount === null) throw new Error('briefToDeal needs a valid brief');
  return {
    title: brief.title.trim(),
    description: brief.goals.trim(),
    amount_cents: amount,
    niches: brief.niches.filter((n) => (NICHES as readonly string[]).includes(n)).slice(0, MAX_BRIEF_NICHES),
    deliverables: DELIVERABLE_TYPES.filter((d) => brief.deliverables.includes(d)),
    timeline: brief.timeline as BriefTimeline,
    product_url: optional(brief.product_url),
    target_audience: optional(brief.target_audience),
    key_messaging: optional(brief.key_messaging),
    brand_guidelines: optional(brief.brand_guidelines),
    is_campaign: true,
  };
}
