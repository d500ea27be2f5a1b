"""The published, measured GPU-memory readings the memory calculators are held to (issue 29): their record.

Each reading is copied from its source with the settings that produced it; nothing in these files is computed.
The tests here keep the record usable: every reading names its source and quotes it, says what was measured
(the method, the model, the batch and the lengths) and in which convention and unit, so that a calculator's
figure can be compared with it in its own convention.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from calculators import evaluate, find
from calculators.vocabulary import memory
from calculators.vocabulary.architecture import count_parameters
from tests.measured import CUDA_CONTEXT_BYTES, FACTS, error, readings, shape_of

DATA = Path(__file__).with_name("data")
FILES = sorted(DATA.glob("measured_memory_*.toml"))
RUNS = [
    (path.name, index, run)
    for path in FILES
    for index, run in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("run", []))
]
LIMITS = tomllib.loads((DATA / "measured_memory_limits.toml").read_text(encoding="utf-8"))["limit"]
READINGS = readings()
COMPARED = [reading for reading in READINGS if reading.values is not None]
ARTICLE = Path(find("gpu-memory-planner").compute.__code__.co_filename).with_name("article.html")

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


def test_the_planner_matches_the_published_readings_as_the_article_says() -> None:
    # Each reading in its own convention; the article states the counts, and they must stay true.
    within = [reading for reading in COMPARED if abs(error(reading)) <= 0.15]
    share = len(within) / len(COMPARED)
    assert share >= 0.9, sorted(
        (reading.name, round(error(reading), 3)) for reading in COMPARED if reading not in within
    )
    stated = re.search(r"readings=(\d+), stated=(\d+), share=(\d+)", ARTICLE.read_text(encoding="utf-8"))
    assert stated is not None
    assert tuple(int(number) for number in stated.groups()) == (len(RUNS), len(COMPARED), math.floor(100 * share))


def test_serving_readings_are_within_five_percent() -> None:
    serving = [reading for reading in COMPARED if reading.values and reading.values["method"] == memory.SERVING]
    close = [reading for reading in serving if abs(error(reading)) <= 0.05]
    assert len(serving) >= 40
    assert len(close) / len(serving) >= 0.9


def test_every_reading_left_out_says_why() -> None:
    left_out = [reading for reading in READINGS if reading.values is None]
    assert all(reading.skipped for reading in left_out)
    assert len(COMPARED) >= 100


def _longest(values: dict[str, float], capacity: float) -> int:
    """The longest sequence whose reserved bytes and the CUDA context fit in `capacity` bytes (0 if none)."""

    def fits(length: int) -> bool:
        return (
            memory.reserved(memory.estimate({**values, "seq_len": length}).allocated) + CUDA_CONTEXT_BYTES <= capacity
        )

    low, high = 0, 1
    while fits(high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _limit_values(limit: dict[str, Any]) -> dict[str, float]:
    shape = shape_of(str(limit["model"]))
    assert shape is not None
    # The settings the source states, and the assumptions its header names.
    return {
        **shape,
        "method": memory.LORA,
        "weight_format": 2.0,
        "precision": memory.MIXED,
        "optimizer": memory.ADAMW_8BIT,
        "rank": float(limit["lora_rank"]),
        "target_modules": memory.ALL_LINEAR,
        "lora_dropout": 0.0,
        "upcast_unquantized": 1.0,
        "micro_batch": float(limit["batch_size"]),
        "checkpointing": memory.FULL_CHECKPOINTING,
        "attention": 0.0,
        "cross_entropy": 0.0,
    }


@pytest.mark.parametrize(
    "limit", [limit for limit in LIMITS if "longest_seq_len" in limit], ids=lambda limit: limit["quote"]
)
def test_the_longest_sequence_matches_the_measured_limit(limit: dict[str, Any]) -> None:
    longest = _longest(_limit_values(limit), limit["gpu_memory_gb"] * 2**30)
    assert longest == pytest.approx(limit["longest_seq_len"], rel=0.15)


@pytest.mark.parametrize(
    "limit", [limit for limit in LIMITS if limit.get("out_of_memory")], ids=lambda limit: limit["quote"]
)
def test_never_fits_where_the_run_ran_out_of_memory(limit: dict[str, Any]) -> None:
    # On the page, with its own margin, at any length: even a 16-token sequence does not fit.
    shape = shape_of(str(limit["model"]))
    assert shape is not None and shape["architecture"] == 0
    # The shape as a reader types it: whole numbers, and the architecture's menu value.
    page = {name: str(int(shape[name])) for name in FACTS if name != "architecture"}
    page.update(
        architecture="llama",
        rank=str(limit["lora_rank"]),
        micro_batch=str(limit["batch_size"]),
        lora_dropout="0",
        upcast_unquantized="1",
        method="lora",
        weight_format="nf4",
        precision="mixed",
        optimizer="adamw-8bit",
        target_modules="all",
        checkpointing="full",
        attention="fused",
        cross_entropy="full",
        seq_len="16",
        gpu_memory_gb=str(limit["gpu_memory_gb"]),
    )
    planner = find("gpu-memory-planner")
    results = evaluate(planner, {**planner.defaults(), **page}).results
    assert results["shortfall_memory"] > 0 and results["headroom_memory"] == 0
    assert results["longest_sequence"] == 0


_BITS = {0.0: "16", 1.0: "8.5", 2.0: "4.5", 3.0: "4.127", 4.0: "4.15625", 5.0: "8.1875", 6.0: "8"}
"""The bits per weight a reader of llm-inference-vram enters for each format (scales included)."""


def test_llm_inference_vram_counts_what_qwens_benchmark_measured_as_its_article_says() -> None:
    # Every single-GPU serving reading taken with max_memory_allocated, through the page (no CUDA context, which
    # that counter leaves out), counted and by the rule of thumb; the article states both counts.
    serve = find("llm-inference-vram")
    counted, rule = [], []
    for reading in COMPARED:
        values = reading.values
        if not values or values["method"] != memory.SERVING or reading.convention != "allocated":
            continue
        if values.get("quantized_head"):
            continue  # litgpt's own format: not a bits-per-weight reading
        page = {name: str(int(values[name])) for name in ("layers", "kv_heads", "head_dim", "hidden_size",
                                                           "ffn_size", "vocab_size", "tied_embeddings")}  # fmt: skip
        page.update(
            params_billion=str(count_parameters(values).total / 1e9),
            bits_per_weight=_BITS[values["weight_format"]],
            context_tokens=str(int(values["prompt_tokens"] + values["output_tokens"])),
            batch_size=str(int(values["batch_size"])),
            cuda_context_gb="0",
        )
        for model, errors in (("counted", counted), ("rule-of-thumb", rule)):
            total = evaluate(serve, {**serve.defaults(), **page, "overhead_model": model}).results["total_memory"]
            errors.append(total * 1e9 / reading.measured - 1)
    assert all(abs(error) <= 0.10 for error in counted), counted
    stated = re.search(
        r"readings=(\d+), rule=(\d+)", (ARTICLE.parent.parent / "llm_inference_vram" / "article.html").read_text()
    )
    assert stated is not None
    assert (int(stated.group(1)), int(stated.group(2))) == (len(counted), sum(abs(error) <= 0.15 for error in rule))
