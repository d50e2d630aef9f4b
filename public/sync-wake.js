// Imported into the generated service worker (vite.config.ts workbox.importScripts). Background Sync
// wakes the worker when connectivity returns; it asks the open pages to sync (src/db/background-sync.ts).
self.addEventListener('sync', (event) => {
  if (event.tag !== 'pacta-sync') return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      clients.forEach((client) => client.postMessage({ type: 'pacta-sync-wake' }));
    }),
  );
});
