// Boots Pyodide in Node, unpacks the shared core and one calculator, and times the imports a page's
// worker makes (calculators.live and the calculator's module); prints {"import_ms": ...}.
//   node import_timing.mjs RUNTIME_DIR CORE_ZIP CALCULATOR_ZIP MODULE
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, core, own, module] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
const started = performance.now();
pyodide.unpackArchive(new Uint8Array(readFileSync(core)), "zip", { extractDir: "/app" });
pyodide.unpackArchive(new Uint8Array(readFileSync(own)), "zip", { extractDir: "/app" });
pyodide.pyimport("sys").path.insert(0, "/app");
pyodide.pyimport("calculators.live").load_calculator(module);
process.stdout.write(JSON.stringify({ import_ms: performance.now() - started }));
