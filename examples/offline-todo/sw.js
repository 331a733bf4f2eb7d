// Serves the page and the SDK from a cache when the network is gone (the data itself is in IndexedDB,
// kept by the SDK's replica). API calls (/v1/) always go to the network: the replica queues what fails.
const CACHE = 'offline-todo-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/v1/')) return;
  // Network first (a fresh page when online), the cached copy when offline.
  e.respondWith(
    fetch(e.request)
      .then(async (res) => {
        const copy = res.clone();
        await (await caches.open(CACHE)).put(e.request, copy);
        return res;
      })
      .catch(async () => (await caches.match(e.request, { ignoreSearch: true })) ?? Response.error()),
  );
});
