import type { FieldEdit } from './brief-drafts.ts';

/**
 * Brief edits still waiting for their debounced save when the page goes away, kept in localStorage
 * until the draft holds them.
 *
 * A reload right after typing unloads the page while the save it starts is still on its way to
 * IndexedDB (through RxDB's promises), and the browser does not finish it: the last field typed was
 * lost. localStorage is written at once, so the edits are written there too, and the next visit of
 * the brief page saves them to their draft.
 */
const KEY = 'pacta.briefEditsUnsaved';

export type UnsavedEdits = { userId: string; draftId: string; device: string; edits: FieldEdit[] };

function readAll(): UnsavedEdits[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as UnsavedEdits[]) : [];
  } catch {
    return [];
  }
}

function writeAll(all: UnsavedEdits[]): void {
  try {
    if (all.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused: the save already on its way is all there is, as before.
  }
}

/** Keeps `kept` (added to what an earlier page kept of the same draft). */
export function keepUnsavedEdits(kept: UnsavedEdits): void {
  if (kept.edits.length === 0) return;
  writeAll([...readAll(), kept]);
}

/** What this user's earlier pages kept, oldest first. */
export function unsavedEditsOf(userId: string): UnsavedEdits[] {
  return readAll().filter((kept) => kept.userId === userId);
}

/** The draft holds these edits now: they are no longer kept. */
export function forgetUnsavedEdits(userId: string, draftId: string): void {
  writeAll(readAll().filter((kept) => kept.userId !== userId || kept.draftId !== draftId));
}
