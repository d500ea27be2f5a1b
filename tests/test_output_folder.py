"""The output folder: a build replaces only what it wrote, keeps what its owner added, and leaves no staging folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from site_builder.build import PROJECT
from site_builder.build.errors import BuildError
from site_builder.build.writer import MARKER, write_site

# What every build wrote before the marker existed, plus a page.
FILES = {"index.html": b"<p>new</p>", "sw.js": b"//", "_app/worker.js": b"//", "en/index.html": b"<p>en</p>"}
SIGNED = {MARKER: b"site_builder output\n"}  # what a marker file starts with


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every path under `folder` (dotfiles too) with its bytes, None for a folder."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def _fill(folder: Path, files: dict[str, bytes]) -> None:
    for path, content in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(content)


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", ""])
    process.wait()
    return process.pid


def test_replaces_what_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    write_site(FILES, out)
    assert (out / MARKER).is_file()
    write_site({"index.html": b"again"}, out)
    assert set(_tree(out)) == {MARKER, "index.html"}
    assert [p.name for p in tmp_path.iterdir()] == ["dist"], "no staging or retired folder left beside it"


def test_keeps_what_a_site_owner_added(tmp_path: Path) -> None:
    # A custom domain on GitHub Pages, a `git init && git push` deployment, a page of one's own beside the build's.
    out = tmp_path / "dist"
    write_site(FILES, out)
    theirs = {"CNAME": b"calc.example.org\n", ".git/HEAD": b"ref: refs/heads/pages\n", "en/about.html": b"<p>us</p>"}
    _fill(out, theirs)
    (out / ".git" / "refs").mkdir()
    (out / "favicon-link.ico").symlink_to("/nowhere/favicon.ico")
    write_site({**FILES, "index.html": b"<p>newer</p>"}, out)
    tree = _tree(out)
    assert {path: tree[path] for path in theirs} == theirs and tree[".git/refs"] is None
    assert os.readlink(out / "favicon-link.ico") == "/nowhere/favicon.ico"
    assert tree["index.html"] == b"<p>newer</p>"
    write_site({"index.html": b"once more"}, out)  # and again: what they added is still not the build's
    assert set(_tree(out)) == {MARKER, "index.html", *theirs, ".git", ".git/refs", "en", "favicon-link.ico"}


def test_refuses_to_overwrite_a_site_owner_s_file(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    write_site({"index.html": b"<p>new</p>"}, out)
    _fill(out, {"sw.js": b"// their own service worker"})
    before = _tree(tmp_path)
    with pytest.raises(BuildError, match=r"holds sw\.js, which the build writes but did not write before"):
        write_site(FILES, out)
    assert _tree(tmp_path) == before, "untouched, and the staging folder removed"


def test_a_marker_without_a_list_keeps_the_top_level_it_does_not_write(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _fill(out, {MARKER: b"site_builder output\nan older marker\n", **FILES, "en/gone.html": b"old", "CNAME": b"x"})
    write_site(FILES, out)
    assert set(_tree(out)) == {MARKER, *FILES, "en", "_app", "CNAME"}


@pytest.mark.parametrize(
    "held",
    [
        {"contributing.md": b"# How to contribute"},  # --out docs
        {".git/HEAD": b"ref: refs/heads/main\n", "README.md": b"# A project", "calculators/x.py": b""},  # --out .
        {"index.html": b"<p>a page of its own</p>"},  # someone else's site
        FILES,  # a hand-made site with the same three files a build writes, or an output from before the marker
        {**FILES, ".git/HEAD": b"ref: refs/heads/gh-pages\n", "CNAME": b"example.org"},
    ],
)
def test_refuses_a_folder_it_did_not_write(tmp_path: Path, held: dict[str, bytes]) -> None:
    out = tmp_path / "docs"
    _fill(out, held)
    before = _tree(tmp_path)
    with pytest.raises(BuildError) as refused:
        write_site(FILES, out)
    assert refused.value.path == out
    assert MARKER in refused.value.cause and "nothing was changed" in refused.value.cause
    assert _tree(tmp_path) == before


def test_refuses_a_file(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    out.write_bytes(b"notes")
    with pytest.raises(BuildError, match="is a file"):
        write_site(FILES, out)
    assert out.read_bytes() == b"notes"


def test_refuses_its_sources_even_when_marked(tmp_path: Path) -> None:
    project = tmp_path / "project"
    _fill(project, {"site.toml": b"", "locales/en/messages.po": b"", **SIGNED})
    sources = (project / "site.toml", project / "locales")
    before = _tree(tmp_path)
    refusals = [
        (project, "holds"),
        (tmp_path, "holds"),
        (project / "locales", "is"),
        (project / "locales" / "x", "lies inside"),
    ]
    for out, where in refusals:
        with pytest.raises(BuildError, match=f"the output folder {where} "):
            write_site(FILES, out, sources=sources)
    assert _tree(tmp_path) == before


def test_removes_only_its_own_stale_staging_folders(tmp_path: Path) -> None:
    dead = _dead_pid()
    stale = [f".dist-{dead}-0123abcd", f".dist-{dead}-0123abcd-old"]
    kept = [
        f".dist-{dead}-89abcdef",  # the same pattern, unmarked
        f".dist-{os.getpid()}-0123abcd",  # a running build's
        ".dist-foo",
        f".site-{dead}-0123abcd",  # another output's
    ]
    for name in stale + kept:
        _fill(tmp_path / name, {**SIGNED, "page.html": b""} if name != kept[0] else {"page.html": b""})
    write_site(FILES, tmp_path / "dist")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*kept, "dist"])


def _start_build(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """Start a real build into `tmp_path/dist` and return it once its staging folder exists."""
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "build", "--out", str(tmp_path / "dist"), "--only", "lr-warmup",
         "--quiet"],
        cwd=PROJECT, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        staging = [p for p in tmp_path.iterdir() if p.name.startswith(".dist-") and (p / MARKER).is_file()]
        if staging:  # and marked: a build killed between its mkdir and its marker leaves a folder no build may remove
            return process, staging[0]
        time.sleep(0.01)
    process.kill()
    raise AssertionError(f"no staging folder seen; the build said {process.communicate()[1]!r}")


def test_sigterm_leaves_no_staging_folder(tmp_path: Path) -> None:
    process, _ = _start_build(tmp_path)
    process.send_signal(signal.SIGTERM)
    _, said = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM, said
    assert list(tmp_path.iterdir()) == []


def test_the_next_build_removes_what_a_killed_one_left(tmp_path: Path) -> None:
    process, staging = _start_build(tmp_path)
    process.kill()
    process.communicate(timeout=30)
    assert staging.is_dir(), "SIGKILL cannot be caught: the staging folder stays"
    unrelated = tmp_path / ".dist-foo"
    _fill(unrelated, {**SIGNED, "notes.txt": b"mine"})
    write_site(FILES, tmp_path / "dist")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".dist-foo", "dist"]
    assert _tree(unrelated) == {**SIGNED, "notes.txt": b"mine"}


def test_cli_refuses_a_folder_it_did_not_write(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _fill(docs, {"contributing.md": b"# How to contribute", ".git/HEAD": b"ref: refs/heads/main\n"})
    before = _tree(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--out", str(docs)],
        cwd=PROJECT, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1
    assert run.stderr.startswith(f"build failed: {docs}: the output folder is not empty"), run.stderr
    assert MARKER in run.stderr and len(run.stderr.strip().splitlines()) == 1, "one clear message"
    assert _tree(tmp_path) == before
