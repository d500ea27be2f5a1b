"""Writing: the only phase that touches disk. Builds into a staging folder beside the output, then swaps it in.

Rules (a build replaces what it wrote, and only that, so it must know which files are its own):
- The output may be missing, empty, or a folder a build wrote: one holding the marker file `.site-builder`,
  which lists every file that build wrote. Anything else is refused before a byte is written, naming the
  folder and what to do.
- What a site owner adds to the output (`CNAME` for a custom domain, `.git/` for a push deployment, a page of
  their own) is not on the list, so it is carried into the new output; a file of theirs at a path the new build
  writes is refused, naming it, rather than overwritten. A marker from before the list (no list) keeps what
  lies at the top of the output where the new build writes nothing.
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
    b"Written by `python -m site_builder build`. The next build replaces the files listed below and keeps\n"
    b"everything else here (CNAME, .git/, pages of your own).\n"
)
_LIST_HEADING = b"Files:\n"
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
        written = sorted(_files_under(staging) - {MARKER})
        (staging / MARKER).write_bytes(_MARKER_TEXT + _LIST_HEADING + "".join(f"{path}\n" for path in written).encode())
        check_output(out, sources)
        _carry_over(out, staging)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def check_output(out: Path, sources: Collection[Path] = ()) -> Path:
    """Return `out`, resolved, if a build may write it; otherwise raise a BuildError naming it and why."""
    out = out.resolve()
    for source in (path.resolve() for path in sources):
        if source == out or source.is_relative_to(out) or out.is_relative_to(source):
            where = "is" if source == out else "holds" if source.is_relative_to(out) else "lies inside"
            raise BuildError(out, None, f"the output folder {where} {source}, which the build reads; {_ASK}")
    if not out.exists():
        return out
    if not out.is_dir():
        raise BuildError(out, None, f"the output folder is a file; {_ASK}")
    if not _marked(out) and any(out.iterdir()):
        raise BuildError(
            out,
            None,
            f"the output folder is not empty and was not written by a build (no {MARKER} file inside); {_ASK},"
            " or empty this one yourself",
        )
    return out


def _marked(folder: Path) -> bool:
    marker = folder / MARKER
    return marker.is_file() and not marker.is_symlink() and marker.read_bytes().startswith(_SIGNATURE)


def _written_before(out: Path) -> set[str] | None:
    """The files the build that wrote `out` listed in its marker; None for a marker from before the list."""
    text = (out / MARKER).read_bytes()
    if _LIST_HEADING not in text:
        return None
    return set(text.split(_LIST_HEADING, 1)[1].decode().splitlines())


def _files_under(folder: Path) -> set[str]:
    """Every file and link under `folder`, as a POSIX path relative to it (links are not followed)."""
    found = set()
    for root, folders, files in os.walk(folder):
        for name in files + [name for name in folders if Path(root, name).is_symlink()]:
            found.add(Path(root, name).relative_to(folder).as_posix())
    return found


def _carry_over(out: Path, staging: Path) -> None:
    """Link into `staging` every file of `out` that no build wrote; refuse, naming them, those the new build writes.

    Hard links (both folders lie side by side) keep a `.git/` of any size cheap to carry; the originals stay in
    `out` until the swap, so a failure here loses nothing.
    """
    if not out.exists() or not _marked(out):
        return
    before = _written_before(out)
    present = _files_under(out) - {MARKER}
    if before is None:  # an older marker: only what lies at the top where the new build writes nothing is theirs
        ours = {path.split("/", 1)[0] for path in _files_under(staging)}
        owned = {path for path in present if path.split("/", 1)[0] not in ours}
    else:
        owned = present - before
    clashes = sorted(path for path in owned if (staging / path).exists() or (staging / path).is_symlink())
    if clashes:
        raise BuildError(
            out,
            None,
            f"the output folder holds {', '.join(clashes[:5])}{', …' if len(clashes) > 5 else ''}, which the"
            f" build writes but did not write before; {_ASK}, or move those away",
        )
    for path in sorted(owned):
        source, target = out / path, staging / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            os.symlink(os.readlink(source), target)
        else:
            try:
                os.link(source, target)
            except OSError:  # another file system, or one without hard links
                shutil.copy2(source, target)
    for root, folders, _ in os.walk(out):  # empty folders of theirs too
        for name in folders:
            folder = Path(root, name)
            if not folder.is_symlink() and not any(folder.iterdir()):
                (staging / folder.relative_to(out)).mkdir(parents=True, exist_ok=True)


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
        # An empty folder: marked, so the next build can remove it if this one dies.
        (out / MARKER).write_bytes(_MARKER_TEXT)
    retired = staging.with_name(f"{staging.name}-old")
    os.replace(out, retired)
    try:
        os.replace(staging, out)
    except BaseException:
        os.replace(retired, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
