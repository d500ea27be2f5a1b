// Writes the standard library a page's worker boots with: only the modules it imports, compiled.
//   node stdlib.mjs RUNTIME_DIR OUT_ZIP MODULE...
// Pyodide's own python_stdlib.zip holds all 559 modules as source, so every boot compiles the ~150
// it imports from source, in WebAssembly: most of a plain boot's time. Here the pinned Pyodide
// itself (its Python 3.14, whose bytecode the worker runs) boots once, imports what Pyodide's
// start-up, an archive unpack and the given MODULEs import, and writes those modules as bytecode
// (optimize=2: no docstrings or asserts, bytes no page uses) into a deterministic zip.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, out, ...modules] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdout: () => {}, stderr: () => {} });
const write = pyodide.runPython(`
import importlib, importlib.util, io, marshal, sys, zipfile

def write_stdlib(modules):
    # The worker unpacks its bundles with pyodide.unpackArchive: what that imports is needed too.
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("probe/probe.txt", "probe")
    from pyodide_js import unpackArchive
    from pyodide.ffi import to_js
    unpackArchive(to_js(archive.getvalue()), "zip", extractDir="/tmp/probe")
    for name in modules:
        importlib.import_module(name)
    source = next(path for path in sys.path if path.endswith(".zip"))
    prefix = source + "/"
    files = sorted({
        module.__file__.removeprefix(prefix)
        for module in list(sys.modules.values())
        if (getattr(module, "__file__", None) or "").startswith(prefix)
    })
    stdlib = zipfile.ZipFile(source)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for name in files:
            code = compile(stdlib.read(name), prefix + name, "exec", dont_inherit=True, optimize=2)
            info = zipfile.ZipInfo(name + "c", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            # No source sits beside it, so its timestamp is never checked: zero keeps the zip deterministic.
            out.writestr(info, importlib.util.MAGIC_NUMBER + b"\\x00" * 12 + marshal.dumps(code), compresslevel=9)
    return buffer.getvalue()

write_stdlib
`);
const zip = write(pyodide.toPy(modules));
writeFileSync(out, zip.toJs());
