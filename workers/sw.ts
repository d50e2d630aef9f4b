/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import type { PushPayload } from '../src/domain/contracts/push.ts';

// The app's service worker (vite-plugin-pwa injectManifest; docs/decisions/006 and 012):
// the precached app shell and offline navigation, the update prompt's "skip waiting", the Background
// Sync wake-up, and Web Push (show the notification; a click focuses or opens its page).

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** Paths the sync server owns: never answered with the app shell (same list as vite.config.ts). */
const SERVER_PATHS = [/^\/auth\/v1(\/|$)/, /^\/sync\/v1(\/|$)/, /^\/api(\/|$)/, /^\/storage\/v1(\/|$)/];

// The whole build, lazy route chunks included, so every route opens offline after one visit.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SERVER_PATHS }));

// The first install takes control of the open page at once, so lazy screens load from the cache if
// the connection drops during the first visit. Updates still wait for the user (the update prompt).
clientsClaim();
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Background Sync: when connectivity returns, ask the open pages to sync (src/db/background-sync.ts).
self.addEventListener('sync', (event: Event) => {
  const sync = event as ExtendableEvent & { tag?: string };
  if (sync.tag !== 'pacta-sync') return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      for (const client of clients) client.postMessage({ type: 'pacta-sync-wake' });
    }),
  );
});

/**
 * What the server pushes: the shared contract's type (a type only, so zod stays out of the service
 * worker). Read tolerantly: a field missing from an older server's push falls back below.
 */
function readPayload(event: PushEvent): Partial<PushPayload> {
  try {
    return (event.data?.json() as Partial<PushPayload> | null) ?? {};
  } catch {
    return { body: event.data?.text() ?? '' };
  }
}

/** Only app paths: a push never opens another site. */
function appPath(url: unknown): string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/notifications';
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(payload.title || 'Pacta', {
      body: payload.body ?? '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // One per conversation: a newer message replaces the older notification.
      tag: payload.tag,
      data: { url: appPath(payload.url), notificationId: payload.notificationId },
    }),
  );
});

/**
 * Opens the notification's page: an open Pacta window is brought forward and navigated there;
 * with none open, a new window opens on it.
 */
async function openPage(path: string): Promise<void> {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    const focused = await open.focus().catch(() => open);
    if (focused.url !== url) await focused.navigate(url);
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: string } | null;
  event.waitUntil(openPage(appPath(data?.url)));
});
