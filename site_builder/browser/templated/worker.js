// The calculation engine: Pyodide in a module worker, running the calculators package. The build
// writes _app/worker.js as snapshot.js (startPython, the one user of Pyodide's private API) followed
// by this file: one download for the worker, two files to read.
// The page posts {type: "init", ...urls, gpus} once (gpus: its GPU menu, a JSON text; urls.prices: the price feed
// where the page compares models), then {type: "compute", values} (one at a time);
// the worker answers {type: "ready", start: "snapshot" | "plain", steps} or {type: "failed"}, then
// {type: "report", json} for each, or {type: "failed"} if the engine broke.
// {type: "config", text} (a pasted config.json) is answered with {type: "config", json}, and so are
// {type: "checkpoint", config, headers} (a model read from the Hub) and {type: "hub-problem", code, number}.
// {type: "price", id, entry} (a model the price search found: its feed entry, JSON) is answered with
// {type: "price", id, json}: the inputs it fills.
// {type: "offline-settled"} says the page's service worker is active (see `settled`).

let engine = null;
// The start-up snapshot is kept once the page says its offline cache has settled (the service worker is
// active), or after a while where there is none: offline use gets the storage first.
let offlineSettled = null;
const settled = new Promise((resolve) => (offlineSettled = resolve));
setTimeout(() => offlineSettled(), 15_000);

// Pyodide may leave a rejected promise behind when a runtime file fails to load; that is a failed
// start like any other, not an error to surface.
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  if (!engine) self.postMessage({ type: "failed", reason: String(event.reason) });
});

self.addEventListener("message", async (event) => {
  const message = event.data;
  if (message.type === "init") {
    try {
      const started = await start(message);
      engine = started.value;
      self.postMessage({ type: "ready", start: started.start, steps: started.steps });
    } catch (error) {
      self.postMessage({ type: "failed", reason: String(error) });
    }
  } else if (message.type === "offline-settled") {
    offlineSettled();
  } else if (["compute", "config", "checkpoint", "hub-problem", "price"].includes(message.type)) {
    // Every request gets an answer: a report, or a failure the page shows (never a page left busy).
    try {
      if (!engine) throw new Error("the engine has not started");
      if (message.type === "compute") self.postMessage({ type: "report", json: engine.report(JSON.stringify(message.values)) });
      else if (message.type === "config") self.postMessage({ type: "config", json: engine.config(String(message.text)) });
      else if (message.type === "price") self.postMessage({ type: "price", id: message.id, json: engine.price(String(message.entry)) });
      else if (message.type === "checkpoint") {
        const json = engine.checkpoint(String(message.config), JSON.stringify(message.headers.map(String)));
        self.postMessage({ type: "config", json, hub: true });
      } else {
        const json = engine.hub_problem(String(message.code), Number(message.number) || 0);
        self.postMessage({ type: "config", json, hub: true });
      }
    } catch (error) {
      self.postMessage({ type: "failed", reason: String(error) });
    }
  }
});

async function start({ runtime, stdlib, bundle, calculatorBundle, module, catalog, facts, gpus, prices }) {
  if (typeof WebAssembly !== "object") throw new Error("WebAssembly is not available");
  // Pyodide waits forever when its WebAssembly file cannot be fetched; a HEAD request finds out at once.
  const probe = fetch(new URL("pyodide.asm.wasm", runtime), { method: "HEAD" }).then((response) => {
    if (!response.ok) throw new Error(`runtime: HTTP ${response.status}`);
  });
  // The shared core and this page's own calculator and catalog: nothing that grows with the catalogue.
  const files = Promise.all([
    fetchOk(bundle).then((r) => r.arrayBuffer()),
    fetchOk(calculatorBundle).then((r) => r.arrayBuffer()),
    fetchOk(catalog).then((r) => r.arrayBuffer()),
    fetchOk(facts).then((r) => r.text()),
    // A page that compares the site's models reads its price feed; without it (offline) it compares none.
    prices ? fetchOk(prices).then((r) => r.text()).catch(() => "{}") : "{}",
  ]);
  const warm = async (pyodide) => {
    const [coreBytes] = await files;
    pyodide.unpackArchive(coreBytes, "zip", { extractDir: "/app" });
    // What every page imports, before a snapshot is taken: a restored interpreter has it already.
    const path = pyodide.pyimport("sys").path;
    if (!path.toJs().includes("/app")) path.insert(0, "/app");
    path.destroy();
    pyodide.pyimport("calculators.live").destroy();
  };
  const finish = async (pyodide) => {
    const [, ownBytes, catalogBytes, factsText, feedText] = await files;
    pyodide.unpackArchive(ownBytes, "zip", { extractDir: "/app" });
    const live = pyodide.pyimport("calculators.live");
    const catalog = pyodide.toPy(new Uint8Array(catalogBytes));
    const engine = live.make_engine(catalog, factsText, module, gpus || "[]", feedText); // calculators/live.py
    catalog.destroy();
    live.destroy();
    return engine;
  };
  const [, started] = await Promise.all([probe, startPython({ runtime, stdlib, core: bundle }, { warm, finish, keepAfter: settled })]);
  return started;
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}
