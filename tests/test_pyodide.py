"""The core under Pyodide (Python 3.14, in Node): the same doctests pass and the same reports come out.

The reports are made on the standard library the pages boot on (the build's precompiled one), so
a module the core imports and the build left out fails here.

One Pyodide boot for the whole suite: each locale's catalog is sent once, then every calculator ×
locale × value set is streamed through it, one JSON line each way. This is the parity proof for
the Python side of every page; the browser tests prove the page's own mechanisms once each.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from calculators import CALCULATORS, Kind, find, make_report
from calculators.live import load_kit
from languages.locales import number_facts_json
from site_builder.build import PROJECT, read_catalogs
from site_builder.build.assets import boot_module, bundle_calculators, core_sources, runtime_sources, runtime_version
from site_builder.build.bytecode import lock_info, standard_library, stdlib_imports
from site_builder.build.catalogs import core_modules

from .cases import bad_input_sets, value_sets


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "Node.js is required (the README's setup installs the runtime with npm)"
    folder = tmp_path_factory.mktemp("pyodide")
    bundle, stdlib = folder / "calculators.zip", folder / "stdlib.zip"
    bundle.write_bytes(bundle_calculators())
    stdlib.write_bytes(standard_library(PROJECT, stdlib_imports(core_sources())))
    catalogs, _ = read_catalogs(PROJECT)
    lines = [
        json.dumps({"type": "locale", "locale": locale.tag, "catalog": base64.b64encode(mo).decode(),
                    "facts": number_facts_json(locale)})
        for locale, mo in catalogs.items()
    ]  # fmt: skip
    requests = [
        {"type": "report", "locale": locale.tag, "slug": calculator.slug, "values": values}
        for calculator in CALCULATORS
        for values in [calculator.defaults(), *value_sets(calculator)]
        for locale in catalogs
    ]
    # Bad input in every number field of every calculator, in two locales with different number symbols.
    requests += [
        {"type": "report", "locale": ("en", "de")[index % 2], "slug": calculator.slug, "values": values}
        for index, calculator in enumerate(CALCULATORS)
        for values in bad_input_sets(calculator)
    ]
    lines += [json.dumps(request) for request in requests]
    lines.append(json.dumps({"type": "doctest", "modules": list(core_modules())}))
    runtime = runtime_sources(PROJECT)["pyodide.mjs"].parent
    script = Path(__file__).with_name("pyodide_replay.mjs")
    run = subprocess.run(
        [node, str(script), str(runtime), str(bundle), str(stdlib)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    *reports, doctests = (json.loads(line) for line in run.stdout.splitlines())
    kits = {locale.tag: load_kit(mo, number_facts_json(locale)) for locale, mo in catalogs.items()}
    return {"doctests": doctests, "reports": reports, "requests": requests, "kits": kits}


def test_runs_on_python_314(replay: dict[str, Any]) -> None:
    assert str(replay["doctests"]["python"]).startswith("3.14")


def test_doctests_pass_under_pyodide(replay: dict[str, Any]) -> None:
    assert replay["doctests"]["failures"] == {}


def test_every_calculator_locale_and_value_set_gives_the_cpython_report(replay: dict[str, Any]) -> None:
    requests, reports = replay["requests"], replay["reports"]
    assert len(reports) == len(requests) >= len(CALCULATORS) * 10 * 3
    by_slug = {calculator.slug: calculator for calculator in CALCULATORS}
    for request, answer in zip(requests, reports, strict=True):
        expected = make_report(by_slug[request["slug"]], request["values"], replay["kits"][request["locale"]])
        assert answer["json"] == expected.to_json(), (request["slug"], request["locale"], request["values"])


def _vector_inputs(slug: str) -> list[str]:
    return [spec.name for spec in find(slug).inputs if spec.kind is Kind.VECTOR]


def test_bad_input_gives_a_named_problem_and_no_junk(replay: dict[str, Any]) -> None:
    for request, answer in zip(replay["requests"], replay["reports"], strict=True):
        report = json.loads(answer["json"])
        text = " ".join([report["status"], *(r["sentence"] for r in report["results"])])
        text += " ".join(e["message"] for e in report["errors"])
        for name in _vector_inputs(request["slug"]):
            # A pasted vector's item that is not a number is quoted back to the reader as typed ("NaN" included).
            text = text.replace(request["values"].get(name, "")[:24], "")
        assert not any(junk in text for junk in ("NaN", "Infinity", "undefined", "Traceback")), request
        if not report["ok"] and report["errors"]:
            assert all(e["message"] for e in report["errors"]), request


def test_snapshots_restore_and_fall_back_in_node(tmp_path: Path) -> None:
    """The private API snapshot.js relies on, on the pinned runtime: kept, restored, and a damaged one refused."""
    node = shutil.which("node")
    assert node
    runtime = runtime_sources(PROJECT)["pyodide.mjs"].parent
    module, stdlib = tmp_path / "snapshot.mjs", tmp_path / "stdlib.zip"
    module.write_bytes(boot_module(runtime_version(PROJECT), lock_info(PROJECT)))
    stdlib.write_bytes(standard_library(PROJECT, stdlib_imports(core_sources())))
    script = Path(__file__).with_name("snapshot_node.mjs")
    run = subprocess.run(
        [node, str(script), str(module), str(runtime), str(stdlib)],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    starts = [json.loads(line) for line in run.stdout.splitlines()]
    assert [start["start"] for start in starts] == ["plain", "snapshot", "plain", "plain"]
    assert {start["value"] for start in starts} == {f"{starts[0]['value'].split()[0]} 0.3 [1]"}
    assert starts[0]["value"].startswith("3.14.")
    assert all(start["stored"] == 1 for start in starts)
