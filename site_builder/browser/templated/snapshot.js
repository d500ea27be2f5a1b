// snapshot.js: starts Python for the worker, from a memory snapshot when the reader has one.
//
// This is the one file that uses Pyodide's private snapshot API (_makeSnapshot, makeMemorySnapshot,
// _loadSnapshot). It is private, so it is pinned: SETTINGS.version is the exact Pyodide build the
// site ships (the build writes it), and any other version boots plainly. Why a snapshot: a plain
// boot runs the interpreter's whole start-up; restoring the memory of one that already started
// skips it. The first visit boots plainly, imports the shared core, copies the interpreter's memory
// before any page's own code runs, and keeps it in Cache Storage (uncompressed: reading 31 MB is
// faster than unzipping 6 MB) under a key naming the runtime, the standard library and the core it
// was made with. Later visits, on any page, restore it. A snapshot that is missing, made for another
// runtime (Pyodide checks its build id), or that fails to restore or to set up the calculator is
// deleted, and the worker boots plainly instead: a snapshot can make a start faster, never break a page.
// It is stored with its SHA-256 and used only if its bytes still have it (a flipped bit that still
// restores would make every calculator refuse ordinary input). It yields to offline use: kept only
// while the origin's quota leaves room for the offline cache beside it. Its store is named after the
// site's path, so sites under other paths of the origin keep theirs.
const SETTINGS = /*SETTINGS*/ { version: "", lock: null, snapshots: false };
const STORE = `python-snapshots ${new URL("../", import.meta.url).pathname}`;
const DIGEST = "X-Snapshot-SHA256";
// Room the offline cache (the runtime, the shared files and the pages read) keeps beside a snapshot.
const ROOM_FOR_OFFLINE = 64 * 1024 * 1024;

/**
 * Start Pyodide and return `finish(pyodide)`'s value, how it started ("snapshot" or "plain"), and
 * the milliseconds each step took (the benchmark reads them).
 * `runtime` is the runtime folder's URL (ending in "/"), `stdlib` the standard library's (null:
 * Pyodide's own), `core` names what `warm(pyodide)` loads: the shared code every page imports, which the snapshot
 * keeps imported. `warm` runs again after a restore (files do not survive one; imports do). A new snapshot is
 * stored once `keepAfter` settles (the offline cache first).
 */
export async function startPython({ runtime, stdlib, core }, { warm, finish, keepAfter = Promise.resolve() }) {
  const steps = {};
  let last = performance.now();
  const step = (name) => {
    steps[name] = Math.round(performance.now() - last);
    last = performance.now();
  };
  // The loader, the runtime's script and the stored snapshot, all at once: Pyodide imports the
  // runtime's script after its loader, and gets the one already on its way.
  const loading = import(`${runtime}pyodide.mjs`);
  import(`${runtime}pyodide.asm.mjs`).catch(() => {});
  const wanted = SETTINGS.snapshots ? snapshotKey({ runtime, stdlib, core }) : null;
  const found = wanted ? findSnapshot(wanted) : null;
  const { loadPyodide, version } = await loading;
  const options = { indexURL: runtime, stdout: () => {}, stderr: () => {} };
  if (stdlib) options.stdLibURL = stdlib;
  if (SETTINGS.lock) options.lockFileContents = JSON.stringify({ info: SETTINGS.lock, packages: {} });
  const key = version === SETTINGS.version ? wanted : null;
  const stored = key ? await found : null;
  step("find");
  if (stored) {
    try {
      // The snapshot is read while Pyodide fetches and compiles the rest of the runtime.
      const pyodide = await boot(loadPyodide, { ...options, _loadSnapshot: readSnapshot(stored) });
      step("restore");
      await warm(pyodide);
      step("warm");
      const value = await finish(pyodide);
      step("finish");
      return { value, start: "snapshot", steps };
    } catch {
      await forgetSnapshots();
    }
  }
  const pyodide = await boot(loadPyodide, key ? { ...options, _makeSnapshot: true } : options);
  step("boot");
  await warm(pyodide);
  step("warm");
  // Taken before any page's own calculator or catalog is loaded: the state every page shares.
  const snapshot = key ? takeSnapshot(pyodide) : null;
  step("snapshot");
  const value = await finish(pyodide);
  step("finish");
  if (snapshot) keepAfter.then(() => keepSnapshot(key, snapshot));
  return { value, start: "plain", steps };
}

// Pyodide (this pinned build) catches a failed WebAssembly instantiation (a truncated or damaged
// pyodide.asm.wasm), only warns, and never settles loadPyodide: that warning is the one sign, so it
// fails the start at once instead of leaving the page loading.
async function boot(loadPyodide, options) {
  const warn = console.warn;
  let refuse;
  const refused = new Promise((_, reject) => (refuse = reject));
  console.warn = (...args) => {
    if (args[0] === "wasm instantiation failed!") refuse(new Error("runtime: pyodide.asm.wasm cannot be instantiated"));
    warn.apply(console, args);
  };
  try {
    return await Promise.race([loadPyodide(options), refused]);
  } finally {
    console.warn = warn;
  }
}

function snapshotKey({ runtime, stdlib, core }) {
  const name = new URLSearchParams({ runtime, stdlib: stdlib ?? "", core, version: SETTINGS.version });
  return `${runtime}snapshot?${name}`;
}

function takeSnapshot(pyodide) {
  try {
    return pyodide.makeMemorySnapshot();
  } catch {
    return null;
  }
}

async function findSnapshot(key) {
  try {
    const cache = await caches.open(STORE);
    return (await cache.match(key)) ?? null;
  } catch {
    return null; // no storage here (an opaque origin): boot plainly
  }
}

async function readSnapshot(response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.headers.get(DIGEST) !== (await sha256(bytes))) throw new Error("snapshot: damaged");
  return bytes;
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// In the background, once the engine is ready: one snapshot per reader, the newest, if there is room.
async function keepSnapshot(key, snapshot) {
  try {
    await forgetSnapshots();
    // (Node, where the tests run this file, has no StorageManager: nothing to leave room for there.)
    const estimate = await globalThis.navigator?.storage?.estimate();
    if (estimate && estimate.quota - estimate.usage < snapshot.length + ROOM_FOR_OFFLINE) return;
    const cache = await caches.open(STORE);
    const headers = { "Content-Length": String(snapshot.length), [DIGEST]: await sha256(snapshot) };
    await cache.put(key, new Response(snapshot, { headers }));
  } catch {
    // No storage (a private window, a full disk, an opaque origin): the next visit boots plainly.
  }
}

async function forgetSnapshots() {
  try {
    await caches.delete(STORE);
  } catch {
    // Nothing stored, or no storage at all.
  }
}
