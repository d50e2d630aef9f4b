import { v7 as uuidv7 } from 'uuid';
import type { PactaDatabase } from '../../../db/index.ts';
import { prepareDocument } from '../../../db/index.ts';
import type { DraftDocument } from '../../../domain/collections/index.ts';
import { draftFieldsOf, editDraftField, lastDraftEdit, type DraftFields } from '../../../domain/brief-draft.ts';
import {
  briefFrom,
  briefToDeal,
  BRIEF_STEPS,
  validateBrief,
  type CampaignBrief,
} from '../../../domain/campaign-brief.ts';

/**
 * The named writes of campaign brief drafts. A draft lives in the local database (so every
 * keystroke is kept offline and across reloads) and replicates to the brand's other devices; each
 * field carries the time and device of its last edit so two devices merge field by field
 * (src/domain/brief-draft.ts).
 */

export class BriefActionError extends Error {}

/** One field edit, with the time it was typed (not the time the debounced save runs). */
export type FieldEdit = { name: string; value: unknown; at: number };

export type BriefDraftSummary = {
  id: string;
  title: string;
  /** 0-based wizard step the draft was left on. */
  step: number;
  stepName: string;
  lastEditedAt: number | null;
  device: string | null;
  waitingToSync: boolean;
};

export function briefOf(draft: Pick<DraftDocument, 'payload'>): CampaignBrief {
  const fields = draftFieldsOf(draft.payload);
  return briefFrom(Object.fromEntries(Object.entries(fields).map(([k, e]) => [k, e.value])));
}

export function stepOf(draft: Pick<DraftDocument, 'payload'>): number {
  const value = draftFieldsOf(draft.payload).step?.value;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < BRIEF_STEPS.length ? value : 0;
}

export function summarize(draft: DraftDocument): BriefDraftSummary {
  const last = lastDraftEdit(draftFieldsOf(draft.payload));
  const step = stepOf(draft);
  return {
    id: draft.id,
    title: draft.title.trim(),
    step,
    stepName: BRIEF_STEPS[step]!,
    lastEditedAt: last?.at ?? null,
    device: last?.device ?? null,
    waitingToSync: draft.version === undefined || draft.version === null,
  };
}

function titleOf(fields: DraftFields, fallback: string): string {
  const value = fields.title?.value;
  return typeof value === 'string' ? value.slice(0, 200) : fallback;
}

/**
 * Writes edits to a draft, creating it on the first one. `incrementalModify` re-reads the latest
 * local state (a pull from another device may have landed meanwhile), so nothing is lost.
 */
export async function saveBriefEdits(
  db: PactaDatabase,
  userId: string,
  draftId: string,
  edits: readonly FieldEdit[],
  device: string,
): Promise<void> {
  if (edits.length === 0) return;
  const apply = (fields: DraftFields) =>
    edits.reduce((acc, e) => editDraftField(acc, e.name, e.value, e.at, device), fields);
  const existing = await db.drafts.findOne(draftId).exec();
  if (!existing) {
    const fields = apply({});
    try {
      await db.drafts.insert(
        prepareDocument('drafts', {
          id: draftId,
          user_id: userId,
          kind: 'campaign_brief',
          title: titleOf(fields, ''),
          payload: { fields },
          created_at: new Date().toISOString(),
        }),
      );
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'CONFLICT') throw err;
    }
  }
  const doc = (await db.drafts.findOne(draftId).exec())!;
  if (doc.deleted) throw new BriefActionError('This draft was deleted.');
  await doc.incrementalModify((current) => {
    const fields = apply(draftFieldsOf(current.payload));
    return {
      ...current,
      payload: { ...current.payload, fields },
      title: titleOf(fields, current.title),
      sync_rejection: null,
    };
  });
}

export function newDraftId(): string {
  return uuidv7();
}

/** Deletes a draft (a soft delete that replicates, so the brand's other devices drop it too). */
export async function deleteBriefDraft(db: PactaDatabase, draftId: string): Promise<void> {
  const doc = await db.drafts.findOne(draftId).exec();
  if (doc) await doc.remove();
}

/**
 * Creates the campaign from the draft: a new open deal (a campaign; works offline, published by
 * sync) and the draft removed. Answers the deal's id.
 */
export async function createCampaignFromDraft(
  db: PactaDatabase,
  brandId: string,
  draftId: string,
  brief: CampaignBrief,
): Promise<string> {
  if (Object.keys(validateBrief(brief)).length > 0)
    throw new BriefActionError('Please complete the highlighted fields.');
  const id = uuidv7();
  await db.deals.insert(
    prepareDocument('deals', {
      id,
      brand_id: brandId,
      status: 'open',
      pro_only: false,
      created_at: new Date().toISOString(),
      ...briefToDeal(brief),
    }),
  );
  await deleteBriefDraft(db, draftId);
  return id;
}
