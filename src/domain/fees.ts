/**
 * The one fee schedule (docs/design.md "fees"). Every screen and page that shows money around a deal
 * (deal detail, payment summary, commission policy, terms, Pro pages) renders from this module,
 * so no two places can disagree. Money is integer cents; rates are basis points (1% = 100 bp).
 */

/** Brands pay the deal amount plus this service fee. */
export const SERVICE_FEE_BP = 1200;
/** The platform keeps this commission from a free creator's payout. */
export const COMMISSION_BP = 500;
/** The lower commission a Pro creator pays. */
export const PRO_COMMISSION_BP = 250;

/** Pro membership prices (spec: '$35/month or $315/year'). */
export const PRO_MONTHLY_PRICE_CENTS = 3_500;
export const PRO_YEARLY_PRICE_CENTS = 31_500;
export const PRO_TRIAL_DAYS = 7;

/**
 * What the yearly price saves against twelve monthly payments, in whole percent rounded down so
 * the badge never promises more than the prices give ($315 against 12 × $35 = $420: 25%).
 */
export function proYearlySavingPercent(
  monthlyCents: number = PRO_MONTHLY_PRICE_CENTS,
  yearlyCents: number = PRO_YEARLY_PRICE_CENTS,
): number {
  const twelveMonths = monthlyCents * 12;
  if (twelveMonths <= 0 || yearlyCents >= twelveMonths) return 0;
  return Math.floor(((twelveMonths - yearlyCents) * 100) / twelveMonths);
}

/** "Minimum deal amount 1 dollar." */
export const MIN_DEAL_AMOUNT_CENTS = 100;
/**
 * A referral qualifies only on a real deal: funded and released, of at least this amount (the
 * database's public.referral_min_deal_cents). Ten such deals cost $300 in service fees and at least
 * $62.50 in commission, more than the year of Pro ($315) that ten qualified referrals bring.
 */
export const REFERRAL_MIN_DEAL_CENTS = 25_000;
/** Disputes about a payment must be reported within this many days (terms). */
export const DISPUTE_WINDOW_DAYS = 30;

export type PaymentSummary = {
  /** The deal amount the brand agreed to pay the creator. */
  amountCents: number;
  /** The brand's service fee on top of the amount. */
  serviceFeeCents: number;
  /** What the brand is charged: amount + service fee. */
  brandTotalCents: number;
  /** The platform's commission, taken from the amount. */
  commissionCents: number;
  /** What the creator receives: amount − commission. */
  creatorPayoutCents: number;
  /** The commission rate that applied, in basis points. */
  commissionBp: number;
};

function assertCents(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new RangeError(`amountCents must be a non-negative integer number of cents, got ${amountCents}`);
  }
}

/**
 * A percentage of an amount in cents, rounded half up to the nearest cent.
 * Integer arithmetic only, so 0.5-cent cases never depend on floating-point representation.
 */
export function percentOfCents(amountCents: number, bp: number): number {
  assertCents(amountCents);
  return Math.floor((amountCents * bp * 2 + 10_000) / 20_000);
}

export function commissionBpFor(creatorIsPro: boolean): number {
  return creatorIsPro ? PRO_COMMISSION_BP : COMMISSION_BP;
}

/**
 * The rate a recorded commission was taken at (the payout's amount before commission, and the
 * commission): the one of the two rates that gives exactly that commission, or null if neither does.
 * A settled payout shows the rate it was paid at, not the creator's rate today.
 */
export function commissionRateOf(amountCents: number, commissionCents: number): number | null {
  return [PRO_COMMISSION_BP, COMMISSION_BP].find((bp) => percentOfCents(amountCents, bp) === commissionCents) ?? null;
}

/** Everything a payment summary shows for one deal. */
export function dealPaymentSummary(amountCents: number, opts: { creatorIsPro: boolean }): PaymentSummary {
  assertCents(amountCents);
  const commissionBp = commissionBpFor(opts.creatorIsPro);
  const serviceFeeCents = percentOfCents(amountCents, SERVICE_FEE_BP);
  const commissionCents = percentOfCents(amountCents, commissionBp);
  return {
    amountCents,
    serviceFeeCents,
    brandTotalCents: amountCents + serviceFeeCents,
    commissionCents,
    creatorPayoutCents: amountCents - commissionCents,
    commissionBp,
  };
}

/** '12%', '2.5%': a rate in basis points as the pages print it. */
export function formatRate(bp: number): string {
  return `${Number((bp / 100).toFixed(2))}%`;
}

/** '$1,000.00' / '$50' (whole dollars drop the cents when `compact`). */
export function formatUsd(cents: number, opts: { compact?: boolean } = {}): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100);
  const rest = abs % 100;
  const whole = dollars.toLocaleString('en-US');
  const text = opts.compact && rest === 0 ? `$${whole}` : `$${whole}.${String(rest).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** Parses a dollar amount typed by a user ('1,250.5') into cents; undefined when it is not one. */
export function parseUsdToCents(input: string): number | undefined {
  const text = input.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}
