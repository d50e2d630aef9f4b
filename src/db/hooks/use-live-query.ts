import { useEffect, useState, type DependencyList } from 'react';
import type { Observable } from 'rxjs';
import type { PactaDatabase } from '../create-database.ts';
import { markBoot } from '../../lib/boot-marks.ts';
import { useLatest } from '../../lib/use-latest.ts';
import { getSyncView, subscribeSyncView } from '../sync-view.ts';
import { useDatabase } from './use-database.ts';

/**
 * While the first sync writes page after page, each page changes the result of most screens' queries;
 * re-rendering a list of thousands of cards per page costs more than writing the page. Until the
 * first sync is complete a screen gets its first result at once, and every result at once while what
 * it shows is still empty (the first page's deals show the moment they are written) or lists no more
 * than HELD_FROM_ITEMS items (a dashboard's few cards and counts re-render cheaply, and a deal
 * published meanwhile shows at once), then at most one update per this interval (always the newest).
 * Offline or with the server unreachable nothing is held. The sync status ('Syncing N of M') is a
 * separate store and keeps its progress.
 */
const FIRST_SYNC_UPDATE_MS = 1_000;
const HELD_FROM_ITEMS = 100;

/** Pages are arriving: the first pull of this session runs and the server answers. Offline, a local write shows at once. */
const firstSyncRunning = () => {
  const view = getSyncView();
  return view.browserOnline && view.status?.online === true && !view.status.initialSync.complete;
};

export type LiveResult<T> = { data: T | undefined; loading: boolean; error: Error | null };

/**
 * The one live-query hook: subscribes to an RxDB observable built from the signed-in user's database
 * (`query.$`, `findOne(id).$`) and re-renders with each new result. `build` returning null, false or
 * undefined means "nothing to watch yet" (the result stays loading). `deps` are what `build` reads
 * besides the database, as with useEffect; the lint checks them (react-hooks `additionalHooks`).
 */
export function useLiveQuery<T>(
  build: (db: PactaDatabase) => Observable<T> | null | false | undefined,
  deps: DependencyList,
): LiveResult<T> {
  const db = useDatabase();
  const version = useDepsVersion(deps);
  // The newest `build` (a new closure each render): read when `db` or `deps` change, never re-subscribed for itself.
  const latestBuild = useLatest(build);
  const [result, setResult] = useState<LiveResult<T>>({ data: undefined, loading: true, error: null });
  useEffect(() => {
    if (!db) {
      setResult({ data: undefined, loading: true, error: null });
      return;
    }
    const source = latestBuild.current(db);
    if (!source) return;
    setResult((r) => ({ ...r, loading: true, error: null }));
    // Nothing real shown yet (no result, or an empty one): the next result is not held.
    let showsNothing = true;
    let held: { data: T } | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deliver = (data: T) => {
      showsNothing = isEmptyResult(data);
      if (!showsNothing) markBoot('first-local-result');
      setResult({ data, loading: false, error: null });
    };
    const flush = () => {
      timer = undefined;
      if (held) deliver(held.data);
      held = null;
    };
    const sub = source.subscribe({
      next: (data) => {
        if (showsNothing || !firstSyncRunning() || listedItems(data) < HELD_FROM_ITEMS) {
          if (timer) clearTimeout(timer);
          timer = undefined;
          held = null;
          deliver(data);
          return;
        }
        held = { data };
        timer ??= setTimeout(flush, FIRST_SYNC_UPDATE_MS);
      },
      error: (err: unknown) =>
        setResult({ data: undefined, loading: false, error: err instanceof Error ? err : new Error(String(err)) }),
    });
    // The moment the first sync completes, the held result shows (not up to an interval later).
    const unwatch = subscribeSyncView(() => {
      if (timer && !firstSyncRunning()) {
        clearTimeout(timer);
        flush();
      }
    });
    return () => {
      if (timer) clearTimeout(timer);
      unwatch();
      sub.unsubscribe();
    };
  }, [db, version, latestBuild]);
  return result;
}

/**
 * A result that shows nothing: no document, an empty list or map, a count of none, or a screen's
 * combined result (a plain object such as the dashboard's `{ deals, counts }`) whose lists are all
 * still empty (its counts may already be known: the cards are what the first page must bring at once),
 * or, without lists, all of whose parts show nothing. A document or any other object is something.
 */
export function isEmptyResult(data: unknown): boolean {
  if (data === null || data === undefined || data === 0) return true;
  if (Array.isArray(data)) return data.length === 0;
  if (data instanceof Map) return data.size === 0;
  if (typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) return false;
  const parts = Object.values(data);
  const lists = parts.filter((part) => Array.isArray(part) || part instanceof Map);
  return (lists.length > 0 ? lists : parts).every(isEmptyResult);
}

/** How many items a result lists: a list's or map's, summed over a combined result's parts (a count lists none). */
export function listedItems(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  if (data instanceof Map) return data.size;
  if (data === null || typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) return 0;
  return Object.values(data).reduce<number>((sum, part) => sum + listedItems(part), 0);
}

/** A number that changes whenever an element of `deps` changes (compared with Object.is, as React does). */
function useDepsVersion(deps: DependencyList): number {
  const [seen, setSeen] = useState({ deps, version: 0 });
  const same = seen.deps.length === deps.length && seen.deps.every((value, i) => Object.is(value, deps[i]));
  if (same) return seen.version;
  // Adjusting state while rendering (React's pattern for "information from previous renders").
  const next = { deps, version: seen.version + 1 };
  setSeen(next);
  return next.version;
}
