/**
 * A code chunk that fails to load is tried once more by reloading the page.
 *
 * Chromium keeps a failed module import for the page's lifetime: importing the same chunk again, or
 * another chunk that imports it, fails without a request. Only a new document fetches it again. A
 * chunk can fail for a moment (a request aborted under load, a deployment that replaced the chunks),
 * so the first failure reloads, which the user would otherwise have to do from the error screen. A
 * second failure within a minute shows that screen instead, so a chunk that stays unreachable never
 * reloads in a loop.
 */

const RELOADED_AT_KEY = 'pacta.codeReloadedAt';
/** A failure this soon after the last automatic reload is shown, not reloaded again. */
export const RELOAD_QUIET_MS = 60_000;

export interface ReloadPlace {
  /** Where the last automatic reload is recorded; it must outlive the reload (the tab's session). */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now(): number;
  /**
   * Whether a reload would load the app again: online, or answered by the service worker. Offline
   * without one, a reload would show the browser's own offline page instead of the app.
   */
  reloadWouldLoad(): boolean;
  reload(): void;
}

function browserPlace(): ReloadPlace {
  return {
    // Read when used, inside the guard: where storage is blocked, merely touching `sessionStorage` throws.
    storage: {
      getItem: (key) => sessionStorage.getItem(key),
      setItem: (key, value) => sessionStorage.setItem(key, value),
    },
    now: () => Date.now(),
    reloadWouldLoad: () => navigator.onLine || Boolean(navigator.serviceWorker?.controller),
    reload: () => {
      // The page that failed never showed: the reload opens it at its top, as the navigation would
      // have, not where the browser would restore the scroll of the page the user left.
      window.scrollTo(0, 0);
      window.location.reload();
    },
  };
}

/** Reloads the page for a failed code load, unless one was reloaded for this a moment ago. */
export function reloadForFailedCode(place: ReloadPlace = browserPlace()): boolean {
  if (!place.reloadWouldLoad()) return false;
  try {
    const last = Number(place.storage.getItem(RELOADED_AT_KEY) ?? 0);
    if (place.now() - last < RELOAD_QUIET_MS) return false;
    place.storage.setItem(RELOADED_AT_KEY, String(place.now()));
  } catch {
    // Without the record the next failure could not tell it had reloaded already: no automatic reload.
    return false;
  }
  place.reload();
  return true;
}

/**
 * `load()` (a dynamic import), reloading the page once if it fails. While the page reloads the promise
 * never settles, so the screen keeps its loading state instead of flashing an error.
 */
export function importOrReload<M>(load: () => Promise<M>, place?: ReloadPlace): Promise<M> {
  return load().catch((err: unknown) => {
    if (reloadForFailedCode(place)) return new Promise<M>(() => {});
    throw err;
  });
}
