"""The standard library the browser's Python boots with: the modules the core imports, precompiled.

Pyodide ships its standard library as source, so a plain boot spends most of its time compiling
the modules it imports, in WebAssembly. The build ships instead the modules that start-up and the
core import, compiled to bytecode by the pinned Pyodide itself (`stdlib.mjs`, run by Node.js): a
third of the bytes, and a boot about three times faster. A module no page imports is not shipped.
The zip depends only on the runtime and on which standard modules the core names, so it is made
once and kept in `node_modules/.cache/`, under a key of both.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .errors import BuildError

__all__ = ["lock_info", "standard_library", "stdlib_imports"]

_SCRIPT = Path(__file__).with_name("stdlib.mjs")


def stdlib_imports(sources: Sequence[Path]) -> tuple[str, ...]:
    """Return every standard module the `sources` import (dotted names), found by reading them.

    Imports inside functions count too: a module imported only when a reader types a value still
    has to be there.
    """
    found: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source.read_bytes(), filename=str(source))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
    return tuple(sorted(name for name in found if name.partition(".")[0] in sys.stdlib_module_names))


def standard_library(project: Path, modules: Sequence[str]) -> bytes:
    """Return the zip of the standard modules a worker needs to import `modules`, compiled to bytecode."""
    package = project / "node_modules" / "pyodide"
    manifest = package / "package.json"
    if not manifest.is_file():
        raise BuildError(manifest, None, "Pyodide runtime missing; run `npm ci` first")
    key = hashlib.sha256(
        "\n".join([manifest.read_text(encoding="utf-8"), _SCRIPT.read_text(encoding="utf-8"), *modules]).encode()
    ).hexdigest()[:16]
    cached = project / "node_modules" / ".cache" / "ai-calculators" / f"stdlib-{key}.zip"
    if cached.is_file():
        return cached.read_bytes()
    node = shutil.which("node")
    if node is None:
        raise BuildError(_SCRIPT, None, "Node.js not found: it compiles the browser's standard library (see README)")
    cached.parent.mkdir(parents=True, exist_ok=True)
    # Written beside its final name and renamed: two builds at once (the test workers) never see half a file.
    with tempfile.TemporaryDirectory(dir=cached.parent) as scratch:
        made = Path(scratch) / cached.name
        run = subprocess.run(
            [node, str(_SCRIPT), str(package), str(made), *modules],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if run.returncode != 0 or not made.is_file():
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(_SCRIPT, None, f"compiling the standard library failed: {last}")
        os.replace(made, cached)
    return cached.read_bytes()


def lock_info(project: Path) -> dict[str, str]:
    """Return the `info` of the runtime's package lock: what Pyodide checks before it boots.

    The worker hands Pyodide a lock with this and no packages (it loads none) instead of the
    120 KB file that lists all 357.
    """
    lock = project / "node_modules" / "pyodide" / "pyodide-lock.json"
    if not lock.is_file():
        raise BuildError(lock, None, "Pyodide runtime missing; run `npm ci` first")
    info: dict[str, str] = json.loads(lock.read_text(encoding="utf-8"))["info"]
    return info
