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
    entry.write_text(json.dumps(json.loads(entry.read_text(encoding="utf-8")), sort_keys=True), encoding="utf-8")
