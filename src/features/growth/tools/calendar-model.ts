import type { DealDocument } from '../../../domain/collections/index.ts';

export type CalendarEvent = { dealId: string; title: string; date: string; status: DealDocument['status'] };

/**
 * A deal's deadline as a calendar day 'YYYY-MM-DD', when its free-text deadline reads as a date
 * ('2026-12-01', 'Dec 1, 2026', …); null otherwise (such deals are listed without a day).
 */
export function deadlineDay(deadline: string | null | undefined): string | null {
  const text = deadline?.trim();
  if (!text) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
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
  deals: readonly Pick<DealDocument, 'id' | 'title' | 'brand_id' | 'deadline' | 'status' | 'selected_creator_ids'>[],
): { dated: CalendarEvent[]; undated: CalendarEvent[] } {
  const mine = deals.filter((d) =>
    d.status !== 'cancelled' && (role === 'brand' ? d.brand_id === userId : d.selected_creator_ids.includes(userId)),
  );
  const dated: CalendarEvent[] = [];
  const undated: CalendarEvent[] = [];
  for (const d of mine) {
    const day = deadlineDay(d.deadline);
    const event = { dealId: d.id, title: d.title, date: day ?? '', status: d.status };
    (day ? dated : undated).push(event);
  }
  dated.sort((a, b) => a.date.localeCompare(b.date) || a.title.localeCompare(b.title));
  return { dated, undated };
}
