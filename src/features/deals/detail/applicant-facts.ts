import type { ApplicationDocument, ProfileDocument } from '../../../domain/collections/index.ts';

/**
 * The application statuses by name (what the application is), never the verbs that set them: the
 * status control reads "Pending / Accepted / Rejected", and the buttons beside it say Accept and Reject.
 */
const STATUS_LABEL: Record<ApplicationDocument['status'], string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

export function statusLabel(status: ApplicationDocument['status']): string {
  return STATUS_LABEL[status];
}

/** The statuses a brand may set, in the order of the status control. */
export const SETTABLE_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** What a brand weighs an applicant by, in one line: followers, niches, rating. */
export function applicantFacts(profile: ProfileDocument | undefined): string[] {
  if (!profile) return [];
  const facts = [`${profile.followers.toLocaleString('en-US')} followers`];
  if (profile.niches.length) facts.push(profile.niches.slice(0, 3).join(', '));
  facts.push(profile.rating > 0 ? `${Number(profile.rating).toFixed(1)} ★` : 'No rating yet');
  return facts;
}

/**
 * The one list of a deal's applicants, every status in it (pending first, then accepted, then the
 * rest, each oldest first), so the card never says "No applicants yet." beside an accepted creator.
 */
export function applicantsInOrder(applications: readonly ApplicationDocument[]): ApplicationDocument[] {
  const rank: Record<ApplicationDocument['status'], number> = { pending: 0, accepted: 1, rejected: 2, withdrawn: 3 };
  return [...applications].sort(
    (a, b) =>
      rank[a.status] - rank[b.status] ||
      (a.created_at ?? '').localeCompare(b.created_at ?? '') ||
      a.id.localeCompare(b.id),
  );
}
