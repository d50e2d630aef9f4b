/**
 * How the deal's work prints its dates: due dates are calendar days ('YYYY-MM-DD'), shown as the
 * weekday when within the coming week ("due Friday"), otherwise as the date; instants (a clock's end)
 * as the date.
 */
export function dueDayText(day: string, now: Date = new Date()): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const due = new Date(y, m - 1, d);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const days = Math.round((due.getTime() - today.getTime()) / 86_400_000);
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days > 1 && days < 7) return due.toLocaleDateString('en-US', { weekday: 'long' });
  return due.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
}

/** 'December 4, 2026' */
export function instantDateText(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
