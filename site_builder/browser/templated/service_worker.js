// sw.js: keeps the site working offline after a first visit.
// The build writes CACHE (named after the build's content) and PRECACHE (the files every page
// shares, and the runtime: nothing that grows with the catalogue or the locales). A page adds its
// own calculator and catalog with a "keep" message. A new build has a new CACHE: it installs
// beside the old one, then removes it.
//
// Rules:
// - A cache holds a consistent set. A file named `?v=<version>` is stored only with the bytes that
//   version is the SHA-256 of (the server answers any `?v=` with today's file), and a page only
//   once every versioned file and the runtime it names are stored beside it. So every page a cache
//   holds runs on what that cache holds, whichever build served it and whatever the HTTP cache had.
// - A page is stored under its address without the query string: a share link is the same page.
// - Only the site's pages, its `_app/` files and its search index are answered here. Anything else
//   (the dev server's reload stream, sw.js itself, the sitemap) goes to the network untouched.
const CACHE = /*CACHE*/ "";
const PRECACHE = /*PRECACHE*/ [];
const OURS = "ai-calculators-"; // how every CACHE of this site begins (assets.py names them)
const RUNTIME = /^_app\/pyodide\/[^/]+\//;
// What a page's runtime folder must hold: the runtime files of the precache, by name.
const RUNTIME_FILES = PRECACHE.filter((url) => RUNTIME.test(url)).map((url) => url.replace(RUNTIME, ""));
const SCOPE = self.registration.scope;
const APP = new URL("_app/", SCOPE).href;
const SEARCH = new URL("pagefind/", SCOPE).href;
const SEARCH_ENTRY = new URL("pagefind-entry.json", SEARCH).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const kept = await Promise.all(PRECACHE.map((url) => keepFile(cache, new URL(url, SCOPE).href)));
      // The server already has another build's files: this worker never starts (what it did store
      // is consistent, and the next build's worker removes it).
      if (!kept.every(Boolean)) throw new Error("the server no longer has this build's files");
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // The pages open while this worker installed: store this build's copy of each, fetched now
      // (the copy a tab holds may be an older build's), while older caches can still lend their files.
      const cache = await caches.open(CACHE);
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const pages = new Set(windows.map((client) => withoutQuery(client.url)).filter((url) => url.startsWith(SCOPE)));
      await Promise.all(
        [...pages].map((url) =>
          fetch(url, { cache: "no-cache" })
            .then((response) => keepPage(cache, url, response))
            .catch(() => {}),
        ),
      );
      for (const name of await caches.keys()) {
        if (name !== CACHE && name.startsWith(OURS)) await caches.delete(name);
      }
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
  for (const url of urls) {
    if (typeof url !== "string") continue;
    const target = new URL(url, SCOPE).href;
    if (target.startsWith(APP)) await keepFile(cache, target).catch(() => {});
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = request.url;
  if (!url.startsWith(SCOPE)) return;
  if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.startsWith(APP) && request.method === "HEAD") {
    event.respondWith(headFromCache(request));
  } else if (withoutQuery(url) === SEARCH_ENTRY && request.method === "GET") {
    event.respondWith(searchEntry(request));
  } else if ((url.startsWith(APP) || url.startsWith(SEARCH)) && request.method === "GET") {
    event.respondWith(cacheFirst(request));
  }
  // Anything else is not the site's to keep: no answer here, so the browser asks the network itself.
});

// Pages: fresh when online (stored afterwards, with what they need), the stored copy when not.
async function page(event) {
  const key = withoutQuery(event.request.url);
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(event.request);
    event.waitUntil(keepPage(cache, key, response.clone()).catch(() => {}));
    return response;
  } catch (error) {
    const stored = await cache.match(key);
    if (stored) return stored;
    throw error;
  }
}

// Versioned files and the runtime never change under one URL: the stored copy is the answer.
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(request.url)) ?? (await fetchInto(cache, request.url)).response;
}

// Pagefind asks for its entry file with a new `?ts=` each time, to get the current index: the
// network's answer when online, the last one stored (without the query) when not.
async function searchEntry(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(SEARCH_ENTRY, response.clone());
    return response;
  } catch (error) {
    const stored = await cache.match(SEARCH_ENTRY);
    if (stored) return stored;
    throw error;
  }
}

// The worker probes the runtime with HEAD before loading it; answer from the cache when offline.
async function headFromCache(request) {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(request, { ignoreMethod: true });
  if (stored) return new Response(null, { status: stored.status, headers: stored.headers });
  return fetch(request);
}

// Store a page under `key` with every file it needs, or not at all.
async function keepPage(cache, key, response) {
  if (!response.ok || !(response.headers.get("content-type") ?? "").startsWith("text/html")) return;
  const needed = pageFiles(await response.clone().text(), key);
  const kept = await Promise.all(needed.map((url) => keepFile(cache, url).catch(() => false)));
  if (kept.every(Boolean)) await cache.put(key, response);
}

// The site files a page names that it cannot run without: its versioned files, and the runtime in
// the folder it names.
function pageFiles(html, pageUrl) {
  const files = new Set();
  for (const [, value] of html.matchAll(/"([^"<>]*_app\/[^"<>]*)"/g)) {
    const url = new URL(value.replaceAll("&amp;", "&"), pageUrl);
    if (!url.href.startsWith(APP)) continue;
    if (url.searchParams.has("v")) files.add(url.href);
    else if (url.pathname.endsWith("/") && RUNTIME.test(url.href.slice(SCOPE.length))) {
      for (const name of RUNTIME_FILES) files.add(new URL(name, url).href);
    }
  }
  return [...files];
}

// Put a site file into `cache` unless it is there; say whether `cache` now holds what `url` names.
async function keepFile(cache, url) {
  return Boolean(await cache.match(url)) || (await fetchInto(cache, url)).kept;
}

// The answer for a site file, stored in `cache` if it is what its URL names: from another build's
// cache when it holds it (a URL that never changes its bytes), else from the network.
async function fetchInto(cache, url) {
  const other = immutable(url) ? await fromAnotherBuild(url) : undefined;
  if (other && (await put(cache, url, other.clone()))) return { response: other, kept: true };
  const response = await download(url);
  return { response, kept: await put(cache, url, response.clone()) };
}

// Store `response` under `url` if it is what `url` names; say whether it was.
async function put(cache, url, response) {
  if (!response.ok) return false;
  const body = await response.arrayBuffer();
  if (!(await isVersion(url, body))) return false;
  await cache.put(url, new Response(body, response));
  return true;
}

// Whether `body` is what `url` names: its `?v=` version is the start of the body's SHA-256.
async function isVersion(url, body) {
  const version = new URL(url).searchParams.get("v");
  if (!version) return true;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("").startsWith(version);
}

// Whether a URL names one content for good: a versioned site file, or a file of a runtime version.
function immutable(url) {
  const path = url.slice(SCOPE.length);
  return url.startsWith(APP) && (new URL(url).searchParams.has("v") || RUNTIME.test(path));
}

// The copy of `url` that an older build's cache holds, if any.
async function fromAnotherBuild(url) {
  for (const name of await caches.keys()) {
    if (name === CACHE || !name.startsWith(OURS)) continue;
    const found = await (await caches.open(name)).match(url);
    if (found) return found;
  }
  return undefined;
}

// One download per URL however many ask for it at once (a page, and this worker storing that page);
// a URL that never changes its bytes may come from the HTTP cache (what the page already downloaded).
const downloads = new Map();

async function download(url) {
  let pending = downloads.get(url);
  if (!pending) {
    pending = fetch(url, { cache: immutable(url) ? "force-cache" : "default" })
      .then(async (response) => ({ response, body: await response.arrayBuffer() }))
      .finally(() => downloads.delete(url));
    downloads.set(url, pending);
  }
  const { response, body } = await pending;
  return new Response(body, response);
}

// An address without its query string or fragment: what a page (or the search's entry) is stored under.
function withoutQuery(url) {
  const key = new URL(url);
  key.search = "";
  key.hash = "";
  return key.href;
}
