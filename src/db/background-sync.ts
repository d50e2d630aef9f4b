/**
 * Background Sync where the browser has it (Chromium): the page registers a one-off sync tag while
 * changes wait and the connection is down; when the browser sees connectivity again it wakes the
 * service worker, whose handler (public/sync-wake.js, imported into the generated worker) tells the
 * open pages to sync now. The replication itself stays in the page: the worker only wakes it.
 */
export const BACKGROUND_SYNC_TAG = 'pacta-sync';
const WAKE_MESSAGE = 'pacta-sync-wake';

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

export async function requestBackgroundSync(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  try {
    const registration = (await navigator.serviceWorker.getRegistration()) as SyncRegistration | undefined;
    if (!registration?.sync) return false;
    await registration.sync.register(BACKGROUND_SYNC_TAG);
    return true;
  } catch {
    // No permission or not supported: `online`, focus and visibility still resume sync.
    return false;
  }
}

/** Calls `wake` when the service worker relays a Background Sync event; returns an unsubscribe. */
export function onBackgroundSyncWake(wake: () => void): () => void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return () => {};
  const onMessage = (event: MessageEvent<{ type?: string }>) => {
    if (event.data?.type === WAKE_MESSAGE) wake();
  };
  navigator.serviceWorker.addEventListener('message', onMessage);
  return () => navigator.serviceWorker.removeEventListener('message', onMessage);
}
