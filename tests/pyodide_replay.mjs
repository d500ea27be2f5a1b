// Replays the core under Pyodide in Node: the doctest examples of every module, then the
// reports the test asks for. Usage: node pyodide_replay.mjs RUNTIME_DIR BUNDLE_ZIP REQUESTS_JSON
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, bundle, requestsPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
pyodide.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/app" });
const replay = pyodide.runPython(`
import base64, doctest, importlib, json, pkgutil, sys
sys.path.insert(0, "/app")
import calculators
from calculators.live import load_kit, report_json

def replay(requests_json):
    failures = {}
    for module in pkgutil.iter_modules(calculators.__path__):
        result = doctest.testmod(importlib.import_module(f"calculators.{module.name}"))
        if result.failed:
            failures[module.name] = result.failed
    reports = []
    for request in json.loads(requests_json):
        kit = load_kit(base64.b64decode(request["catalog"]), request["facts"])
        reports.append(report_json(kit, request["slug"], json.dumps(request["values"])))
    return json.dumps({"python": sys.version, "doctest_failures": failures, "reports": reports})

replay
`);
process.stdout.write(replay(readFileSync(requestsPath, "utf8")));
