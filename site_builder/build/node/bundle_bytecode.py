"""Run by bytecode.mjs inside the pinned Pyodide: a bundle's Python files compiled to bytecode.

Not imported by the build: Node.js reads this file and runs it in Pyodide, so the bytecode is the
pages' own Python 3.14's.
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import zipfile

__all__ = ["compile_bundle"]


def compile_bundle(data: bytes | memoryview) -> bytes:
    """Return the zip `data` with each `name.py` replaced by `name.pyc` (sourceless), deterministically."""
    source = zipfile.ZipFile(io.BytesIO(bytes(data)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for info in source.infolist():
            body, name = source.read(info), info.filename
            if name.endswith(".py"):
                code = compile(body, "/app/" + name, "exec", dont_inherit=True)
                body, name = importlib.util.MAGIC_NUMBER + b"\x00" * 12 + marshal.dumps(code), name + "c"
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, body, compresslevel=9)
    return buffer.getvalue()
