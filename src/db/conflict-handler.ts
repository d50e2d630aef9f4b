import type { RxConflictHandler, RxConflictHandlerInput, WithDeleted } from 'rxdb';
import { deepEqual } from 'rxdb/plugins/utils';
import { collectionSpecs, type CollectionName, type CollectionSpec } from '../domain/collections/index.ts';
import { CLIENT_ONLY_FIELDS, NEWEST_FIRST, OPEN_UNTIL, SYNC_COLUMN_NAMES } from '../domain/collections/fields.ts';
import { draftFieldsOf, mergeDraftFields } from '../domain/brief-draft.ts';

type Doc = Record<string, unknown>;

/** A document as the replication compares it: no RxDB bookkeeping, no empty rejection marker, no derived keys. */
function comparable(doc: WithDeleted<Doc>): Doc {
  // Two removals of one document are the same state whatever else they carry: the server sends a
  // removal as `{ id, _deleted }`, and the local database fills indexed booleans (pro_only) on it.
  if (doc._deleted) return { id: doc.id, _deleted: true };
  const { _meta: _m, _rev: _r, _attachments: _a, ...rest } = doc as Doc;
  if (rest.sync_rejection === null || rest.sync_rejection === undefined) delete rest.sync_rejection;
  // Derived on the device from created_at and deadline (newest-first.ts); the server's copy never has them.
  delete rest[NEWEST_FIRST];
  delete rest[OPEN_UNTIL];
  return rest;
}

const NEVER_MERGED = new Set<string>([
  'id',
  '_deleted',
  '_meta',
  '_rev',
  '_attachments',
  ...SYNC_COLUMN_NAMES,
  ...CLIENT_ONLY_FIELDS,
]);

/**
 * Resolves a push conflict (the server's copy moved on since this device last saw it).
 * - A refused write (`sync_rejection` on the master) or a deletion on the server: the server's copy wins,
 *   so a rule the server enforced never turns into a retry loop.
 * - Otherwise a three-way merge on the server's copy: every client-writable field this device changed
 *   (new state vs. the master it had seen) is re-applied, so an offline edit of a bio survives the server
 *   awarding XP meanwhile. Lists of strings changed on both sides merge as sets (an offline skip on one
 *   device and another on a second device both stay). The result is pushed again against the new master.
 */
export function mergeConflict(
  input: RxConflictHandlerInput<Doc>,
  serverOwned: readonly string[],
  maxMerged: readonly string[] = [],
): WithDeleted<Doc> {
  const { newDocumentState: mine, assumedMasterState: base, realMasterState: master } = input;
  if (master.sync_rejection || master._deleted || mine._deleted) return master;
  const merged: Doc = { ...master };
  let changed = false;
  for (const [field, value] of Object.entries(mine)) {
    if (NEVER_MERGED.has(field) || serverOwned.includes(field)) continue;
    // A read position only grows: the larger one wins, whichever side holds it.
    if (maxMerged.includes(field)) {
      if (typeof value === 'number' && value > Number(master[field] ?? 0)) {
        merged[field] = value;
        changed = true;
      }
      continue;
    }
    const seen = base ? base[field] : undefined;
    // A new document (no master seen) only fills fields the server copy leaves empty.
    if (base ? deepEqual(value, seen) : master[field] !== undefined && master[field] !== null) {
      if (!base && isStringList(value) && isStringList(master[field])) {
        merged[field] = mergeSets(master[field] as string[], [], value);
        changed ||= !deepEqual(merged[field], master[field]);
      }
      continue;
    }
    merged[field] =
      isStringList(value) && isStringList(seen) && isStringList(master[field])
        ? mergeSets(master[field] as string[], seen as string[], value)
        : value;
    changed ||= !deepEqual(merged[field], master[field]);
  }
  return changed ? (merged as WithDeleted<Doc>) : master;
}

/** The master's list, plus what this device added, minus what it removed, in the master's order. */
function mergeSets(master: string[], seen: string[], mine: string[]): string[] {
  const removed = new Set(seen.filter((item) => !mine.includes(item)));
  const added = mine.filter((item) => !seen.includes(item) && !master.includes(item));
  return [...master.filter((item) => !removed.has(item)), ...added];
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Campaign brief drafts carry a time per field: two devices' edits merge field by field, the later
 * edit of a field winning (src/domain/brief-draft.ts; the database merges updates the same way).
 */
export function mergeDraftConflict(input: RxConflictHandlerInput<Doc>): WithDeleted<Doc> {
  const merged = mergeConflict(input, collectionSpecs.drafts.serverOwned);
  const { newDocumentState: mine, realMasterState: master } = input;
  if (merged._deleted || master.sync_rejection || mine._deleted || master.kind !== 'campaign_brief') return merged;
  // Only a payload in the field-by-field form ({ fields: { name: { value, at, device } } }) merges by
  // field, as in the database (pacta_private.drafts_merge); any other payload keeps the plain merge,
  // never gaining an empty `fields` it did not have.
  if (!hasFieldsObject(mine.payload) || !hasFieldsObject(master.payload)) return merged;
  const fields = mergeDraftFields(draftFieldsOf(mine.payload), draftFieldsOf(master.payload));
  const payload = { ...(master.payload as Doc), fields };
  const title = typeof fields.title?.value === 'string' ? fields.title.value.slice(0, 200) : merged.title;
  const result = { ...merged, payload, title };
  return deepEqual(comparable(result), comparable(master)) ? master : (result as WithDeleted<Doc>);
}

function hasFieldsObject(payload: unknown): boolean {
  const fields = payload && typeof payload === 'object' ? (payload as Doc).fields : undefined;
  return !!fields && typeof fields === 'object' && !Array.isArray(fields);
}

export function conflictHandlerFor(name: CollectionName): RxConflictHandler<Doc> {
  const spec: CollectionSpec = collectionSpecs[name];
  return {
    isEqual: (a, b) => deepEqual(comparable(a), comparable(b)),
    resolve: (input) =>
      Promise.resolve(
        name === 'drafts' ? mergeDraftConflict(input) : mergeConflict(input, spec.serverOwned, spec.maxMerged),
      ),
  };
}
