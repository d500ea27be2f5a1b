"""The published, measured GPU-memory readings the memory calculators are held to (issue 29): their record.

Each reading is copied from its source with the settings that produced it; nothing in these files is computed.
The tests here keep the record usable: every reading names its source and quotes it, says what was measured
(the method, the model, the batch and the lengths) and in which convention and unit, so that a calculator's
figure can be compared with it in its own convention.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).with_name("data")
FILES = sorted(DATA.glob("measured_memory_*.toml"))
RUNS = [
    (path.name, index, run)
    for path in FILES
    for index, run in enumerate(tomllib.loads(path.read_text(encoding="utf-8"))["run"])
]

METHODS = {"full", "lora", "qlora", "inference"}
CONVENTIONS = {"max_memory_allocated", "max_memory_reserved", "nvidia-smi", "unknown"}


def test_there_are_readings_of_every_method() -> None:
    assert len(RUNS) >= 60
    assert {run["method"] for _, _, run in RUNS} == METHODS


@pytest.mark.parametrize(("name", "index", "run"), RUNS, ids=[f"{name}:{index}" for name, index, _ in RUNS])
def test_a_reading_says_where_it_comes_from_and_what_it_measured(name: str, index: int, run: dict[str, Any]) -> None:
    assert str(run["source"]).startswith("https://")
    assert str(run["quote"]).strip(), "the source's own words"
    assert run["method"] in METHODS and run["model"]
    assert isinstance(run["peak_memory"], int | float) and run["peak_memory"] > 0
    assert run["convention"] in CONVENTIONS and run["unit"]
    assert isinstance(run["per_gpu"], bool) and run["gpus"] >= 1
    assert run["batch_size"] >= 1
    if run["method"] == "inference":
        assert "input_tokens" in run or "seq_len" in run
    else:
        assert "seq_len" in run
