// sw.js: keeps the site working offline after a first visit.
// The build writes BUILD (named after the build's content) and PRECACHE (the files every page
// shares, and the runtime: nothing that grows with the catalogue or the locales). A page adds its
// own calculator and catalog with a "keep" message. A new build has a new cache: it installs
// beside the old one, carries over every page the old one holds, then removes it.
//
// Rules:
// - A cache holds a consistent set. A file named `?v=<version>` is stored only with the bytes that
//   version is the SHA-256 of (the server answers any `?v=` with today's file), and a page only
//   once every versioned file and the runtime it names are stored beside it. So every page a cache
//   holds runs on what that cache holds, whichever build served it and whatever the HTTP cache had.
// - A page is stored under its address without the query string: a share link is the same page.
// - Only the site's pages, its `_app/` files and its search index are answered here. Anything else
//   (the dev server's reload stream, sw.js itself, the sitemap) goes to the network untouched.
// - Only this site's caches are touched: sites under other paths of the origin (GitHub Pages serves
//   every project of a user from one origin) keep theirs. A cache's name ends with its site's path.
const BUILD = /*CACHE*/ "";
const PRECACHE = /*PRECACHE*/ [];
const OURS = "ai-calculators-"; // how every cache of a build of this project begins (assets.py names them)
const RUNTIME = /^_app\/pyodide\/[^/]+\//;
// What a page's runtime folder must hold: the runtime files of the precache, by name.
const RUNTIME_FILES = PRECACHE.filter((url) => RUNTIME.test(url)).map((url) => url.replace(RUNTIME, ""));
const SCOPE = self.registration.scope;
const SITE = ` ${new URL(SCOPE).pathname}`;
const CACHE = `${BUILD}${SITE}`;
// The quick start's memory snapshot (snapshot.js): it makes way when the offline cache needs the room.
const SNAPSHOTS = `python-snapshots${SITE}`;
const APP = new URL("_app/", SCOPE).href;
const SEARCH = new URL("pagefind/", SCOPE).href;
const SEARCH_ENTRY = new URL("pagefind-entry.json", SEARCH).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const kept = await withRoom(() => Promise.all(PRECACHE.map((url) => keepFile(cache, new URL(url, SCOPE).href))));
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
      // Every page this site's older caches hold, and every page open now: this build's copy of each,
      // fetched now (the copy a tab holds may be an older build's), while older caches can still lend
      // their files. Where the network cannot give one (the connection dropped during the deploy), the
      // older cache's copy is carried over with the files it runs on. Only then are older caches removed.
      const cache = await caches.open(CACHE);
      const older = await olderCaches();
      const stored = new Map();
      for (const name of older) {
        const old = await caches.open(name);
        for (const request of await old.keys()) {
          const url = withoutQuery(request.url);
          if (isPage(url) && !stored.has(url)) stored.set(url, await old.match(request));
        }
      }
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        const url = withoutQuery(client.url);
        if (isPage(url) && !stored.has(url)) stored.set(url, undefined);
      }
      const carried = await Promise.all(
        [...stored].map(async ([url, copy]) => {
          if (await cache.match(url)) return true;
          const fresh = await fetch(url, { cache: "no-cache" }).catch(() => null);
          if (fresh && (await withRoom(() => keepPage(cache, url, fresh.clone())).catch(() => false))) return true;
          return copy ? withRoom(() => keepPage(cache, url, copy.clone())).catch(() => false) : true;
        }),
      );
      // A page that could not be carried (its older cache lacked a file) keeps its cache for now.
      if (carried.every(Boolean)) for (const name of older) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

// This site's caches of other builds: named with its path, or, from builds before the path was in
// the name, holding nothing but this site's files (a site at the origin's root cannot tell its
// neighbours' older caches from its own, so it leaves those).
async function olderCaches() {
  const names = [];
  for (const name of await caches.keys()) {
    if (name === CACHE || !name.startsWith(OURS)) continue;
    if (name.endsWith(SITE)) names.push(name);
    else if (!name.includes(" ") && new URL(SCOPE).pathname !== "/") {
      const keys = await (await caches.open(name)).keys();
      if (keys.every((request) => request.url.startsWith(SCOPE))) names.push(name);
    }
  }
  return names;
}

// Whether `url` is one of the site's pages (rather than a file under _app/ or the search index).
function isPage(url) {
  return url.startsWith(SCOPE) && !url.startsWith(APP) && !url.startsWith(SEARCH);
}

// A page asks to keep its own files (its calculator's bundle and catalog: site files under _app/ only), or,
// once its reader has searched, its language's whole search index (files under pagefind/ only).
self.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || !Array.isArray(data.urls)) return;
  if (data.type === "keep") event.waitUntil(keep(data.urls.slice(0, 8), APP));
  else if (data.type === "keep-search") event.waitUntil(keep(data.urls.slice(0, 2000), SEARCH));
});

async function keep(urls, folder) {
  const cache = await caches.open(CACHE);
  for (const url of urls) {
    if (typeof url !== "string") continue;
    const target = new URL(url, SCOPE).href;
    if (target.startsWith(folder)) await withRoom(() => keepFile(cache, target)).catch(() => {});
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
    const copy = response.clone();
    event.waitUntil(withRoom(() => keepPage(cache, key, copy.clone())).catch(() => {}));
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

// Store a page under `key` with every file it needs, or not at all; say whether it was stored.
async function keepPage(cache, key, response) {
  if (!response.ok || !(response.headers.get("content-type") ?? "").startsWith("text/html")) return false;
  const needed = pageFiles(await response.clone().text(), key);
  const kept = await Promise.all(needed.map((url) => keepFile(cache, url).catch(unlessOutOfRoom)));
  if (!kept.every(Boolean)) return false;
  await cache.put(key, response);
  return true;
}

// Run `task`; if the origin's storage is full, remove this site's memory snapshot (a faster start is worth
// less than offline use) and run it once more.
async function withRoom(task) {
  try {
    return await task();
  } catch (error) {
    if (error?.name !== "QuotaExceededError") throw error;
    await caches.delete(SNAPSHOTS);
    return task();
  }
}

function unlessOutOfRoom(error) {
  if (error?.name === "QuotaExceededError") throw error;
  return false;
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

// The copy of `url` that an older build's cache holds, if any (of any site here: the URL names its bytes).
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
