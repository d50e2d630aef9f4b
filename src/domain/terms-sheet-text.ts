import type { TermsSheet } from './collections/deal-work.ts';

/**
 * A terms sheet in words, as the deal page shows and prints it, and what a proposed version changes
 * against the version in force ("any change needs both sides again": each side sees what it accepts).
 */

export function usageText(sheet: Pick<TermsSheet, 'usage_rights' | 'usage_days'>): string {
  switch (sheet.usage_rights) {
    case 'organic_only':
      return 'Organic posts only (no paid ads)';
    case 'paid_ads':
      return `Organic posts and paid ads for ${sheet.usage_days ?? 30} days`;
    case 'perpetual':
      return 'Organic and paid use, with no end date';
  }
}

export function hoursText(hours: number): string {
  return hours % 24 === 0 && hours >= 48 ? `${hours / 24} days` : `${hours} hours`;
}

export function exclusivityText(days: number): string {
  return days ? `${days} days after the deal` : 'None';
}

export type TermsChange = { label: string; before: string; after: string };

/** Each line of the sheet that differs between `from` and `to`, in words; deliverables by their id. */
export function termsChanges(from: TermsSheet, to: TermsSheet, dayText: (day: string) => string): TermsChange[] {
  const changes: TermsChange[] = [];
  const before = new Map(from.deliverables.map((d) => [d.id, d]));
  const after = new Map(to.deliverables.map((d) => [d.id, d]));
  for (const d of to.deliverables) {
    const old = before.get(d.id);
    if (!old)
      changes.push({ label: 'Deliverable added', before: '—', after: `${d.title}, due ${dayText(d.due_date)}` });
    else if (old.title !== d.title || old.due_date !== d.due_date)
      changes.push({
        label: 'Deliverable',
        before: `${old.title}, due ${dayText(old.due_date)}`,
        after: `${d.title}, due ${dayText(d.due_date)}`,
      });
  }
  for (const d of from.deliverables)
    if (!after.has(d.id))
      changes.push({ label: 'Deliverable removed', before: `${d.title}, due ${dayText(d.due_date)}`, after: '—' });
  const line = (label: string, a: string, b: string) => {
    if (a !== b) changes.push({ label, before: a, after: b });
  };
  line('Usage rights', usageText(from), usageText(to));
  line('Exclusivity', exclusivityText(from.exclusivity_days), exclusivityText(to.exclusivity_days));
  line('Revision rounds included', String(from.revision_rounds), String(to.revision_rounds));
  line('Approval window', hoursText(from.approval_window_hours), hoursText(to.approval_window_hours));
  line('Payout hold', hoursText(from.payout_hold_hours), hoursText(to.payout_hold_hours));
  return changes;
}
