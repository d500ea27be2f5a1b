"""How the cost of a calculator grows with the catalogue: builds, catalogs, bytes and imports, today and at 200.

Each size is a copy of the project with synthetic calculators added (`synthetic.py`), built and
measured in its own process, so nothing is shared between sizes. The test-suite cost is measured
on the real suite: every test that belongs to one calculator, for a few calculators, run for real.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from calculators.catalogue import CATALOGUE
from calculators.registry import module_name
from site_builder.build import PROJECT

from .synthetic import make_synthetic_project, synthetic_slug

__all__ = ["catalogue_sizes", "measure_catalogue", "measure_test_increment"]

# Run in each synthetic copy of the project, and in Node with the copy's bundles.
_BUILD = Path(__file__).with_name("build_timing.py")
_IMPORT = Path(__file__).with_name("import_timing.mjs")

_PAGE_FILES = ("style.css", "app.js", "language.js", "icon.svg")


def _gzip(paths: Sequence[Path]) -> int:
    return sum(len(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)) for path in paths)


def catalogue_sizes(quick: bool) -> tuple[int, ...]:
    """Return the catalogue sizes to measure: today's catalogue first, then larger ones (synthetic additions)."""
    now = len(CATALOGUE)
    return (now, now + 2) if quick else (now, max(now + 20, 60), max(now + 40, 200))


def measure_catalogue(work: Path, sizes: Sequence[int]) -> dict[str, Any]:
    """Build the site at each catalogue size and weigh what one page and its worker need."""
    if min(sizes) < len(CATALOGUE):
        raise ValueError(f"catalogue sizes {tuple(sizes)} start below today's {len(CATALOGUE)} calculators")
    rows = [_measure_size(work, size) for size in sizes]
    first, last = rows[0], rows[-1]
    return {
        "rows": rows,
        "page_bytes_ratio": round(last["page_gzip"] / first["page_gzip"], 3),
        "worker_bytes_ratio": round(last["worker_gzip"] / first["worker_gzip"], 3),
        "precache_bytes_ratio": round(last["precache_gzip"] / first["precache_gzip"], 3),
        "build_ms_per_calculator_page_ratio": round(last["build_ms_per_page"] / first["build_ms_per_page"], 3),
    }


def _measure_size(work: Path, size: int) -> dict[str, Any]:
    extra = size - len(CATALOGUE)
    project = make_synthetic_project(work, extra)
    run = subprocess.run(
        [sys.executable, str(_BUILD)], cwd=project, env={**os.environ, "PYTHONPATH": str(project)},
        capture_output=True, text=True, check=True, timeout=1800,
    )  # fmt: skip
    timings = json.loads(run.stdout)
    site = project / "dist"
    app = site / "_app"
    # The page of a real calculator, and of the newest synthetic one: both must stay the same size.
    slug = "gradient-accumulation-memory"
    page = [site / "en" / slug / "index.html", *(app / name for name in _PAGE_FILES)]
    worker = [app / "worker.js", app / "core.zip", app / "calculators" / f"{slug}.zip",
              app / "locales" / "en" / f"{slug}.mo", app / "locales" / "en.json"]  # fmt: skip
    precache = _precached(site)
    runtime = PROJECT / "node_modules" / "pyodide"
    module = module_name(f"training/{slug}")
    imported = subprocess.run(
        ["node", str(_IMPORT), str(runtime), str(app / "core.zip"), str(app / "calculators" / f"{slug}.zip"), module],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    newest = synthetic_slug(extra) if extra else slug
    row = {
        "calculators": size,
        "pages": timings["pages"],
        "build_seconds": round(timings["build_seconds"], 2),
        "build_ms_per_page": round(1000 * timings["build_seconds"] / timings["pages"], 2),
        "catalog_compile_seconds": round(timings["catalog_seconds"], 3),
        "page_gzip": _gzip(page),
        "newest_page_html_gzip": _gzip([site / "en" / newest / "index.html"]),
        "worker_gzip": _gzip(worker),
        "precache_files": len(precache),
        "precache_gzip": _gzip(precache),
        "embed_loader_gzip": _gzip([app / "embed.js"]),
        "worker_import_ms": round(json.loads(imported.stdout)["import_ms"], 1),
    }
    shutil.rmtree(project)
    return row


def _precached(site: Path) -> list[Path]:
    """Return the files a first visit precaches, runtime and its standard library left out (the same at every size)."""
    source = (site / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(source[source.index("const PRECACHE = ") + len("const PRECACHE = ") : source.index("];") + 1])
    return [site / url.split("?")[0] for url in listed if "/pyodide/" not in url and "stdlib.zip" not in url]


def measure_test_increment() -> dict[str, Any]:
    """Run, for real and in one go, every test that belongs to a calculator; report the seconds each adds.

    A calculator's tests are the ones beside it and every test parametrized with its slug (its pages,
    its browser check, its property tests). They run together, as in the whole suite, so pages that
    start ahead overlap as they do there. Session set-up (one build, one browser) is shared by the whole
    suite and left out: only the tests' own call time counts. Builds that other tests make grow with
    the catalogue too; the suite's own --durations list shows them.
    """
    slugs = [entry.split("/")[1] for entry in CATALOGUE]
    names = {slug: (slug, slug.replace("-", "_")) for slug in slugs}
    expression = " or ".join(name for pair in names.values() for name in pair)
    report = PROJECT / "test-results" / "increment.xml"
    report.parent.mkdir(exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_duration_report=call",
         f"--junitxml={report}", "-k", expression, "tests", "calculators"],
        cwd=PROJECT, capture_output=True, text=True, check=True, timeout=3600,
    )  # fmt: skip
    seconds = dict.fromkeys(slugs, 0.0)
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        where = f"{case.get('classname', '')}::{case.get('name', '')}"
        owner = next((slug for slug, pair in names.items() if any(name in where for name in pair)), None)
        if owner is not None:
            seconds[owner] += float(case.get("time", "0"))
    ordered = sorted(seconds.values())
    return {
        "calculators": {slug: round(value, 2) for slug, value in seconds.items()},
        "mean_seconds_per_calculator": round(sum(ordered) / len(ordered), 2),
        "median_seconds_per_calculator": round(statistics.median(ordered), 2),
        "max_seconds_per_calculator": round(ordered[-1], 2),
    }
