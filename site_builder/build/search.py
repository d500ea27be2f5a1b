"""The site search index: Pagefind (extended build, which segments Chinese and Japanese) over the written pages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .errors import BuildError

__all__ = ["index_site"]


def index_site(site: Path) -> None:
    """Index every calculator page under `site` (those marked `data-pagefind-body`) into `site/pagefind/`.

    Formulas stay out: their MathML carries its LaTeX source, which would show in excerpts as `\\cdot`.
    """
    run = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(site), "--exclude-selectors", "math", "--silent"],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise BuildError(site, None, f"search indexing failed: {(run.stderr or run.stdout).strip()}")
    # Pagefind writes its language table in hash-map order; sort it so two builds are byte-identical.
    entry = site / "pagefind" / "pagefind-entry.json"
    languages = json.loads(entry.read_text(encoding="utf-8"))
    entry.write_text(json.dumps(languages, sort_keys=True), encoding="utf-8")
    _write_offline_lists(site / "pagefind", languages["languages"])


_OFFLINE_LIST = "offline.json"
"""Written beside Pagefind's files: each language's files, which the service worker stores when a reader first
searches, so that any word can be searched offline afterwards (not only the words searched online)."""


def _write_offline_lists(folder: Path, languages: dict[str, dict[str, object]]) -> None:
    """Write `_OFFLINE_LIST`: for each language Pagefind indexed, every file a search in it may load."""
    shared = ["pagefind.js", "pagefind-worker.js", "pagefind-entry.json"]
    lists = {}
    for language, facts in sorted(languages.items()):
        prefix = f"{language}_"
        own = [
            f"pagefind.{facts['hash']}.pf_meta",
            f"wasm.{facts['wasm'] or 'unknown'}.pagefind",
            *(f"{part}/{path.name}" for part in ("index", "fragment") for path in sorted((folder / part).iterdir())
              if path.name.startswith(prefix)),
        ]  # fmt: skip
        lists[language] = [name for name in [*shared, *own] if (folder / name).is_file()]
    (folder / _OFFLINE_LIST).write_text(json.dumps(lists, sort_keys=True), encoding="utf-8")
