"""The bytecode the browser's Python runs: its standard library and the shared core, precompiled.

Pyodide ships its standard library as source, so a plain boot spends most of its time compiling
the modules it imports, in WebAssembly. The build ships instead the modules that start-up and the
core import, compiled to bytecode by the pinned Pyodide itself (`stdlib.mjs`, run by Node.js): half
the bytes, and a boot about three times faster; a module no page imports is not shipped. The shared
core every page imports is compiled the same way (`bytecode.mjs`). Each zip is made once and kept
in `node_modules/.cache/`, under a key of the runtime and of what went in.
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
from collections.abc import Callable, Sequence
from pathlib import Path

from .errors import BuildError

__all__ = ["compiled_bundle", "lock_info", "standard_library", "stdlib_imports"]

_STDLIB = Path(__file__).with_name("stdlib.mjs")
_BYTECODE = Path(__file__).with_name("bytecode.mjs")


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
    package = _package(project)
    return _made_once(project, "stdlib", [_STDLIB.read_bytes(), *(m.encode() for m in modules)], _STDLIB,
                      lambda out: [str(package), str(out), *modules])  # fmt: skip


def compiled_bundle(project: Path, stdlib: bytes, bundle: bytes) -> bytes:
    """Return `bundle` (a zip of the core's files) with each Python file compiled to bytecode."""
    package = _package(project)
    key = [_BYTECODE.read_bytes(), stdlib, bundle]
    with tempfile.TemporaryDirectory() as scratch:
        paths = Path(scratch) / "stdlib.zip", Path(scratch) / "bundle.zip"
        paths[0].write_bytes(stdlib)
        paths[1].write_bytes(bundle)
        return _made_once(project, "bundle", key, _BYTECODE,
                          lambda out: [str(package), str(paths[0]), str(paths[1]), str(out)])  # fmt: skip


def _package(project: Path) -> Path:
    package = project / "node_modules" / "pyodide"
    if not (package / "package.json").is_file():
        raise BuildError(package / "package.json", None, "Pyodide runtime missing; run `npm ci` first")
    return package


def _made_once(
    project: Path, kind: str, key: Sequence[bytes], script: Path, arguments: Callable[[Path], list[str]]
) -> bytes:
    """Return what `script` writes (run by Node with `arguments(out)`), from the cache when it was made before."""
    digest = hashlib.sha256((_package(project) / "package.json").read_bytes())
    for part in key:
        digest.update(hashlib.sha256(part).digest())
    cached = project / "node_modules" / ".cache" / "ai-calculators" / f"{kind}-{digest.hexdigest()[:16]}.zip"
    if cached.is_file():
        return cached.read_bytes()
    node = shutil.which("node")
    if node is None:
        raise BuildError(script, None, "Node.js not found: it compiles the browser's Python to bytecode (see README)")
    cached.parent.mkdir(parents=True, exist_ok=True)
    # Written beside its final name and renamed: two builds at once (the test workers) never see half a file.
    with tempfile.TemporaryDirectory(dir=cached.parent) as scratch:
        made = Path(scratch) / cached.name
        run = subprocess.run(
            [node, str(script), *arguments(made)], capture_output=True, text=True, timeout=300, check=False
        )
        if run.returncode != 0 or not made.is_file():
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(script, None, f"compiling to bytecode failed: {last}")
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
