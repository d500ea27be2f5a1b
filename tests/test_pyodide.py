"""The core under Pyodide (Python 3.14, in Node): the same doctests pass and the same reports come out."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from calculators import CALCULATORS, make_report
from calculators.live import load_kit
from site_builder.assets import bundle_calculators, runtime_sources
from site_builder.build import PROJECT, read_catalogs
from site_builder.locales import number_facts_json

from .test_browser import VALUE_SETS


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    node = shutil.which("node")
    assert node, "Node.js is required (the README's setup installs the runtime with npm)"
    folder = tmp_path_factory.mktemp("pyodide")
    bundle = folder / "calculators.zip"
    bundle.write_bytes(bundle_calculators())
    catalogs, _ = read_catalogs(PROJECT)
    requests = [
        {
            "slug": calculator.slug,
            "values": {**calculator.defaults(), **values},
            "catalog": base64.b64encode(mo).decode(),
            "facts": number_facts_json(locale),
            "locale": locale.tag,
        }
        for calculator in CALCULATORS
        for values in [calculator.defaults(), *VALUE_SETS[calculator.slug]]
        for locale, mo in catalogs.items()
    ]
    (folder / "requests.json").write_text(json.dumps(requests), encoding="utf-8")
    runtime = runtime_sources(PROJECT)["pyodide.mjs"].parent
    script = Path(__file__).with_name("pyodide_replay.mjs")
    run = subprocess.run(
        [node, str(script), str(runtime), str(bundle), str(folder / "requests.json")],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    output: dict[str, object] = json.loads(run.stdout)
    output["requests"] = requests
    output["catalogs"] = catalogs
    return output


def test_runs_on_python_314(replay: dict[str, object]) -> None:
    assert str(replay["python"]).startswith("3.14")


def test_doctests_pass_under_pyodide(replay: dict[str, object]) -> None:
    assert replay["doctest_failures"] == {}


def test_reports_match_cpython(replay: dict[str, object]) -> None:
    requests = replay["requests"]
    assert isinstance(requests, list)
    reports = replay["reports"]
    assert isinstance(reports, list)
    assert len(reports) == len(requests)
    for request, browser_json in zip(requests, reports, strict=True):
        kit = load_kit(base64.b64decode(request["catalog"]), request["facts"])
        calculator = next(c for c in CALCULATORS if c.slug == request["slug"])
        assert browser_json == make_report(calculator, request["values"], kit).to_json(), request["values"]
