"""Writing: the only phase that touches disk. Builds into a staging folder beside the output, then swaps it in.

Rules (a build replaces its output whole, so it must know the folder is its own):
- The output may be missing, empty, or a folder a build wrote: one holding the marker file `.site-builder`,
  or, from builds before the marker, one that is wholly such a build's output (see `_older_output`).
  Anything else is refused before a byte is written, naming the folder and what to do.
- Never a folder that is, holds, or lies inside one the build reads (its sources), even if marked.
- The staging folder, `.<output>-<pid>-<8 hex>` beside the output, is marked as soon as it exists. An
  interrupted build removes its own (the CLI makes SIGTERM unwind like Ctrl-C); the next build removes
  those whose process is gone and that hold the marker, and nothing else beside the output.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path

from .errors import BuildError

__all__ = ["MARKER", "Content", "check_output", "collect", "write_site"]

Content = bytes | Path

MARKER = ".site-builder"
_SIGNATURE = b"site_builder output\n"
_MARKER_TEXT = _SIGNATURE + (
    b"Written by `python -m site_builder build`, which replaces this folder whole:\n"
    b"anything else kept here is deleted by the next build.\n"
)
# What every build before the marker wrote, and no other tool's output is likely to hold together.
_OLDER_BUILD = ("index.html", "sw.js", "_app/worker.js")
_ASK = "nothing was changed: choose another output folder (--out)"


def collect(*parts: Iterable[tuple[str, Content]]) -> dict[str, Content]:
    """Merge output files, refusing two sources for one path (a slug clash, say)."""
    files: dict[str, Content] = {}
    for part in parts:
        for path, content in part:
            if path in files:
                raise ValueError(f"two outputs for {path}")
            files[path] = content
    return files


def write_site(
    files: Mapping[str, Content],
    out: Path,
    finish: Callable[[Path], None] | None = None,
    sources: Collection[Path] = (),
) -> None:
    """Write `files` under `out`, replacing it only once everything is written, and only if it may be replaced.

    `finish` runs on the complete staging folder before the swap (the search indexer reads it there).
    `sources` are what the build reads: `out` may not be one of them, hold one, or lie inside one.
    """
    out = check_output(out, sources)
    out.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(out)
    staging = out.with_name(f".{out.name}-{os.getpid()}-{secrets.token_hex(4)}")
    staging.mkdir(mode=0o700)
    try:
        (staging / MARKER).write_bytes(_MARKER_TEXT)
        for path, content in sorted(files.items()):
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_bytes(content)
        if finish is not None:
            finish(staging)
        # Again, now that the new output is known: an older build's must hold nothing this one would not write.
        check_output(out, sources, built=staging)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def check_output(out: Path, sources: Collection[Path] = (), built: Path | None = None) -> Path:
    """Return `out`, resolved, if a build may replace it; otherwise raise a BuildError naming it and why.

    `built` is the complete new output, when known; until then an older build's output is given the benefit.
    """
    out = out.resolve()
    for source in (path.resolve() for path in sources):
        if source == out or source.is_relative_to(out) or out.is_relative_to(source):
            where = "is" if source == out else "holds" if source.is_relative_to(out) else "lies inside"
            raise BuildError(out, None, f"the output folder {where} {source}, which the build reads; {_ASK}")
    if not out.exists():
        return out
    if not out.is_dir():
        raise BuildError(out, None, f"the output folder is a file; {_ASK}")
    if _marked(out) or not any(out.iterdir()):
        return out
    if not _older_output(out):
        raise BuildError(
            out,
            None,
            f"the output folder is not empty and was not written by a build (no {MARKER} file inside); a build"
            f" replaces its output whole, so {_ASK}, or empty this one yourself",
        )
    extra = sorted({path.name for path in out.iterdir()} - {path.name for path in built.iterdir()}) if built else []
    if extra:
        raise BuildError(
            out,
            None,
            f"the output folder looks like an older build's output but also holds {', '.join(extra)}, which a"
            f" build does not write; {_ASK}, or move those away",
        )
    return out


def _marked(folder: Path) -> bool:
    marker = folder / MARKER
    return marker.is_file() and not marker.is_symlink() and marker.read_bytes().startswith(_SIGNATURE)


def _older_output(out: Path) -> bool:
    """Whether unmarked `out` holds what every build before the marker wrote.

    Replacing such a folder is safe once it also holds nothing at its top that the new build would not
    write (`check_output` checks that against the staged output): all it can lose then is files inside
    the build's own folders, which replacing a marked output loses too. Anything else there (`.git`, a
    README) refuses it.
    """
    return all((out / name).is_file() for name in _OLDER_BUILD)


def _remove_stale(out: Path) -> None:
    """Remove the staging folders of this output that killed builds left: marked, and their process gone."""
    pattern = re.compile(rf"\.{re.escape(out.name)}-(\d+)-[0-9a-f]{{8}}(-old)?")
    for path in out.parent.iterdir():
        found = pattern.fullmatch(path.name)
        if found and path.is_dir() and not path.is_symlink() and _marked(path) and not _running(int(found[1])):
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether process `pid` exists; where that cannot be asked (not POSIX), assume it does."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _swap(staging: Path, out: Path) -> None:
    """Move `staging` to `out`, retiring the old output beside it first; put it back if the move fails."""
    staging.chmod(0o755)
    if not out.exists():
        os.replace(staging, out)
        return
    if not _marked(out):
        # An empty folder or an older build's output: marked, so the next build can remove it if this one dies.
        (out / MARKER).write_bytes(_MARKER_TEXT)
    retired = staging.with_name(f"{staging.name}-old")
    os.replace(out, retired)
    try:
        os.replace(staging, out)
    except BaseException:
        os.replace(retired, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
