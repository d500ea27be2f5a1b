// Compiles bundles' Python files to bytecode with the pinned Pyodide, for the worker to import as is.
//   node bytecode.mjs RUNTIME_DIR STDLIB_ZIP IN_ZIP OUT_ZIP [IN_ZIP OUT_ZIP ...]
// The worker imports the shared core and its calculator on every first visit; compiled from source
// there, in WebAssembly, that is a fifth of the start. Each `name.py` becomes `name.pyc` beside where it was
// (a sourceless module), compiled by the same Python 3.14 the pages run, so it is the same program.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, stdlib, ...pairs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdLibURL: stdlib, stdout: () => {}, stderr: () => {} });
const compileBundle = pyodide.runPython(`
import importlib.util, io, marshal, zipfile

def compile_bundle(data):
    source = zipfile.ZipFile(io.BytesIO(data.to_py()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for info in source.infolist():
            body, name = source.read(info), info.filename
            if name.endswith(".py"):
                code = compile(body, "/app/" + name, "exec", dont_inherit=True)
                body, name = importlib.util.MAGIC_NUMBER + b"\\x00" * 12 + marshal.dumps(code), name + "c"
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, body, compresslevel=9)
    return buffer.getvalue()

compile_bundle
`);
for (let index = 0; index < pairs.length; index += 2) {
  writeFileSync(pairs[index + 1], compileBundle(new Uint8Array(readFileSync(pairs[index]))).toJs());
}
