"""The files beside the pages: styles, scripts, the calculators bundle, catalogs and the runtime."""

from __future__ import annotations

import ast
import hashlib
import inspect
import io
import json
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

import calculators
from calculators import Calculator
from calculators.catalogue import CATEGORIES
from languages.locales import Locale
from site_builder import folders

from .errors import BuildError

__all__ = [
    "CORE",
    "QUICK_START_RUNTIME_FILES",
    "RUNTIME_FILES",
    "STATIC",
    "asset_urls",
    "boot_module",
    "bundle",
    "bundle_calculators",
    "calculator_module",
    "calculator_sources",
    "core_sources",
    "embed_loader",
    "import_graph",
    "page_only_sources",
    "runtime_path",
    "runtime_sources",
    "runtime_version",
    "service_worker",
    "shared_sources",
    "versioned",
    "worker_script",
]

STATIC = folders.BROWSER_STATIC
CORE = Path(calculators.__file__).parent
# The core of the Pyodide npm package: loader, WebAssembly, standard library and package lock.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# What a quick start ships of it: the worker brings its own standard library (`bytecode.py`) and a
# lock with no packages, so the package's 2.5 MB of source and 120 KB lock never reach a reader.
QUICK_START_RUNTIME_FILES = RUNTIME_FILES[:3]
_EPOCH = (1980, 1, 1, 0, 0, 0)


def core_sources() -> tuple[Path, ...]:
    """Return every Python file of the pure core, in any folder depth: what runs in the browser.

    Left out: the command line's edge (`__main__.py`, which reads files and prints, and `hub.py`, its Hub client,
    which uses the network) and the calculators' `test_*.py` files. The purity rules, the bundle and the worker's
    catalog all use this one list.
    """
    edge = {CORE / "__main__.py", CORE / "hub.py"}
    return tuple(
        sorted(
            path
            for path in CORE.rglob("*.py")
            if path not in edge and not path.name.startswith("test_") and "__pycache__" not in path.parts
        )
    )


def import_graph() -> Mapping[Path, frozenset[Path]]:
    """Return, for every core file, the core files it imports: read once per build, as every bundle needs it."""
    return MappingProxyType({path: frozenset(_imports(path)) for path in core_sources()})


def shared_sources(graph: Mapping[Path, frozenset[Path]] | None = None) -> tuple[Path, ...]:
    """Return the core files every page's worker loads: all but the calculators' own packages and the catalogue.

    A calculator's own package is a folder under its category (`cost/token_cost/`): a page loads its
    own only. The catalogue stays out as the worker imports its calculator by module name, so these
    bytes do not grow with the catalogue. So do the shared modules only some calculators import
    (`page_only_sources`): they travel with those calculators.
    """
    page_only = set(page_only_sources(graph))
    return tuple(
        path for path in core_sources() if not _owned(path) and path != CORE / "catalogue.py" and path not in page_only
    )


def page_only_sources(graph: Mapping[Path, frozenset[Path]] | None = None) -> tuple[Path, ...]:
    """Return the shared modules that no module every page runs imports, however indirectly.

    The machinery every page runs (the package, the kernel, drawing, the report and the worker's entry points)
    and what it imports stay in the shared core; a vocabulary module only calculators import (the parallel
    planner's search, the memory arithmetic) ships in the bundle of each calculator that imports it, so a
    page never downloads the arithmetic of another.
    """
    machinery = [
        path
        for path in core_sources()
        if not _owned(path) and path != CORE / "catalogue.py" and "vocabulary" not in path.relative_to(CORE).parts
    ]
    everywhere = _imported_by(machinery, graph or import_graph())
    return tuple(path for path in core_sources() if path.parent == CORE / "vocabulary" and path not in everywhere)


def _imported_by(roots: Sequence[Path], graph: Mapping[Path, frozenset[Path]]) -> set[Path]:
    """Return `roots` and every core file they import, directly or through others (read from their syntax)."""
    found: set[Path] = set()
    waiting = list(roots)
    while waiting:
        path = waiting.pop()
        if path not in found:
            found.add(path)
            waiting.extend(graph.get(path, frozenset()) - found)
    return found


def _imports(path: Path) -> set[Path]:
    """Return the core files `path` imports: `import calculators.x`, `from calculators.x import y` (y a module or
    a name), and relative imports, wherever in the file they stand."""
    package = path.relative_to(CORE.parent).with_suffix("").parts[:-1]
    names: list[tuple[str, ...]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(tuple(alias.name.split(".")) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = tuple(part for part in (node.module or "").split(".") if part)
            base = (*package[: len(package) + 1 - node.level], *module) if node.level else module
            names.append(base)
            names.extend((*base, alias.name) for alias in node.names)
    files = set()
    for name in names:
        if name[:1] != ("calculators",):
            continue
        folder = CORE.parent.joinpath(*name)
        for candidate in (folder.with_suffix(".py"), folder / "__init__.py"):
            if candidate.is_file():
                files.add(candidate)
    return files


def _owned(path: Path) -> bool:
    """Say whether `path` belongs to one calculator's package (`<category>/<name>/…`)."""
    parts = path.relative_to(CORE).parts
    return len(parts) >= 3 and parts[0] in {category.slug for category in CATEGORIES}


def calculator_sources(calculator: Calculator, graph: Mapping[Path, frozenset[Path]] | None = None) -> tuple[Path, ...]:
    """Return what one calculator's bundle holds: the Python files of its own package (its folder, tests left
    out) and the shared modules it imports that the shared core leaves out (`page_only_sources`)."""
    folder = Path(inspect.getfile(calculator.compute)).parent
    own = sorted(path for path in folder.glob("*.py") if not path.name.startswith("test_"))
    graph = graph or import_graph()  # a build passes the one it read
    page_only = set(page_only_sources(graph))
    return (*own, *sorted(_imported_by(own, graph) & page_only))


def calculator_module(calculator: Calculator) -> str:
    """Return the module the worker imports for `calculator` (`calculators.training.lr_warmup`)."""
    return calculator.compute.__module__


def bundle(sources: Sequence[Path]) -> bytes:
    """Zip `sources` (files of the calculators package) for the browser, byte-identical from build to build."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for source in sources:
            info = zipfile.ZipInfo(f"calculators/{source.relative_to(CORE).as_posix()}", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source.read_bytes())
    return buffer.getvalue()


def bundle_calculators() -> bytes:
    """Zip the whole core, every calculator included: what the Pyodide tests and `pip`-less users load."""
    return bundle(core_sources())


def embed_loader(locales: Sequence[Locale], calculators: Sequence[Calculator]) -> bytes:
    """Write embed.js: the loader script, with the locales and the slugs it may embed.

    Only slugs, about 25 bytes a calculator: the iframe's page names itself (its title comes back
    with its size) and ignores what is not one of its inputs, so the loader needs no per-calculator words.
    """
    catalogue = {
        "locales": {locale.tag.lower(): locale.folder for locale in locales},
        "slugs": sorted(calculator.slug for calculator in calculators),
    }
    source = (folders.BROWSER_TEMPLATED / "embed_loader.js").read_text(encoding="utf-8")
    data = json.dumps(catalogue, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    return source.replace("/*CATALOGUE*/ null", data).encode()


def service_worker(precache: Sequence[str], versions: Sequence[str]) -> bytes:
    """Write sw.js: the offline cache, named after every file's version and its own code, so each build gets its own.

    `precache` is what a first visit stores for every page: shared files only, so it does not grow
    with the catalogue or the locales; a page's own calculator and catalog are stored as it loads them.
    """
    source = (folders.BROWSER_TEMPLATED / "service_worker.js").read_text(encoding="utf-8")
    # The worker's own code is part of the name: a build that changes only how it caches starts afresh too.
    digest = hashlib.sha256("\n".join([*versions, source]).encode()).hexdigest()[:16]
    source = source.replace('/*CACHE*/ ""', json.dumps(f"ai-calculators-{digest}"))
    return source.replace("/*PRECACHE*/ []", json.dumps(list(precache), indent=2)).encode()


def runtime_sources(project: Path, names: Sequence[str] = RUNTIME_FILES) -> dict[str, Path]:
    """Return the Pyodide files to self-host (`names` of them), from the pinned npm package."""
    package = project / "node_modules" / "pyodide"
    missing = [name for name in names if not (package / name).is_file()]
    if missing:
        raise BuildError(package, None, f"Pyodide runtime missing ({', '.join(missing)}); run `npm ci` first")
    return {name: package / name for name in names}


def runtime_version(project: Path) -> str:
    """Return the pinned Pyodide version, from its npm package."""
    manifest = project / "node_modules" / "pyodide" / "package.json"
    if not manifest.is_file():
        raise BuildError(manifest, None, "Pyodide runtime missing; run `npm ci` first")
    version: str = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    return version


def boot_module(version: str, lock: Mapping[str, str] | None) -> bytes:
    """Write snapshot.js, the worker's way to start Python, pinned to the runtime `version`.

    `lock` is the runtime's lock `info` for a quick start (memory snapshots, a lock with no
    packages); None boots Pyodide plainly, as its own loader does.
    """
    settings = {"version": version, "lock": dict(lock) if lock else None, "snapshots": lock is not None}
    source = (folders.BROWSER_TEMPLATED / "snapshot.js").read_text(encoding="utf-8")
    marker = '/*SETTINGS*/ { version: "", lock: null, snapshots: false }'
    return source.replace(marker, json.dumps(settings, sort_keys=True)).encode()


def worker_script(version: str, lock: Mapping[str, str] | None) -> bytes:
    """Write worker.js: snapshot.js (see `boot_module`) and the worker that calls it, in one file."""
    return boot_module(version, lock) + b"\n" + (folders.BROWSER_TEMPLATED / "worker.js").read_bytes()


def runtime_path(project: Path) -> str:
    """Return where the self-hosted runtime goes: a folder named after its version, so its URLs never change meaning."""
    return f"_app/pyodide/{runtime_version(project)}/"


def versioned(name: str, content: bytes | Path) -> str:
    """Return `name` with a query string that changes whenever `content` does, for cache busting."""
    data = content.read_bytes() if isinstance(content, Path) else content
    return f"{name}?v={hashlib.sha256(data).hexdigest()[:12]}"


def asset_urls(files: Mapping[str, bytes | Path]) -> dict[str, str]:
    """Map each `_app/` file name to its versioned URL relative to the site root."""
    return {path.removeprefix("_app/"): versioned(path, content) for path, content in files.items()}
