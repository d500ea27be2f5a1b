// Replays the core under Pyodide in Node, in one boot: every report request, streamed, then the
// doctests of the modules it is given.
// Usage: node pyodide_replay.mjs RUNTIME_DIR BUNDLE_ZIP STDLIB_ZIP < requests
// It boots on STDLIB_ZIP, the standard library the site's pages boot on, so a module the core
// needs and the build left out fails here. Standard input holds one JSON object a line:
//   {"type": "locale", "locale": "de", "catalog": base64, "facts": json}   (no answer; sent once each)
//   {"type": "report", "locale": "de", "slug": "...", "values": {...}}     -> {"json": "..."}
//   {"type": "doctest", "modules": [...]}   (last)    -> {"python": "3.14…", "failures": {...}}
// and each answer is one JSON line on standard output, in order. The doctests need modules no page
// imports (doctest itself): Pyodide's whole standard library is added for them, after the reports.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [runtime, bundle, stdlib] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdLibURL: stdlib });
pyodide.FS.writeFile("/lib/whole_stdlib.zip", readFileSync(`${runtime}/python_stdlib.zip`));
pyodide.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/app" });
pyodide.pyimport("sys").path.insert(0, "/app");
// The Python is pyodide_replay.py beside this file, checked by ruff and mypy with the rest.
pyodide.runPython(readFileSync(new URL("pyodide_replay.py", import.meta.url), "utf8"));
const handle = pyodide.globals.get("make_handler")();
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const answer = handle(line);
  if (answer !== undefined && answer !== null) process.stdout.write(`${answer}\n`);
}
