// Runs the site's snapshot.js (the one user of Pyodide's private snapshot API) in Node, on the
// pinned runtime, with an in-memory Cache Storage. Usage: node snapshot_node.mjs SNAPSHOT_JS RUNTIME_DIR STDLIB_ZIP
// Prints one JSON line per start: how it started and what Python answered.
import { pathToFileURL } from "node:url";

const [module, runtimeDir, stdlibZip] = process.argv.slice(2);
const stores = new Map();
globalThis.caches = {
  async open(name) {
    if (!stores.has(name)) stores.set(name, new Map());
    const entries = stores.get(name);
    return {
      async match(key) {
        const stored = entries.get(String(key));
        return stored ? new Response(stored.body.slice(), { headers: stored.headers }) : undefined;
      },
      async put(key, response) {
        const headers = Object.fromEntries(response.headers);
        entries.set(String(key), { body: new Uint8Array(await response.arrayBuffer()), headers });
      },
      async keys() {
        return [...entries.keys()].map((url) => ({ url }));
      },
    };
  },
  async delete(name) {
    return stores.delete(name);
  },
};

// The store snapshot.js names after the site's path (here, the folder above the module).
const storeOf = () => [...stores].find(([name]) => name.startsWith("python-snapshots "))?.[1];

const { startPython } = await import(pathToFileURL(module).href);
const runtime = `${runtimeDir}/`; // Pyodide in Node takes paths where a browser takes URLs
const stdlib = stdlibZip;
const warm = (pyodide) => pyodide.runPython("import decimal, json");
const finish = (pyodide) =>
  pyodide.runPython("import sys; ' '.join([sys.version.split()[0], str(decimal.Decimal('0.1') * 3), json.dumps([1])])");

async function start(core) {
  const started = await startPython({ runtime, stdlib, core }, { warm, finish });
  // The snapshot is kept in the background: wait for it, as a reader's open page does.
  for (let i = 0; i < 200 && !(storeOf()?.size > 0); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  console.log(JSON.stringify({ start: started.start, value: started.value, stored: storeOf()?.size ?? 0 }));
}

await start("core-1"); // nothing stored: a plain boot, which keeps a snapshot
await start("core-1"); // restored
const entries = storeOf();
for (const [key, stored] of entries) entries.set(key, { ...stored, body: stored.body.slice(0, 4096) }); // damaged
await start("core-1"); // falls back, and keeps a good one again
await start("core-2"); // another core: the stored snapshot is not its own
