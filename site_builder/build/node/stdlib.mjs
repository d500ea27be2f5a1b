// Writes the standard library a page's worker boots with: only the modules it imports, compiled.
//   node stdlib.mjs RUNTIME_DIR OUT_ZIP MODULE...
// Pyodide's own python_stdlib.zip holds all 559 modules as source, so every boot compiles the ~150
// it imports from source, in WebAssembly: most of a plain boot's time. Here the pinned Pyodide
// itself (its Python 3.14, whose bytecode the worker runs) boots once, imports what Pyodide's
// start-up, an archive unpack and the given MODULEs import, and writes those modules as bytecode
// into a deterministic zip (stdlib_zip.py).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, out, ...modules] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdout: () => {}, stderr: () => {} });
// The Python is stdlib_zip.py beside this file, checked by ruff and mypy with the rest.
pyodide.runPython(readFileSync(new URL("stdlib_zip.py", import.meta.url), "utf8"));
const write = pyodide.globals.get("write_stdlib");
const zip = write(pyodide.toPy(modules));
writeFileSync(out, zip.toJs());
