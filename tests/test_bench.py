"""A smoke run of the benchmark script, so it never rots; its timings are not judged here (CI is noisy)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.harness import TARGETS
from calculators.catalogue import CATALOGUE
from site_builder.build import PROJECT

pytestmark = pytest.mark.browser


def test_quick_benchmark_writes_a_complete_report(tmp_path: Path) -> None:
    # In a process of its own, as a reader runs it: its Chromium is not the test session's.
    subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path)],
        cwd=PROJECT, check=True, capture_output=True, timeout=900,
    )  # fmt: skip
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    build = report["build"]
    assert build["pages"] > 0 and build["ms_per_page"] > 0
    assert [row["calculators"] for row in build["synthetic"]] == [4, 8]
    assert build["rebuild_after_catalog_edit_seconds"] > 0 and build["rebuild_after_template_edit_seconds"] > 0
    assert report["bytes"]["calculators_bundle"]["gzip"] > 0
    assert report["bytes"]["runtime"]["raw"] > 5_000_000
    assert report["start"]["results_in_first_paint"] is True
    assert report["start"]["ready_cold_seconds"] > 0
    live = report["live"]
    for name in ("ours", "plain", "peer"):
        assert live[name]["cold_seconds"] > 0 and live[name]["warm_seconds"] > 0, name
        assert live[name]["first_visit_bytes"]["runtime_until_live"] > 5_000_000, name
    # Ours restores the first visit's snapshot on the second page and fetches no runtime byte again.
    assert live["ours"]["engine"]["first"]["start"] == "plain"
    assert live["ours"]["engine"]["second"]["start"] == "snapshot"
    assert live["ours"]["repeat_visit_bytes"]["runtime"] == 0
    assert (
        live["ours"]["first_visit_bytes"]["runtime_until_live"]
        < live["plain"]["first_visit_bytes"]["runtime_until_live"]
    )
    assert report["recalc"]["edits"] == 20
    assert report["recalc"]["python"]["p95_ms"] >= report["recalc"]["python"]["p50_ms"] > 0
    heaviest = report["recalc_heaviest"]
    assert heaviest["edits"] == 20 and heaviest["python"]["p95_ms"] >= heaviest["python"]["p50_ms"] > 0
    rows = report["catalogue"]["rows"]
    assert [row["calculators"] for row in rows] == [len(CATALOGUE), len(CATALOGUE) + 2]
    # A page and an embed per locale, per calculator: the made-up calculators are tools, a category the real
    # site already has a page for (cosine-similarity's).
    assert rows[1]["pages"] == rows[0]["pages"] + 2 * 10 * 2
    assert all(row["worker_gzip"] > 0 and row["worker_import_ms"] > 0 for row in rows)
    measured = {row["target"] for row in report["targets"]}
    # The quick run measures everything but Lighthouse, the test time and the throttled link.
    assert measured == set(TARGETS) - {t for t in TARGETS if t.startswith(("lighthouse", "live_throttled"))} - {
        "test_seconds_per_calculator"
    }
    assert "| target | measured | limit | verdict |" in (tmp_path / "report.md").read_text(encoding="utf-8")
