/** Months as 'YYYY-MM' (UTC, as the server stamps times), for charts by month. */
export function monthKey(iso: string): string | null {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The last `count` months up to and including the month of `now`, oldest first. */
export function lastMonths(now: Date, count: number): string[] {
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'Nov 2026' for '2026-11'. */
export function monthLabel(key: string): string {
  const [y, m] = key.split('-');
  return `${MONTH_NAMES[Number(m) - 1] ?? m} ${y}`;
}

/** Sums `value` of each item into its month, over the given months (0 where none). */
export function sumByMonth<T>(
  items: readonly T[],
  months: readonly string[],
  at: (item: T) => string | null | undefined,
  value: (item: T) => number,
) {
  const totals = new Map(months.map((m) => [m, 0]));
  for (const item of items) {
    const iso = at(item);
    const key = iso ? monthKey(iso) : null;
    if (key && totals.has(key)) totals.set(key, totals.get(key)! + value(item));
  }
  return months.map((month) => ({ month, label: monthLabel(month), value: totals.get(month)! }));
}

/** Percentage change from `before` to `after`; null when there is nothing to compare with. */
export function percentChange(before: number, after: number): number | null {
  if (before === 0) return null;
  return Math.round(((after - before) / before) * 100);
}
