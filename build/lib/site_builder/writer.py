"""Writing: the only phase that touches disk. Builds into a temporary folder, then swaps it in."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

__all__ = ["collect", "write_site"]

Content = bytes | Path


def collect(*parts: Iterable[tuple[str, Content]]) -> dict[str, Content]:
    """Merge output files, refusing two sources for one path (a slug clash, say)."""
    files: dict[str, Content] = {}
    for part in parts:
        for path, content in part:
            if path in files:
                raise ValueError(f"two outputs for {path}")
            files[path] = content
    return files


def write_site(files: Mapping[str, Content], out: Path, finish: Callable[[Path], None] | None = None) -> None:
    """Write `files` under `out`, replacing it only once everything is written.

    `finish` runs on the complete staging folder before the swap (the search indexer reads it there).
    """
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for path, content in sorted(files.items()):
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_bytes(content)
        if finish is not None:
            finish(staging)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, out: Path) -> None:
    staging.chmod(0o755)
    if not out.exists():
        os.replace(staging, out)
        return
    retired = out.with_name(f".{out.name}-old")
    shutil.rmtree(retired, ignore_errors=True)
    os.replace(out, retired)
    os.replace(staging, out)
    shutil.rmtree(retired, ignore_errors=True)
