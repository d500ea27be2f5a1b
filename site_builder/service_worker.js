// sw.js: keeps the site working offline after a first visit.
// The build writes CACHE (named after the build's content) and PRECACHE (the files every page
// shares, and the runtime: nothing that grows with the catalogue or the locales). A page adds its
// own calculator and catalog with a "keep" message. A new build has a new CACHE: it installs
// beside the old one, then removes it.
const CACHE = /*CACHE*/ "";
const PRECACHE = /*PRECACHE*/ [];

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // force-cache: take files the page already downloaded from the HTTP cache instead of fetching them twice.
      await cache.addAll(PRECACHE.map((url) => new Request(new URL(url, self.registration.scope), { cache: "force-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE && name.startsWith("ai-calculators-")) await caches.delete(name);
      }
      // The pages open while this worker installed were fetched before it: keep them too.
      const cache = await caches.open(CACHE);
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      await Promise.all(
        windows.map((client) => cache.add(new Request(client.url, { cache: "force-cache" })).catch(() => {})),
      );
      await self.clients.claim();
    })(),
  );
});

// A page asks to keep its own files (its calculator's bundle and catalog): site files under _app/ only.
self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(keep(data.urls.slice(0, 8)));
});

async function keep(urls) {
  const cache = await caches.open(CACHE);
  const app = new URL("_app/", self.registration.scope);
  for (const url of urls) {
    if (typeof url !== "string") continue;
    const target = new URL(url, self.registration.scope);
    if (target.origin !== app.origin || !target.pathname.startsWith(app.pathname)) continue;
    if (await cache.match(target.href)) continue;
    await cache.add(new Request(target.href, { cache: "force-cache" })).catch(() => {});
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== location.origin) return;
  if (request.method === "HEAD") {
    event.respondWith(headFromCache(request));
  } else if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(networkFirst(request));
  } else if (request.method === "GET") {
    event.respondWith(cacheFirst(request));
  }
});

// Pages: fresh when online, the stored copy when not.
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const stored = (await cache.match(request)) ?? (await cache.match(request, { ignoreSearch: true }));
    if (stored) return stored;
    throw error;
  }
}

// Versioned files and the runtime never change under one URL: the stored copy is the answer.
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(request);
  if (stored) return stored;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

// The worker probes the runtime with HEAD before loading it; answer from the cache when offline.
async function headFromCache(request) {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(request, { ignoreMethod: true });
  if (stored) return new Response(null, { status: stored.status, headers: stored.headers });
  return fetch(request);
}
