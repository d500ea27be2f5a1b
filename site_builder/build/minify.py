"""Our scripts and stylesheet as the pages fetch them: minified by esbuild, the pinned npm package.

The sources keep their comments (they say why); a reader's browser needs none of them, and they were a
third of a calculator page's bytes. esbuild rewrites each file on its own, without bundling, so a file
keeps its module syntax and its meaning. Each result is kept in `node_modules/.cache/minified/`, under a
key of esbuild's version and the file's bytes, so a rebuild minifies only what changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from .errors import BuildError

__all__ = ["is_minified", "minified", "minify_files"]

_LOADERS = {".js": "js", ".css": "css"}


def is_minified(name: str) -> bool:
    """Whether the built file `name` is one of ours that the pages fetch: a script or stylesheet under `_app/`.

    The runtime's own files come minified already, and the service worker stays as written: it runs once per
    visit, off the page's path, and its tests read its cache names.

    >>> [is_minified(n) for n in ("_app/app.js", "_app/style.css", "_app/pyodide/314.0.7/pyodide.mjs", "sw.js")]
    [True, True, False, False]
    """
    return name.startswith("_app/") and "/pyodide/" not in name and Path(name).suffix in _LOADERS


def minified(name: str, data: bytes, project: Path, version: str) -> bytes:
    """Return `data` (the file `name`) minified by esbuild `version`, from the cache when minified before."""
    loader = _LOADERS[Path(name).suffix]
    key = hashlib.sha256(f"{version} {loader}\n".encode() + data).hexdigest()
    cached = project / "node_modules" / ".cache" / "minified" / f"{key}.{loader}"
    if cached.is_file():
        return cached.read_bytes()
    run = subprocess.run(
        [str(project / "node_modules" / ".bin" / "esbuild"), f"--loader={loader}", "--minify", "--charset=utf8",
         "--legal-comments=none", "--log-level=error"],
        input=data, capture_output=True, check=False,
    )  # fmt: skip
    if run.returncode != 0:
        raise BuildError(Path(name), None, f"minifying failed: {run.stderr.decode(errors='replace').strip()}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(run.stdout)
    os.replace(partial, cached)
    return run.stdout


def minify_files(files: Mapping[str, bytes | Path], project: Path) -> dict[str, bytes | Path]:
    """Return `files` with each of ours that `is_minified` names minified, the rest as they were."""
    package = project / "node_modules" / "esbuild" / "package.json"
    version = json.loads(package.read_text(encoding="utf-8"))["version"]
    return {
        name: minified(name, content.read_bytes() if isinstance(content, Path) else content, project, version)
        if is_minified(name)
        else content
        for name, content in files.items()
    }
