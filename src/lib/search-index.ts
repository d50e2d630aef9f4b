/**
 * Keeps the worker's search indexes equal to what the device holds, sending only what changed: a live
 * query re-emits every deal after each change, and sending 10,000 deals again for one new deal would
 * cost the main thread far more than the change itself.
 */
import {
  indexCreators,
  indexDeals,
  workerGeneration,
  type SearchableCreator,
  type SearchableDeal,
} from './recommendations-client.ts';

export type IndexChanges<T> = { upserts: T[]; removedIds: string[]; next: Map<string, string> };

/**
 * What to send so that an index holding `sent` (id → version key) holds `docs`: the documents that
 * are new or whose key changed, and the ids no longer there.
 */
export function indexChanges<T extends { id: string }>(
  sent: ReadonlyMap<string, string>,
  docs: readonly T[],
  key: (doc: T) => string,
): IndexChanges<T> {
  const next = new Map<string, string>();
  const upserts: T[] = [];
  for (const doc of docs) {
    const k = key(doc);
    next.set(doc.id, k);
    if (sent.get(doc.id) !== k) upserts.push(doc);
  }
  const removedIds = [...sent.keys()].filter((id) => !next.has(id));
  return { upserts, removedIds, next };
}

type Sent = { generation: number; keys: Map<string, string> };

/** Every field the index reads, so a change to any of them is sent and nothing else is. */
const dealKey = (d: SearchableDeal) => JSON.stringify(d);
const creatorKey = (c: SearchableCreator) => JSON.stringify(c);

function syncer<T extends { id: string }>(
  key: (doc: T) => string,
  send: (upserts: readonly T[], removedIds: readonly string[], reset: boolean) => Promise<unknown>,
): (docs: readonly T[]) => Promise<void> {
  let sent: Sent = { generation: -1, keys: new Map() };
  return async (docs) => {
    // The diff is taken and recorded at once, so calls in quick succession each send their own step
    // (the worker runs them in order).
    const generation = workerGeneration();
    const reset = sent.generation !== generation;
    const changes = indexChanges(reset ? new Map() : sent.keys, docs, key);
    sent = { generation, keys: changes.next };
    if (!reset && changes.upserts.length === 0 && changes.removedIds.length === 0) return;
    try {
      await send(changes.upserts, changes.removedIds, reset);
    } catch (error) {
      sent = { generation: -1, keys: new Map() };
      throw error;
    }
  };
}

/** Makes the worker's deal index hold exactly `deals`. */
export const syncDealIndex = syncer<SearchableDeal>(dealKey, indexDeals);
/** Makes the worker's creator index hold exactly `creators`. */
export const syncCreatorIndex = syncer<SearchableCreator>(creatorKey, indexCreators);
