// Replays the core under Pyodide in Node, in one boot: the doctests of the modules it is given, then
// every report request, streamed. Usage: node pyodide_replay.mjs RUNTIME_DIR BUNDLE_ZIP < requests
// Standard input holds one JSON object a line:
//   {"type": "doctest", "modules": [...]}                     -> {"python": "3.14…", "failures": {...}}
//   {"type": "locale", "locale": "de", "catalog": base64, "facts": json}   (no answer; sent once each)
//   {"type": "report", "locale": "de", "slug": "...", "values": {...}}     -> {"json": "..."}
// and each answer is one JSON line on standard output, in order.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [runtime, bundle] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
pyodide.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/app" });
const handle = pyodide.runPython(`
import base64, doctest, importlib, json, sys
sys.path.insert(0, "/app")
from calculators import find
from calculators.core.live import load_kit, report_json

def make_handler():
    kits = {}

    def handle(line):
        request = json.loads(line)
        if request["type"] == "doctest":
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
