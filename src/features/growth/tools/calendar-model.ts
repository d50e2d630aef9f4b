import type { DealDocument } from '../../../domain/collections/index.ts';

export type CalendarEvent = {
  dealId: string;
  title: string;
  date: string;
  estimated: boolean;
  status: DealDocument['status'];
};

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30 };
const TIMELINE_DAYS: Record<string, number> = {
  '1 week': 7,
  '2 weeks': 14,
  '1 month': 30,
  '2 months': 60,
  '3+ months': 90,
};

/**
 * A deal's deadline as a calendar day 'YYYY-MM-DD'. The deadline is free text: a date ('2026-12-01',
 * 'Dec 1, 2026') is taken as written; a phrase counted from when the deal was published ('Within 2
 * weeks', 'Within 30 days', 'End of next month', 'Before the holidays') or, failing that, the deal's
 * timeline gives an estimated day. Null when nothing gives a day.
 */
export function deadlineDay(
  deadline: string | null | undefined,
  publishedAt?: string | null,
  timeline?: string | null,
): { day: string; estimated: boolean } | null {
  const text = deadline?.trim() ?? '';
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return { day: `${iso[1]}-${iso[2]}-${iso[3]}`, estimated: false };
  if (/\d{4}/.test(text) && Number.isFinite(Date.parse(`${text} UTC`)))
    return { day: dayOf(new Date(Date.parse(`${text} UTC`))), estimated: false };
  const from = publishedAt ? Date.parse(publishedAt) : NaN;
  if (!Number.isFinite(from)) return null;
  const start = new Date(from);
  const within = /within\s+(\d+)\s+(day|week|month)s?/i.exec(text);
  if (within)
    return {
      day: dayOf(new Date(from + Number(within[1]) * UNIT_DAYS[within[2]!.toLowerCase()]! * 86_400_000)),
      estimated: true,
    };
  if (/end of next month/i.test(text))
    return { day: dayOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 2, 0))), estimated: true };
  if (/end of (this |the )?month/i.test(text))
    return { day: dayOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0))), estimated: true };
  if (/holidays/i.test(text)) {
    const year =
      start.getUTCMonth() === 11 && start.getUTCDate() > 24 ? start.getUTCFullYear() + 1 : start.getUTCFullYear();
    return { day: `${year}-12-24`, estimated: true };
  }
  const days = timeline ? TIMELINE_DAYS[timeline] : undefined;
  return days ? { day: dayOf(new Date(from + days * 86_400_000)), estimated: true } : null;
}

/** Weeks (Monday first) of the month `year`-`month` (1–12): each day 'YYYY-MM-DD' or null outside it. */
export function monthGrid(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offset = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: offset }, () => null);
  for (let d = 1; d <= days; d++) cells.push(`${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/**
 * The user's deals on the calendar: a creator's accepted deals, a brand's own deals and campaigns
 * (cancelled ones left out). Returns dated events and the deals whose deadline is not a date.
 */
export function calendarEvents(
  userId: string,
  role: 'creator' | 'brand',
  deals: readonly Pick<
    DealDocument,
    'id' | 'title' | 'brand_id' | 'deadline' | 'timeline' | 'created_at' | 'status' | 'selected_creator_ids'
  >[],
): { dated: CalendarEvent[]; undated: CalendarEvent[] } {
  const mine = deals.filter(
    (d) =>
      d.status !== 'cancelled' && (role === 'brand' ? d.brand_id === userId : d.selected_creator_ids.includes(userId)),
  );
  const dated: CalendarEvent[] = [];
  const undated: CalendarEvent[] = [];
  for (const d of mine) {
    const day = deadlineDay(d.deadline, d.created_at, d.timeline);
    const event = {
      dealId: d.id,
      title: d.title,
      date: day?.day ?? '',
      estimated: day?.estimated ?? false,
      status: d.status,
    };
    (day ? dated : undated).push(event);
  }
  dated.sort((a, b) => a.date.localeCompare(b.date) || a.title.localeCompare(b.title));
  return { dated, undated };
}
