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
        const body = entries.get(String(key));
        return body ? new Response(body.slice()) : undefined;
      },
      async put(key, response) {
        entries.set(String(key), new Uint8Array(await response.arrayBuffer()));
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

const { startPython } = await import(pathToFileURL(module).href);
const runtime = `${runtimeDir}/`; // Pyodide in Node takes paths where a browser takes URLs
const stdlib = stdlibZip;
const warm = (pyodide) => pyodide.runPython("import decimal, json");
const finish = (pyodide) =>
  pyodide.runPython("import sys; ' '.join([sys.version.split()[0], str(decimal.Decimal('0.1') * 3), json.dumps([1])])");

async function start(core) {
  const started = await startPython({ runtime, stdlib, core }, { warm, finish });
  // The snapshot is kept in the background: wait for it, as a reader's open page does.
  for (let i = 0; i < 200 && !(stores.get("python-snapshots")?.size > 0); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  console.log(JSON.stringify({ start: started.start, value: started.value, stored: stores.get("python-snapshots")?.size ?? 0 }));
}

await start("core-1"); // nothing stored: a plain boot, which keeps a snapshot
await start("core-1"); // restored
const [entries] = stores.values();
for (const [key, bytes] of entries) entries.set(key, bytes.slice(0, 4096)); // damaged
await start("core-1"); // falls back, and keeps a good one again
await start("core-2"); // another core: the stored snapshot is not its own
