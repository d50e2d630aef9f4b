/**
 * The one lazy loader of the local data manager (RxDB and replication): a signed-out visitor's landing
 * page never loads it (`npm run bench:web` measures its JavaScript).
 */
import { importOrReload } from '../lib/code-reload.ts';

type LocalDataManager = typeof import('./local-data-manager.ts');

let loading: Promise<LocalDataManager> | undefined;

export function loadLocalDataManager(): Promise<LocalDataManager> {
  // A failed load reloads the page once (code-reload.ts); after that it is forgotten, so a screen's
  // Retry asks again instead of failing for the rest of the session.
  loading ??= importOrReload(() => import('./local-data-manager.ts')).catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
