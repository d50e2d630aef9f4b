import { MIN_DEAL_AMOUNT_CENTS, parseUsdToCents } from '../../../domain/fees.ts';
import { PAYOUT_FORMATS } from '../../../domain/collections/index.ts';
import { MAX_DEAL_NICHES } from '../../../domain/niches.ts';
import { deadlineError, localDay } from '../../../domain/deal-deadline.ts';

/** Categories the pickers offer (the seed uses the same ones); a deal may also have none. */
export const DEAL_CATEGORIES = [
  'Sponsored Post',
  'Product Review',
  'Brand Ambassador',
  'Giveaway',
  'Tutorial',
  'Unboxing',
  'Event Coverage',
  'Affiliate',
] as const;

export const MESSAGES = {
  requiredFields: 'Please fill in all required fields.',
  niches: 'Please select at least one niche.',
  tooManyNiches: `Please select at most ${MAX_DEAL_NICHES} niches.`,
  minAmount: 'The amount must be at least $1.',
  invalidAmount: 'Please enter the amount in dollars, for example 250 or 99.50.',
  invalidNumber: 'Please enter a whole number.',
  fundedAmount: 'The amount cannot change once the deal is funded.',
} as const;

export type PayoutFormat = (typeof PAYOUT_FORMATS)[number];

export type CreateDealDraft = {
  title: string;
  description: string;
  amount: string;
  niches: string[];
  requirements: string;
  deadline: string;
  category: string;
  payoutFormat: PayoutFormat;
  isCampaign: boolean;
  totalBudget: string;
  maxCreators: string;
  performanceRate: string;
};

export const EMPTY_CREATE_DRAFT: CreateDealDraft = {
  title: '',
  description: '',
  amount: '',
  niches: [],
  requirements: '',
  deadline: '',
  category: '',
  payoutFormat: 'fixed',
  isCampaign: false,
  totalBudget: '',
  maxCreators: '',
  performanceRate: '',
};

/** What a valid create form becomes: the deal's own fields (ids and owner are added by createDeal). */
export type NewDealFields = {
  title: string;
  description: string;
  amount_cents: number;
  niches: string[];
  requirements: string[];
  deadline: string | null;
  category: string | null;
  payout_format: PayoutFormat;
  is_campaign: boolean;
  budget_cents: number | null;
  max_creators: number | null;
  performance_rate: number | null;
};

export type FormResult<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/** Requirements typed as 'a, b,, c ' → ['a', 'b', 'c'] (split on commas, trimmed, empties dropped). */
export function splitRequirements(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** The amount field: a decimal dollar amount of at least $1, in cents. */
export function parseDealAmount(text: string): FormResult<number> {
  const cents = parseUsdToCents(text);
  if (cents === undefined) return { ok: false, message: MESSAGES.invalidAmount, field: 'amount' };
  if (cents < MIN_DEAL_AMOUNT_CENTS) return { ok: false, message: MESSAGES.minAmount, field: 'amount' };
  return { ok: true, value: cents };
}

function optionalCents(text: string, field: string): FormResult<number | null> {
  if (!text.trim()) return { ok: true, value: null };
  const cents = parseUsdToCents(text);
  return cents === undefined ? { ok: false, message: MESSAGES.invalidAmount, field } : { ok: true, value: cents };
}

function optionalCount(text: string, field: string): FormResult<number | null> {
  if (!text.trim()) return { ok: true, value: null };
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 1 ? { ok: true, value: n } : { ok: false, message: MESSAGES.invalidNumber, field };
}

/**
 * Validates the create-deal form in the order the spec lists the rules. Advanced
 * options only count when the user may see them; performance rate only for a performance-paid
 * campaign.
 */
export function validateCreateDeal(
  draft: CreateDealDraft,
  opts: { advanced: boolean; today?: string },
): FormResult<NewDealFields> {
  if (!draft.title.trim() || !draft.description.trim() || !draft.amount.trim()) {
    return { ok: false, message: MESSAGES.requiredFields };
  }
  const amount = parseDealAmount(draft.amount);
  if (!amount.ok) return amount;
  const deadline = deadlineError(draft.deadline, opts.today ?? localDay());
  if (deadline) return { ok: false, message: deadline, field: 'deadline' };
  if (draft.niches.length === 0) return { ok: false, message: MESSAGES.niches, field: 'niches' };
  if (draft.niches.length > MAX_DEAL_NICHES) return { ok: false, message: MESSAGES.tooManyNiches, field: 'niches' };

  let advanced = {
    payout_format: 'fixed' as PayoutFormat,
    is_campaign: false,
    budget_cents: null as number | null,
    max_creators: null as number | null,
    performance_rate: null as number | null,
  };
  if (opts.advanced) {
    const budget = optionalCents(draft.totalBudget, 'totalBudget');
    if (!budget.ok) return budget;
    const maxCreators = optionalCount(draft.maxCreators, 'maxCreators');
    if (!maxCreators.ok) return maxCreators;
    let performanceRate: number | null = null;
    if (draft.payoutFormat === 'performance' && draft.isCampaign && draft.performanceRate.trim()) {
      const rate = Number(draft.performanceRate.trim());
      if (!Number.isFinite(rate) || rate < 0)
        return {
          ok: false,
          message: 'Please enter the performance rate as a number, for example 5.',
          field: 'performanceRate',
        };
      performanceRate = rate;
    }
    advanced = {
      payout_format: draft.payoutFormat,
      is_campaign: draft.isCampaign,
      budget_cents: budget.value,
      max_creators: maxCreators.value,
      performance_rate: performanceRate,
    };
  }
  return {
    ok: true,
    value: {
      title: draft.title.trim(),
      description: draft.description.trim(),
      amount_cents: amount.value,
      niches: [...draft.niches],
      requirements: splitRequirements(draft.requirements),
      deadline: draft.deadline.trim() || null,
      category: draft.category || null,
      ...advanced,
    },
  };
}

export type EditDealDraft = {
  title: string;
  description: string;
  amount: string;
  requirements: string;
  category: string;
  deadline: string;
  proOnly: boolean;
};

export type EditedDealFields = {
  title: string;
  description: string;
  amount_cents: number;
  requirements: string[];
  category: string | null;
  deadline: string | null;
  pro_only: boolean;
};

/**
 * Edit form: title, description, amount required; requirements comma split. A changed deadline must
 * not have passed; the deadline the deal already has is kept as it is (the server checks only a change).
 */
export function validateEditDeal(
  draft: EditDealDraft,
  saved: { deadline: string | null; amount_cents: number; escrow_status: string },
  today: string = localDay(),
): FormResult<EditedDealFields> {
  if (!draft.title.trim() || !draft.description.trim() || !draft.amount.trim()) {
    return { ok: false, message: MESSAGES.requiredFields };
  }
  const amount = parseDealAmount(draft.amount);
  if (!amount.ok) return amount;
  // The server's rule (deals_money_check): what the brand was charged is what escrow holds.
  if (amount.value !== saved.amount_cents && saved.escrow_status !== 'none') {
    return { ok: false, message: MESSAGES.fundedAmount, field: 'amount' };
  }
  if (draft.deadline.trim() !== (saved.deadline ?? '').trim()) {
    const deadline = deadlineError(draft.deadline, today);
    if (deadline) return { ok: false, message: deadline, field: 'deadline' };
  }
  return {
    ok: true,
    value: {
      title: draft.title.trim(),
      description: draft.description.trim(),
      amount_cents: amount.value,
      requirements: splitRequirements(draft.requirements),
      category: draft.category.trim() || null,
      deadline: draft.deadline.trim() || null,
      pro_only: draft.proOnly,
    },
  };
}
