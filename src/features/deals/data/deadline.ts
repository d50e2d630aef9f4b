/** A deadline picked in the date field is stored as YYYY-MM-DD; older deals may hold free text. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDeadlineDate(deadline: string | null | undefined): deadline is string {
  return !!deadline && ISO_DATE.test(deadline);
}

/** How a deadline reads on a page: a date in words ('14 Dec 2026'), free text exactly as written. */
export function deadlineText(deadline: string | null | undefined): string | null {
  if (!deadline) return null;
  const m = ISO_DATE.exec(deadline);
  if (!m) return deadline;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}
