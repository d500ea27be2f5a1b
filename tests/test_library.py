"""The calculators as a library and a command line: the same core, the same numbers and sentences as the page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import calculators
from calculators import InvalidInputError, LocaleKit, Problem, find, make_report
from calculators.catalogue import CATALOGUE
from languages.locales import LOCALE_BY_TAG
from site_builder.build import PROJECT

from .pagetext import expected_text, result_text
from .test_browser import _open


def test_library_api() -> None:
    listed = calculators.list_calculators()
    # Every calculator of the catalogue, once, in its order.
    assert listed == tuple(entry.split("/")[1] for entry in CATALOGUE)
    assert listed[:2] == ("gradient-accumulation-memory", "llm-training-vram") and len(set(listed)) == len(listed)
    assert {"kv-cache-size", "quantized-model-size", "transformer-params", "lora-parameters"} <= set(listed)
    description = calculators.describe("gradient-accumulation-memory")
    assert [i["name"] for i in description["inputs"]] == [  # type: ignore[index]
        "micro_batch", "accumulation_steps", "data_parallel", "activation_per_sample_gb", "memory_unit",
        # Added for issue 29, optional: the activations computed from the model's shape.
        "activation_source", "layers", "hidden_size", "attention_heads", "kv_heads", "head_dim", "ffn_size",
        "vocab_size", "seq_len", "checkpointing", "attention", "cross_entropy",
    ]  # fmt: skip
    seed = {"micro_batch": 4, "accumulation_steps": 8, "data_parallel": 4, "activation_per_sample_gb": 0.5}
    assert calculators.compute("gradient-accumulation-memory", seed) == {
        "effective_batch": 128,
        "activation_memory_gb": 2,
    }
    assert calculators.validate(
        "llm-training-vram", {"params_billion": "x", "bytes_per_param": 16, "activation_gb": 0}
    ) == (Problem("params_billion", "not_a_number"),)
    with pytest.raises(InvalidInputError) as caught:
        calculators.compute("llm-training-vram", {"params_billion": -1, "bytes_per_param": 16, "activation_gb": 0})
    assert caught.value.problems[0].code == "too_small"


def _cli(*args: str, cwd: Path = PROJECT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "calculators", *args], cwd=cwd, capture_output=True, text=True, check=False, env=env
    )


@pytest.mark.parametrize("tag", ["en", "de", "zh-TW", "ar"])
def test_cli_json_is_the_pages_report(kits: dict[str, LocaleKit], tag: str) -> None:
    run = _cli("gradient-accumulation-memory", "--micro_batch", "16", "--data-parallel", "64", "--json", "--lang", tag)
    assert run.returncode == 0, run.stderr
    printed = json.loads(run.stdout)
    values = {**find("gradient-accumulation-memory").defaults(), "micro_batch": "16", "data_parallel": "64"}
    report = json.loads(make_report(find("gradient-accumulation-memory"), values, kits[tag]).to_json())
    assert {key: printed[key] for key in report} == report


def test_cli_text_and_bad_input() -> None:
    run = _cli("llm-training-vram", "--params_billion", "7", "--activation_gb", "20")
    assert run.returncode == 0
    assert run.stdout.splitlines()[0] == "Total VRAM: 132 GB"
    bad = _cli("llm-training-vram", "--params_billion", "zero", "--lang", "fr")
    assert bad.returncode == 2
    assert "--params_billion:" in bad.stdout
    assert _cli("no-such-calculator").returncode == 2
    assert "llm-training-vram" in _cli("--list").stdout
    # A value a float cannot hold once raised ZeroDivisionError: a traceback and status 1.
    tiny = _cli("gpu-count", "--gpu_memory_gb", "1e-400", "--lang", "de")
    assert (tiny.returncode, tiny.stderr) == (2, "")
    assert "--gpu_memory_gb: Dieser Wert liegt außerhalb des Bereichs" in tiny.stdout


def test_cli_reads_a_long_vector_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    # A hundred thousand numbers: past what a command line takes (E2BIG), so @FILE and @- as curl reads them.
    numbers = ", ".join(f"{index % 7 - 3}.{index:06d}" for index in range(100_000))
    (tmp_path / "a.txt").write_text(numbers, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "calculators", "cosine-similarity", "--vector_a", f"@{tmp_path / 'a.txt'}",
         "--vector_b", "@-", "--json"],
        cwd=PROJECT, input=numbers, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    printed = json.loads(run.stdout)
    shown = {result["name"]: result["value"] for result in printed["results"]}
    assert shown["similarity"] == "1" and shown["dimensions"] == "100,000"
    missing = _cli("cosine-similarity", "--vector_a", f"@{tmp_path / 'missing.txt'}")
    assert missing.returncode == 2 and "cannot read" in missing.stderr and "missing.txt" in missing.stderr


def test_installed_package_carries_its_catalogs(tmp_path: Path) -> None:
    target = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), "."],
        cwd=PROJECT, check=True, capture_output=True,
    )  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = _cli("llm-training-vram", "--lang", "fr", "--params_billion", "1.5", cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert "1,5" in run.stdout and "24" in run.stdout
    where = _cli("--list", cwd=tmp_path, env={**env, "PYTHONSAFEPATH": "1"})
    assert where.returncode == 0


@pytest.mark.browser
def test_library_cli_and_page_agree(page: Any, base_url: str) -> None:
    calculator = find("llm-training-vram")
    locale = LOCALE_BY_TAG["pt-BR"]
    values = {"params_billion": "70,5", "bytes_per_param": "12", "activation_gb": "35"}
    run = _cli(calculator.slug, *[arg for name, value in values.items() for arg in (f"--{name}", value)],
               "--json", "--lang", "pt-BR")  # fmt: skip
    printed = json.loads(run.stdout)
    cli_report = calculators.Report(
        ok=printed["ok"], status=printed["status"],
        results=tuple(calculators.report.ResultText(**r) for r in printed["results"]),
        errors=tuple(calculators.report.FieldMessage(**e) for e in printed["errors"]),
        chart=printed["chart"],
    )  # fmt: skip
    query = "?" + "&".join(f"{name}={value}" for name, value in values.items())
    _open(page, base_url, locale, calculator, query)
    names = [spec.name for spec in calculator.inputs]
    assert result_text(page.content()) == expected_text(cli_report, names, chart=bool(calculator.chart))
    library = calculators.compute(calculator.slug, {"params_billion": 70.5, "bytes_per_param": 12, "activation_gb": 35})
    assert library["total_vram_gb"] == 881
    assert printed["results"][0]["value"] == "881"


def test_the_list_piped_into_a_reader_that_stops_is_not_an_error() -> None:
    # `python -m calculators --list | head` ended in a BrokenPipeError traceback.
    run = subprocess.run(
        ["bash", "-c", f"'{sys.executable}' -m calculators --list | true"],
        cwd=PROJECT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.stderr == ""
