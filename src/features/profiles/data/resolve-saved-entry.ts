import type { PactaDatabase } from '../../../db/index.ts';

export type ResolvedEntry = { ok: true; id: string } | { ok: false; message: string };

const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The id in a pasted link (`…/deals/{id}`) or a bare id, else null. */
export function idInText(text: string): string | null {
  return UUID_IN.exec(text)?.[0]?.toLowerCase() ?? null;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The deal a typed Saved Campaigns entry names, on this device: by its link, its id or its exact
 * title. The list then holds the deal's id, so one deal is never saved twice under two spellings and
 * each entry links to its deal.
 */
export async function resolveSavedDeal(db: PactaDatabase, text: string): Promise<ResolvedEntry> {
  const id = idInText(text);
  const found = id
    ? await db.deals.find({ selector: { id } }).exec()
    : await db.deals
        .find({ selector: { title: { $regex: `^${escapeRegex(text.trim())}$`, $options: 'i' } }, limit: 2 })
        .exec();
  if (found.length === 1) return { ok: true, id: found[0]!.id };
  if (found.length > 1) return { ok: false, message: 'Several deals have that title: paste the deal’s link instead.' };
  return { ok: false, message: 'No deal with that title or link. Paste the deal’s link, or save it from its page.' };
}
