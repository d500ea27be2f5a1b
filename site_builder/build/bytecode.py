"""The bytecode the browser's Python runs: its standard library and the shared core, precompiled.

Pyodide ships its standard library as source, so a plain boot spends most of its time compiling
the modules it imports, in WebAssembly. The build ships instead the modules that start-up and the
core import, compiled to bytecode by the pinned Pyodide itself (`stdlib.mjs`, run by Node.js): half
the bytes, and a boot about three times faster; a module no page imports is not shipped. The shared
core and each calculator's own package are compiled the same way (`bytecode.mjs`). Each zip is made
once and kept in `node_modules/.cache/`, under a key of the runtime and of what went in.
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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from site_builder import folders

from .errors import BuildError

__all__ = ["compiled_bundles", "lock_info", "standard_library", "stdlib_imports"]

# Each Node script runs the Python file beside it in Pyodide; a cached zip depends on both.
_STDLIB = folders.NODE_TOOLS / "stdlib.mjs"
_STDLIB_PYTHON = folders.NODE_TOOLS / "stdlib_zip.py"
_BYTECODE = folders.NODE_TOOLS / "bytecode.mjs"
_BYTECODE_PYTHON = folders.NODE_TOOLS / "bundle_bytecode.py"


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
    tools = (_STDLIB.read_bytes(), _STDLIB_PYTHON.read_bytes())
    cached = _cached(project, "stdlib", *tools, *(module.encode() for module in modules))
    if not cached.is_file():
        with _scratch(cached) as made:
            _run_node(_STDLIB, [str(_package(project)), str(made), *modules])
            os.replace(made, cached)
    return cached.read_bytes()


def compiled_bundles(project: Path, stdlib: bytes, bundles: Sequence[bytes]) -> list[bytes]:
    """Return each of `bundles` (zips of the core's files) with its Python files compiled to bytecode.

    Each is kept under a key of its own bytes, so editing one calculator recompiles that one only;
    whatever is missing is compiled in one Node run.
    """
    tools = (_BYTECODE.read_bytes(), _BYTECODE_PYTHON.read_bytes())
    # The standard library's digest once, not its 1.3 MB hashed again for each of the bundles.
    stdlib_digest = hashlib.sha256(stdlib).digest()
    targets = [_cached(project, "bundle", *tools, stdlib_digest, bundle) for bundle in bundles]
    missing = {target: bundle for target, bundle in zip(targets, bundles, strict=True) if not target.is_file()}
    if missing:
        with _scratch(targets[0]) as made:
            folder = made.parent
            (folder / "stdlib.zip").write_bytes(stdlib)
            pairs = []
            for index, (target, bundle) in enumerate(missing.items()):
                (folder / f"in-{index}.zip").write_bytes(bundle)
                pairs += [str(folder / f"in-{index}.zip"), str(folder / target.name)]
            _run_node(_BYTECODE, [str(_package(project)), str(folder / "stdlib.zip"), *pairs])
            for target in missing:
                os.replace(folder / target.name, target)
    return [target.read_bytes() for target in targets]


def _package(project: Path) -> Path:
    package = project / "node_modules" / "pyodide"
    if not (package / "package.json").is_file():
        raise BuildError(package / "package.json", None, "Pyodide runtime missing; run `npm ci` first")
    return package


def _cached(project: Path, kind: str, *parts: bytes) -> Path:
    """Return where the zip made from `parts` (and the pinned runtime) is kept."""
    digest = hashlib.sha256((_package(project) / "package.json").read_bytes())
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return project / "node_modules" / ".cache" / "ai-calculators" / f"{kind}-{digest.hexdigest()[:16]}.zip"


@contextmanager
def _scratch(cached: Path) -> Iterator[Path]:
    """Yield a path beside `cached` to write to, then rename: two builds at once never see half a file."""
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cached.parent) as scratch:
        yield Path(scratch) / cached.name


def _run_node(script: Path, arguments: Sequence[str]) -> None:
    node = shutil.which("node")
    if node is None:
        raise BuildError(script, None, "Node.js not found: it compiles the browser's Python to bytecode (see README)")
    run = subprocess.run([node, str(script), *arguments], capture_output=True, text=True, timeout=300, check=False)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(script, None, f"compiling to bytecode failed: {last}")


def lock_info(project: Path) -> dict[str, str]:
    """Return the `info` of the runtime's package lock: what Pyodide checks before it boots.

    The worker hands Pyodide a lock with this and no packages (it loads none) instead of the
    120 KB file that lists all 357.
    """
    lock = _package(project) / "pyodide-lock.json"
    info: dict[str, str] = json.loads(lock.read_text(encoding="utf-8"))["info"]
    return info
