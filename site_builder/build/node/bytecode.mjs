// Compiles bundles' Python files to bytecode with the pinned Pyodide, for the worker to import as is.
//   node bytecode.mjs RUNTIME_DIR STDLIB_ZIP IN_ZIP OUT_ZIP [IN_ZIP OUT_ZIP ...]
// The worker imports the shared core and its calculator on every first visit; compiled from source
// there, in WebAssembly, that is a fifth of the start. Each `name.py` becomes `name.pyc` beside where it was
// (a sourceless module), compiled by the same Python 3.14 the pages run, so it is the same program.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, stdlib, ...pairs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
// Without the column ranges of each instruction (PEP 657), which only tracebacks' carets read: a quarter of the
// compressed bytes every first visit loads. Line numbers stay.
const pyodide = await loadPyodide({
  indexURL: `${runtime}/`,
  stdLibURL: stdlib,
  env: { PYTHONNODEBUGRANGES: "1" },
  stdout: () => {},
  stderr: () => {},
});
// The Python is bundle_bytecode.py beside this file, checked by ruff and mypy with the rest.
pyodide.runPython(readFileSync(new URL("bundle_bytecode.py", import.meta.url), "utf8"));
const compileBundle = pyodide.globals.get("compile_bundle");
for (let index = 0; index < pairs.length; index += 2) {
  writeFileSync(pairs[index + 1], compileBundle(pyodide.toPy(new Uint8Array(readFileSync(pairs[index])))).toJs());
}
