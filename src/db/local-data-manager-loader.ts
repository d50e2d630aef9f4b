/**
 * The one lazy loader of the local data manager (RxDB and replication): a signed-out visitor's landing
 * page never loads it (`npm run bench:web` measures its JavaScript).
 */
type LocalDataManager = typeof import('./local-data-manager.ts');

let loading: Promise<LocalDataManager> | undefined;

export function loadLocalDataManager(): Promise<LocalDataManager> {
  // A failed load is forgotten, so the next call (a screen's Retry) fetches the code again instead of
  // failing for the rest of the session: offline, the service worker's answer for a chunk can fail once.
  loading ??= import('./local-data-manager.ts').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
