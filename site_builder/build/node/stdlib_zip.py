"""Run by stdlib.mjs inside the pinned Pyodide: the standard modules a page's worker imports, as bytecode.

Not imported by the build: Node.js reads this file and runs it in Pyodide, whose Python (the pages'
Python 3.14) compiles what it imports itself.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import marshal
import sys
import zipfile

from pyodide.ffi import to_js
from pyodide_js import unpackArchive

__all__ = ["write_stdlib"]


def write_stdlib(modules: list[str]) -> bytes:
    """Return a deterministic zip of every standard module Pyodide's start-up and `modules` import, compiled."""
    # The worker unpacks its bundles with pyodide.unpackArchive: what that imports is needed too.
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("probe/probe.txt", "probe")
    unpackArchive(to_js(archive.getvalue()), "zip", extractDir="/tmp/probe")
    for name in modules:
        importlib.import_module(name)
    source = next(path for path in sys.path if path.endswith(".zip"))
    prefix = source + "/"
    loaded = (getattr(module, "__file__", None) or "" for module in list(sys.modules.values()))
    files = sorted({path.removeprefix(prefix) for path in loaded if path.startswith(prefix)})
    stdlib = zipfile.ZipFile(source)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for name in files:
            # optimize=2: no docstrings or asserts, bytes no page uses.
            code = compile(stdlib.read(name), prefix + name, "exec", dont_inherit=True, optimize=2)
            info = zipfile.ZipInfo(name + "c", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            # No source sits beside it, so its timestamp is never checked: zero keeps the zip deterministic.
            out.writestr(info, importlib.util.MAGIC_NUMBER + b"\x00" * 12 + marshal.dumps(code), compresslevel=9)
    return buffer.getvalue()
