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
const handle = pyodide.runPython(`
import base64, importlib, json, sys
sys.path.insert(0, "/app")
from calculators import find
from calculators.live import load_kit, report_json

def make_handler():
    kits = {}

    def handle(line):
        request = json.loads(line)
        if request["type"] == "doctest":
            sys.path.append("/lib/whole_stdlib.zip")
            import doctest

            failures = {}
            for name in request["modules"]:
                result = doctest.testmod(importlib.import_module(name))
                if result.failed:
                    failures[name] = result.failed
            return json.dumps({"python": sys.version, "failures": failures})
        if request["type"] == "locale":
            kits[request["locale"]] = load_kit(base64.b64decode(request["catalog"]), request["facts"])
            return None
        calculator = find(request["slug"])
        return json.dumps({"json": report_json(kits[request["locale"]], calculator, json.dumps(request["values"]))})

    return handle

make_handler()
`);
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const answer = handle(line);
  if (answer !== undefined && answer !== null) process.stdout.write(`${answer}\n`);
}
