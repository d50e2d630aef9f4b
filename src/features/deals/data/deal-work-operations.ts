import { v7 as uuidv7 } from 'uuid';
import { prepareDocument, type PactaDatabase } from '../../../db/index.ts';
import { queueDraft } from '../../../db/uploads/upload-queue.ts';
import { BUCKETS } from '../../../domain/files.ts';
import { formatBytes } from '../../../domain/media.ts';
import type { ApplicationDocument, DealEventDocument, TermsSheet } from '../../../domain/collections/index.ts';
import { parseUsdToCents } from '../../../domain/fees.ts';

/**
 * The named writes of a deal's work: each appends one event to the application's log in the local
 * database (so it works offline, like a message); replication publishes it and the server checks it
 * against the state the earlier events left, refusing it with a reason when it no longer fits.
 */

export class DealWorkError extends Error {}

type EventFields = Partial<Omit<DealEventDocument, 'id' | 'application_id' | 'deal_id' | 'author_id'>> &
  Pick<DealEventDocument, 'kind'>;

async function append(db: PactaDatabase, app: ApplicationDocument, me: string, fields: EventFields): Promise<string> {
  const id = uuidv7();
  await db.deal_events.insert(
    prepareDocument('deal_events', {
      id,
      application_id: app.id,
      deal_id: app.deal_id,
      author_id: me,
      created_at: new Date().toISOString(),
      ...fields,
    }),
  );
  return id;
}

const today = () => new Date().toISOString().slice(0, 10);

/** 'Make an offer': a price (at least $1) and an optional due date from today on. */
export function parseOffer(price: string, dueDate: string): { priceCents: number; dueDate: string | null } {
  const cents = parseUsdToCents(price);
  if (cents === undefined) throw new DealWorkError('Enter a price in dollars, like 250 or 249.99.');
  if (cents < 100) throw new DealWorkError('The price must be at least $1.');
  const due = dueDate.trim() || null;
  if (due && !/^\d{4}-\d{2}-\d{2}$/.test(due)) throw new DealWorkError('Choose a due date.');
  if (due && due < today()) throw new DealWorkError('Choose a due date from today on.');
  return { priceCents: cents, dueDate: due };
}

export async function makeOffer(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  offer: { priceCents: number; dueDate: string | null },
): Promise<void> {
  await append(db, app, me, { kind: 'offer', price_cents: offer.priceCents, due_date: offer.dueDate });
}

/** 'Accept offer': the offer on the table (`offerId` null: the application's own proposed price). */
export async function acceptOffer(db: PactaDatabase, app: ApplicationDocument, me: string, offerId: string | null) {
  await append(db, app, me, { kind: 'offer_accepted', ref_id: offerId });
}

export async function acceptTerms(db: PactaDatabase, app: ApplicationDocument, me: string, version: number) {
  await append(db, app, me, { kind: 'terms_accepted', terms_version: version });
}

/** 'Propose terms': the next version of the sheet, accepted by its proposer; the other side answers it. */
export async function proposeTerms(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  version: number,
  terms: TermsSheet,
) {
  await append(db, app, me, { kind: 'terms', terms_version: version, terms });
}

/** 'Decline': the proposed version is not accepted; the version in force stays. */
export async function declineTerms(db: PactaDatabase, app: ApplicationDocument, me: string, version: number) {
  await append(db, app, me, { kind: 'terms_declined', terms_version: version });
}

/** The links of a draft, one a line; each must be a web link. */
export function parseLinks(text: string): string[] {
  const links = text
    .split(/\s+/)
    .map((l) => l.trim())
    .filter(Boolean);
  for (const link of links) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(link).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new DealWorkError('Enter a valid link, like https://example.com/video.');
  }
  return links;
}

export async function submitDraft(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  draft: { deliverableId: string; note: string; links: string[] },
) {
  if (draft.links.length === 0) throw new DealWorkError('Add a file or a link to the draft.');
  await append(db, app, me, {
    kind: 'draft',
    deliverable_id: draft.deliverableId,
    note: draft.note.trim(),
    links: draft.links,
  });
}

/** A draft carries at most 10 files (the server's limit on one event). */
export const DRAFT_MAX_FILES = 10;

/** Why a picked file cannot go with a draft, or null: images, videos and PDF files up to the bucket's size. */
export function draftFileProblem(file: { name: string; type: string; size: number }): string | null {
  const rule = BUCKETS.deliverables;
  if (!(rule.allowedTypes as readonly string[]).includes(file.type))
    return `${file.name}: a draft can carry images (JPEG, PNG, WebP), videos (MP4, WebM, QuickTime) and PDF files.`;
  if (file.size > rule.maxBytes) return `${file.name}: a file can be at most ${formatBytes(rule.maxBytes)}.`;
  return null;
}

/**
 * 'Submit draft' with files: the files are kept on this device and uploaded to the deal (at once, or
 * when back online); the draft is written once the last one is on the server.
 */
export async function submitDraftWithFiles(
  app: ApplicationDocument,
  me: string,
  draft: { deliverableId: string; note: string; links: string[]; files: readonly File[] },
): Promise<void> {
  if (draft.files.length > DRAFT_MAX_FILES)
    throw new DealWorkError(`A draft can carry at most ${DRAFT_MAX_FILES} files.`);
  for (const file of draft.files) {
    const problem = draftFileProblem(file);
    if (problem) throw new DealWorkError(problem);
  }
  await queueDraft({
    userId: me,
    applicationId: app.id,
    dealId: app.deal_id,
    deliverableId: draft.deliverableId,
    note: draft.note.trim(),
    links: draft.links,
    files: draft.files,
  });
}

export async function approveDraft(db: PactaDatabase, app: ApplicationDocument, me: string, draft: DealEventDocument) {
  await append(db, app, me, { kind: 'approved', deliverable_id: draft.deliverable_id, ref_id: draft.id });
}

export async function requestChanges(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  draft: DealEventDocument,
  comments: string,
) {
  if (!comments.trim()) throw new DealWorkError('Say what to change.');
  await append(db, app, me, {
    kind: 'changes_requested',
    deliverable_id: draft.deliverable_id,
    ref_id: draft.id,
    note: comments.trim(),
  });
}

export async function agreeToExtraRound(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  deliverableId: string,
) {
  await append(db, app, me, { kind: 'extra_rounds', deliverable_id: deliverableId, rounds: 1 });
}

export async function submitLiveLink(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  deliverableId: string,
  url: string,
) {
  const links = parseLinks(url);
  if (links.length !== 1) throw new DealWorkError("Enter the post's link, like https://example.com/p/123.");
  await append(db, app, me, { kind: 'live_link', deliverable_id: deliverableId, links });
}

export async function confirmLive(
  db: PactaDatabase,
  app: ApplicationDocument,
  me: string,
  deliverableId: string,
  liveId: string,
) {
  await append(db, app, me, { kind: 'live_confirmed', deliverable_id: deliverableId, ref_id: liveId });
}
