import { USAGE_RIGHTS, type TermsSheet, type UsageRights } from '../../../domain/collections/index.ts';
import { DealWorkError } from './deal-work-operations.ts';
import { endSentence } from '../../../domain/end-sentence.ts';

/**
 * The 'Propose changes' form's fields, as typed (strings), and the sheet they make. The server checks
 * the same limits (pacta_private.valid_terms) and refuses a version that changes nothing.
 */
export type TermsDraft = {
  /** `id` null: a deliverable added in this proposal (it gets the next free id). */
  deliverables: { id: string | null; title: string; dueDate: string }[];
  usageRights: UsageRights;
  usageDays: string;
  exclusivityDays: string;
  revisionRounds: string;
  approvalWindowHours: string;
  payoutHoldHours: string;
};

export function draftFromSheet(sheet: TermsSheet): TermsDraft {
  return {
    deliverables: sheet.deliverables.map((d) => ({ id: d.id, title: d.title, dueDate: d.due_date })),
    usageRights: sheet.usage_rights,
    usageDays: sheet.usage_days === null ? '30' : String(sheet.usage_days),
    exclusivityDays: String(sheet.exclusivity_days),
    revisionRounds: String(sheet.revision_rounds),
    approvalWindowHours: String(sheet.approval_window_hours),
    payoutHoldHours: String(sheet.payout_hold_hours),
  };
}

function wholeNumber(text: string, min: number, max: number, message: string): number {
  const t = text.trim();
  const n = Number(t);
  if (!/^\d+$/.test(t) || n < min || n > max) throw new DealWorkError(message);
  return n;
}

const sameSheet = (a: TermsSheet, b: TermsSheet) =>
  JSON.stringify(a.deliverables) === JSON.stringify(b.deliverables) &&
  a.usage_rights === b.usage_rights &&
  a.usage_days === b.usage_days &&
  a.exclusivity_days === b.exclusivity_days &&
  a.revision_rounds === b.revision_rounds &&
  a.approval_window_hours === b.approval_window_hours &&
  a.payout_hold_hours === b.payout_hold_hours;

/**
 * The sheet a draft proposes. `earlier` are the deal's sheets so far: kept deliverables keep their
 * ids (their progress goes on), a new one never reuses an id, and a sheet equal to the newest version
 * or to the one in force (`unchangedFrom`) is refused, as the server refuses it.
 */
export function parseTermsDraft(
  draft: TermsDraft,
  earlier: readonly TermsSheet[],
  unchangedFrom: readonly TermsSheet[],
): TermsSheet {
  if (draft.deliverables.length === 0) throw new DealWorkError('Keep at least one deliverable.');
  if (draft.deliverables.length > 20) throw new DealWorkError('At most 20 deliverables.');
  let next = Math.max(0, ...earlier.flatMap((s) => s.deliverables.map((d) => Number(/^d(\d+)$/.exec(d.id)?.[1] ?? 0))));
  const deliverables = draft.deliverables.map((d) => {
    const title = d.title.trim();
    if (!title) throw new DealWorkError('Give every deliverable a title.');
    if (title.length > 200) throw new DealWorkError('A deliverable’s title is at most 200 characters.');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d.dueDate)) throw new DealWorkError(endSentence(`Choose a due date for ${title}`));
    return { id: d.id ?? `d${++next}`, title, due_date: d.dueDate };
  });
  if (!USAGE_RIGHTS.includes(draft.usageRights)) throw new DealWorkError('Choose the usage rights.');
  const sheet: TermsSheet = {
    deliverables,
    usage_rights: draft.usageRights,
    usage_days:
      draft.usageRights === 'paid_ads'
        ? wholeNumber(draft.usageDays, 1, 3650, 'Paid ads: a number of days from 1 to 3650.')
        : null,
    exclusivity_days: wholeNumber(draft.exclusivityDays, 0, 365, 'Exclusivity: a number of days from 0 to 365.'),
    revision_rounds: wholeNumber(draft.revisionRounds, 0, 10, 'Revision rounds: a whole number from 0 to 10.'),
    approval_window_hours: wholeNumber(
      draft.approvalWindowHours,
      1,
      720,
      'Approval window: a number of hours from 1 to 720.',
    ),
    payout_hold_hours: wholeNumber(draft.payoutHoldHours, 0, 720, 'Payout hold: a number of hours from 0 to 720.'),
  };
  if (unchangedFrom.some((s) => sameSheet(s, sheet)))
    throw new DealWorkError('These terms are the same as before: change something first.');
  return sheet;
}
