import type { SyncDoc } from './sync-api.ts';

/**
 * The server states this device received lately, by document id.
 *
 * RxDB writes a pulled document into the local collection first and records it as the assumed master
 * state a moment later (a second write). A push read in between (the user edited the document the
 * instant it appeared, or an upstream pass ran) goes out with no assumed master: the server takes it
 * for an insert of an existing row, and the conflict handler cannot tell the user's change from the
 * server's, so the edit would be lost. What was received is exactly that missing base. The gap lasts
 * one storage write, so entries only need to live briefly; both limits keep memory flat during a
 * large initial sync.
 */
export type RecentMasters = {
  remember(doc: SyncDoc): void;
  /** The last state received for `id`, if it arrived within the time limit. */
  get(id: string): SyncDoc | undefined;
};

export function createRecentMasters(
  opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): RecentMasters {
  const ttlMs = opts.ttlMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 2_000;
  const now = opts.now ?? Date.now;
  // Insertion order is arrival order (re-remembering moves an id to the end), so the oldest go first.
  const entries = new Map<string, { doc: SyncDoc; at: number }>();

  const prune = (at: number) => {
    for (const [id, entry] of entries) {
      if (entries.size <= maxEntries && at - entry.at <= ttlMs) break;
      entries.delete(id);
    }
  };

  return {
    remember(doc) {
      const at = now();
      entries.delete(doc.id);
      entries.set(doc.id, { doc: masterState(doc), at });
      prune(at);
    },
    get(id) {
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (now() - entry.at > ttlMs) {
        entries.delete(id);
        return undefined;
      }
      return entry.doc;
    },
  };
}

/** A received document as the server sent it: without RxDB's local bookkeeping fields. */
function masterState(doc: SyncDoc): SyncDoc {
  const { _meta: _m, _rev: _r, _attachments: _a, ...state } = doc;
  return state as SyncDoc;
}
