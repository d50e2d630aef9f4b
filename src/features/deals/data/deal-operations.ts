import { v7 as uuidv7 } from 'uuid';
import type { PactaDatabase } from '../../../db/index.ts';
import {
  applicationDocument,
  dealDocument,
  savedListDocument,
  type ApplicationDocument,
} from '../../../domain/collections/index.ts';
import { addSavedItem, savedListId } from '../../../domain/saved-lists.ts';
import type { EditedDealFields, NewDealFields } from './deal-form.ts';

/**
 * The named writes of the deals feature. Each validates with the shared zod schema and writes the
 * local database only; replication publishes it (now, or when the device is back online). Every
 * write clears `sync_rejection`: a refused document is not pushed again until the user changes it.
 */

export class DealActionError extends Error {}

const nowIso = () => new Date().toISOString();

/** Publishes a new deal under the brand; answers its id (a UUID v7 made here, so it works offline). */
export async function createDeal(db: PactaDatabase, brandId: string, fields: NewDealFields): Promise<string> {
  const id = uuidv7();
  // created_at is a placeholder for sorting until the server stamps the real one.
  const doc = dealDocument.parse({
    id,
    brand_id: brandId,
    status: 'open',
    pro_only: false,
    created_at: nowIso(),
    ...fields,
  });
  await db.deals.insert(doc);
  return id;
}

/**
 * Saves the edit; answers whether anything was written (false: the fields already hold these values
 * and no refusal is waiting to be cleared, so there is nothing for the server to answer).
 */
export async function updateDeal(db: PactaDatabase, dealId: string, fields: EditedDealFields): Promise<boolean> {
  const doc = await db.deals.findOne(dealId).exec();
  if (!doc) throw new DealActionError('Deal not found.');
  const current = doc.toJSON() as Record<string, unknown>;
  dealDocument.parse({ ...current, ...fields });
  const unchanged = Object.entries(fields).every(([k, v]) => JSON.stringify(current[k] ?? null) === JSON.stringify(v));
  if (unchanged && !current.sync_rejection) return false;
  await doc.incrementalPatch({ ...fields, sync_rejection: null });
  return true;
}

/**
 * Completes the deal: status completed, the first selected creator recorded as
 * winner_id, in one write (the server accepts winner_id only together with completion).
 */
export async function completeDeal(db: PactaDatabase, dealId: string): Promise<void> {
  const doc = await db.deals.findOne(dealId).exec();
  if (!doc) throw new DealActionError('Deal not found.');
  const winner = doc.selected_creator_ids[0];
  if (!winner) throw new DealActionError('You must select at least one creator before completing the deal.');
  await doc.incrementalPatch({ status: 'completed', winner_id: winner, sync_rejection: null });
}

/**
 * The creator's application to a deal: a new pending row (once per deal), with a pitch and the
 * creator's proposed price (the deal's amount when left out; the server fills it in).
 */
export async function applyToDeal(
  db: PactaDatabase,
  creatorId: string,
  dealId: string,
  offer: { proposedPriceCents?: number; pitch?: string } = {},
): Promise<ApplicationDocument> {
  const existing = await db.applications.findOne({ selector: { deal_id: dealId, creator_id: creatorId } }).exec();
  if (existing) throw new DealActionError('You have already applied to this deal.');
  // deal_status is the server's copy of the deal's status; predicted from this device's copy of the deal.
  const deal = await db.deals.findOne(dealId).exec();
  const doc = applicationDocument.parse({
    id: uuidv7(),
    deal_id: dealId,
    creator_id: creatorId,
    status: 'pending',
    pitch: offer.pitch?.trim() ?? '',
    proposed_price_cents: offer.proposedPriceCents ?? null,
    deal_status: deal?.status ?? 'open',
    created_at: nowIso(),
  });
  await db.applications.insert(doc);
  return doc;
}

/**
 * The brand accepts, rejects or resets an application. Only the status changes: the server keeps
 * the deal's selected creators in step (clients never write selected_creator_ids).
 */
export async function setApplicationStatus(
  db: PactaDatabase,
  applicationId: string,
  status: 'pending' | 'accepted' | 'rejected',
): Promise<void> {
  const doc = await db.applications.findOne(applicationId).exec();
  if (!doc) throw new DealActionError('Application not found.');
  await doc.incrementalPatch({ status, sync_rejection: null });
}

/**
 * The creator withdraws its own pending application (the server allows only the creator to, and
 * never once the deal is closed); a withdrawn application stays withdrawn.
 */
export async function withdrawApplication(db: PactaDatabase, applicationId: string): Promise<void> {
  const doc = await db.applications.findOne(applicationId).exec();
  if (!doc) throw new DealActionError('Application not found.');
  if (doc.status !== 'pending') throw new DealActionError('Only a pending application can be withdrawn.');
  await doc.incrementalPatch({ status: 'withdrawn', sync_rejection: null });
}

/** Adds a deal to the user's skipped list (one row per user, replicated, so other devices skip it too). */
export async function skipDeal(db: PactaDatabase, userId: string, dealId: string): Promise<void> {
  const id = savedListId(userId, 'skipped_deals');
  const existing = await db.saved_lists.findOne(id).exec();
  if (existing) {
    await existing.incrementalModify((doc) => {
      const items = addSavedItem(doc.items, dealId);
      return items ? { ...doc, items, sync_rejection: null } : doc;
    });
    return;
  }
  try {
    await db.saved_lists.insert(
      savedListDocument.parse({ id, user_id: userId, kind: 'skipped_deals', items: [dealId], created_at: nowIso() }),
    );
  } catch (error) {
    // Another tab (or a pull) created the list meanwhile: add to that one.
    const created = await db.saved_lists.findOne(id).exec();
    if (!created) throw error;
    await created.incrementalModify((doc) => {
      const items = addSavedItem(doc.items, dealId);
      return items ? { ...doc, items } : doc;
    });
  }
}
