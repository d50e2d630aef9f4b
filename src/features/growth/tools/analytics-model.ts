import type { ApplicationDocument, DealDocument } from '../../../domain/collections/index.ts';
import { dealPaymentSummary } from '../../../domain/fees.ts';
import { lastMonths, percentChange, sumByMonth } from './month-series.ts';

/** How many months the charts cover. */
export const ANALYTICS_MONTHS = 6;

type Deal = Pick<
  DealDocument,
  'id' | 'title' | 'brand_id' | 'amount_cents' | 'niches' | 'status' | 'winner_id' | 'completed_at' | 'created_at'
>;
type Application = Pick<ApplicationDocument, 'deal_id' | 'creator_id' | 'status' | 'created_at'>;

export type NicheComparison = { mineCents: number | null; nicheCents: number | null };

/** Average amount of the open deals in these niches on this device (the market the user sees). */
function nicheAverage(deals: readonly Deal[], niches: readonly string[], exceptBrand?: string): number | null {
  const wanted = new Set(niches.map((n) => n.toLowerCase()));
  const amounts = deals
    .filter(
      (d) => d.status === 'open' && d.brand_id !== exceptBrand && d.niches.some((n) => wanted.has(n.toLowerCase())),
    )
    .map((d) => d.amount_cents);
  return amounts.length ? Math.round(amounts.reduce((a, b) => a + b, 0) / amounts.length) : null;
}

const average = (values: readonly number[]) =>
  values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : null;

export type CreatorAnalytics = {
  applications: number;
  accepted: number;
  /** Applications a brand has answered (accepted or rejected): what the acceptance rate is out of. */
  decided: number;
  /** Accepted (or won) applications out of the decided ones, 0..1; null before any decision. */
  acceptanceRate: number | null;
  earningsByMonth: { month: string; label: string; value: number }[];
  totalEarningsCents: number;
  /** Pro: this month's earnings against last month's, in %. */
  earningsTrend: number | null;
  niche: NicheComparison;
};

/** A creator's analytics from their applications and the deals on the device. Earnings are payouts after commission. */
export function creatorAnalytics(
  userId: string,
  opts: {
    applications: readonly Application[];
    deals: readonly Deal[];
    niches: readonly string[];
    isPro: boolean;
    now: Date;
  },
): CreatorAnalytics {
  const mine = opts.applications.filter((a) => a.creator_id === userId);
  const accepted = mine.filter((a) => a.status === 'accepted').length;
  const decided = mine.filter((a) => a.status === 'accepted' || a.status === 'rejected').length;
  const won = opts.deals.filter((d) => d.status === 'completed' && d.winner_id === userId);
  const months = lastMonths(opts.now, ANALYTICS_MONTHS);
  const payout = (d: Deal) => dealPaymentSummary(d.amount_cents, { creatorIsPro: opts.isPro }).creatorPayoutCents;
  const earningsByMonth = sumByMonth(won, months, (d) => d.completed_at, payout);
  const [previous, current] = earningsByMonth.slice(-2).map((m) => m.value);
  return {
    applications: mine.length,
    accepted,
    decided,
    acceptanceRate: decided ? accepted / decided : null,
    earningsByMonth,
    totalEarningsCents: won.reduce((s, d) => s + payout(d), 0),
    earningsTrend: percentChange(previous ?? 0, current ?? 0),
    niche: { mineCents: average(won.map((d) => d.amount_cents)), nicheCents: nicheAverage(opts.deals, opts.niches) },
  };
}

export type BrandAnalytics = {
  deals: number;
  applicantsPerDeal: { title: string; value: number }[];
  spendByMonth: { month: string; label: string; value: number }[];
  totalSpendCents: number;
  /** Average hours from publishing a deal to its first application; null when no deal has one. */
  hoursToFirstApplicant: number | null;
  /** Pro: deals published this month against last month, in %. */
  dealsTrend: number | null;
  niche: NicheComparison;
};

/** A brand's analytics from its deals and the applications to them on the device. Spend = amount + service fee. */
export function brandAnalytics(
  userId: string,
  opts: { deals: readonly Deal[]; applications: readonly Application[]; niches: readonly string[]; now: Date },
): BrandAnalytics {
  const published = opts.deals.filter((d) => d.brand_id === userId);
  const own = published.filter((d) => d.status !== 'cancelled');
  const months = lastMonths(opts.now, ANALYTICS_MONTHS);
  const completed = own.filter((d) => d.status === 'completed');
  const spend = (d: Deal) => dealPaymentSummary(d.amount_cents, { creatorIsPro: false }).brandTotalCents;
  const firstApplication = new Map<string, number>();
  const applicants = new Map<string, number>();
  for (const a of opts.applications) {
    applicants.set(a.deal_id, (applicants.get(a.deal_id) ?? 0) + 1);
    const at = a.created_at ? Date.parse(a.created_at) : NaN;
    if (Number.isFinite(at)) firstApplication.set(a.deal_id, Math.min(firstApplication.get(a.deal_id) ?? Infinity, at));
  }
  const waits = own
    .map((d) =>
      d.created_at && firstApplication.has(d.id)
        ? (firstApplication.get(d.id)! - Date.parse(d.created_at)) / 3_600_000
        : null,
    )
    .filter((h): h is number => h !== null && Number.isFinite(h) && h >= 0);
  const perMonth = sumByMonth(
    published,
    months,
    (d) => d.created_at,
    () => 1,
  );
  const [previous, current] = perMonth.slice(-2).map((m) => m.value);
  return {
    deals: published.length,
    applicantsPerDeal: [...own]
      .sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''))
      .slice(0, 8)
      .map((d) => ({ title: d.title, value: applicants.get(d.id) ?? 0 })),
    spendByMonth: sumByMonth(completed, months, (d) => d.completed_at, spend),
    totalSpendCents: completed.reduce((s, d) => s + spend(d), 0),
    hoursToFirstApplicant: waits.length
      ? Math.round((waits.reduce((a, b) => a + b, 0) / waits.length) * 10) / 10
      : null,
    dealsTrend: percentChange(previous ?? 0, current ?? 0),
    niche: {
      mineCents: average(own.map((d) => d.amount_cents)),
      nicheCents: nicheAverage(opts.deals, opts.niches, userId),
    },
  };
}
