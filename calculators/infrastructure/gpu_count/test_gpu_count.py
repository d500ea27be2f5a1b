"""GPU count: the sheet's cases 19a to 19c, Stoelinga's Llama 2 70B figure and vLLM's tensor-parallel rules."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.infrastructure.gpu_count import CALCULATOR as GPUS
from tests.helpers import ModelPreset, results_of

_result = results_of(GPUS)


def test_stoelinga_llama_2_70b_needs_three_then_four() -> None:
    # 19a: Stoelinga's 70 × 4 bytes / (32/16) × 1.2 = 168 GB on 80 GB GPUs: 3 by memory; 64 heads → TP 4.
    assert 70 * 4 / (32 / 16) * 1.2 == pytest.approx(168)
    for utilization in ("1", "0.9"):
        result = _result(required_memory_gb="168", gpu_memory_gb="80", gpu_memory_utilization=utilization)
        assert (result["gpu_count"], result["tensor_parallel_size"], result["pipeline_parallel_size"]) == (3, 4, 1)
        assert result["memory_per_gpu_gb"] == 42


@pytest.mark.parametrize("utilization", ["1", "0.9"])
def test_140_gb_on_80_gb_gpus(utilization: str) -> None:
    # 19b: 140 GB / 80 GB → 2; 140 GB / (80 × 0.9) → 2.
    result = _result(required_memory_gb="140", gpu_memory_utilization=utilization)
    assert (result["gpu_count"], result["tensor_parallel_size"]) == (2, 2)


def test_small_model_on_one_gpu() -> None:
    # 19c: 16.2 GB / 24 GB → 1.
    result = _result(required_memory_gb="16.2", gpu_memory_gb="24", gpu_memory_utilization="1")
    assert (result["gpu_count"], result["tensor_parallel_size"], result["pipeline_parallel_size"]) == (1, 1, 1)


def test_stoelinga_4_bit_on_two_l4() -> None:
    # The same post: 4-bit Llama 2 70B, 70 × 4 / (32/4) × 1.2 = 42 GB, "could run on 2 x L4 24GB GPUs".
    for utilization in ("1", "0.9"):
        result = _result(required_memory_gb="42", gpu_memory_gb="24", gpu_memory_utilization=utilization)
        assert (result["gpu_count"], result["tensor_parallel_size"]) == (2, 2)


def test_exact_multiples_do_not_round_up() -> None:
    # 144 GB on 80 GB × 0.9 = 72 GB is exactly 2 GPUs, despite 0.9 not being exact in binary.
    assert _result(required_memory_gb="144", gpu_memory_utilization="0.9")["gpu_count"] == 2
    assert _result(required_memory_gb="144.001", gpu_memory_utilization="0.9")["gpu_count"] == 3
    assert _result(required_memory_gb="160", gpu_memory_utilization="1")["gpu_count"] == 2


@pytest.mark.parametrize(
    ("heads", "kv_heads", "needed_memory", "node", "tensor"),
    [
        ("64", "8", "168", "8", 4),  # Llama 2 70B
        ("32", "8", "200", "8", 4),  # Llama-3.1-8B-like heads, 3 GPUs by memory
        ("40", "40", "200", "8", 4),  # Llama 2 13B: 40 heads, no GQA: 4 divides 40
        ("40", "8", "350", "8", 8),  # 5 GPUs by memory. Qwen2.5-14B heads: 5 divides 40 but not the 8 KV heads → 8
        ("40", "40", "350", "8", 5),  # without GQA, 5 is valid
        ("64", "8", "1000", "16", 16),  # 13 GPUs by memory, in a 16-GPU node → 16 copies each KV head twice
        ("28", "4", "350", "32", 28),  # 5 by memory; 7 and 14 do not fit 4 KV heads; 28 does (7 copies)
    ],
)
def test_vllm_tensor_parallel_rules(heads: str, kv_heads: str, needed_memory: str, node: str, tensor: int) -> None:
    result = _result(
        attention_heads=heads,
        kv_heads=kv_heads,
        required_memory_gb=needed_memory,
        gpu_memory_utilization="1",
        gpus_per_node=node,
    )
    size = result["tensor_parallel_size"]
    assert size == tensor
    assert int(heads) % size == 0  # vLLM: num_attention_heads % tensor_parallel_size == 0
    assert int(kv_heads) % size == 0 or size % int(kv_heads) == 0


def test_beyond_the_heads_pipeline_stages_take_over() -> None:
    # 1,000 GB on 24 GB GPUs is 42 GPUs, more than 32 heads: in a node of 64, TP 32 × 2 pipeline stages.
    huge = {"required_memory_gb": "1000", "gpu_memory_gb": "24", "gpu_memory_utilization": "1", "attention_heads": "32"}
    result = _result(**huge, gpus_per_node="64")
    assert result["gpu_count"] == 42
    assert (result["tensor_parallel_size"], result["pipeline_parallel_size"]) == (32, 2)
    assert result["memory_per_gpu_gb"] == pytest.approx(1000 / 64)
    # In nodes of 8 (the default): TP 8 × 6 stages, 48 GPUs.
    result = _result(**huge)
    assert (result["tensor_parallel_size"], result["pipeline_parallel_size"]) == (8, 6)


def test_tensor_parallel_within_a_node_pipeline_across() -> None:
    # vLLM's distributed serving guide: "The tensor parallel size is the number of GPUs you want to use in each
    # node, and the pipeline parallel size is the number of nodes", e.g. 16 GPUs in 2 nodes of 8: TP 8, PP 2.
    # Llama 3.1 405B's config.json: 128 attention heads, 8 KV heads. 16 × 80 GB × 0.9 = 1,152 GB holds 1,000 GB.
    llama_405b = {"attention_heads": "128", "kv_heads": "8", "gpu_memory_gb": "80"}
    result = _result(**llama_405b, required_memory_gb="1000")
    assert (result["gpu_count"], result["tensor_parallel_size"], result["pipeline_parallel_size"]) == (14, 8, 2)
    # The case: 28 heads and 4 KV heads (Qwen2.5-7B's shape), 5 GPUs by memory. Valid sizes are those
    # dividing 28 that split or copy 4 KV heads evenly: 1, 2, 4, 28 (7 and 14 do not). Within 8: TP 4 × PP 2.
    qwen = _result(attention_heads="28", kv_heads="4", required_memory_gb="400", gpu_memory_utilization="1")
    assert (qwen["gpu_count"], qwen["tensor_parallel_size"], qwen["pipeline_parallel_size"]) == (5, 4, 2)
    assert qwen["memory_per_gpu_gb"] == 50
    # Old links have no gpus_per_node: they take 8.
    old = {k: v for k, v in GPUS.defaults().items() if k != "gpus_per_node"}
    assert evaluate(GPUS, {**old, "attention_heads": "28", "kv_heads": "4", "required_memory_gb": "400",
                           "gpu_memory_utilization": "1"}).results["tensor_parallel_size"] == 4  # fmt: skip
    assert GPUS.input("gpus_per_node").optional and GPUS.defaults()["gpus_per_node"] == "8"


def test_a_model_preset_leaves_the_memory_to_the_reader(model_preset: ModelPreset) -> None:
    # The page has no parameter count or precision to work the memory out from: a preset fills the heads only.
    assert model_preset(GPUS, "meta-llama/Llama-3.1-405B") == {"attention_heads": "128", "kv_heads": "8"}
    assert GPUS.input("required_memory_gb").preset is None


def test_defaults_are_llama_2_70b_serving() -> None:
    assert GPUS.defaults()["required_memory_gb"] == "168"
    assert GPUS.defaults()["attention_heads"] == "64"
    assert GPUS.defaults()["gpu_memory_utilization"] == "0.9"  # vLLM's gpu_memory_utilization default
    assert GPUS.input("gpu_memory_gb").preset == "gpu.memory_gb"
    assert GPUS.input("attention_heads").preset == "model.attention_heads"
    assert GPUS.input("kv_heads").preset == "model.kv_heads"


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("required_memory_gb", "0", Problem("required_memory_gb", "too_small", Decimal(0), exclusive=True)),
        ("attention_heads", "0", Problem("attention_heads", "too_small", Decimal(1))),
        ("attention_heads", "6.5", Problem("attention_heads", "not_whole")),
        ("kv_heads", "0", Problem("kv_heads", "too_small", Decimal(1))),
        ("gpu_memory_gb", "-80", Problem("gpu_memory_gb", "too_small", Decimal(0), exclusive=True)),
        ("gpu_memory_utilization", "0", Problem("gpu_memory_utilization", "too_small", Decimal(0), exclusive=True)),
        ("gpu_memory_utilization", "90", Problem("gpu_memory_utilization", "too_large", Decimal(1))),
        ("required_memory_gb", "lots", Problem("required_memory_gb", "not_a_number")),
    ],
)
def test_validation(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(GPUS, {**GPUS.defaults(), name: raw})
    assert result.problems == (problem,)


def test_extremes_stay_in_range() -> None:
    result = evaluate(
        GPUS,
        {
            "required_memory_gb": "1000000",
            "attention_heads": "10000",
            "kv_heads": "1",
            "gpu_memory_gb": "0.001",
            "gpu_memory_utilization": "0.001",
        },
    )
    assert result.ok
    assert result.results["tensor_parallel_size"] * result.results["pipeline_parallel_size"] >= 1e12


def test_report_sentences(kits: dict[str, LocaleKit]) -> None:
    report = make_report(GPUS, GPUS.defaults(), kits["en"])
    texts = {r.name: r for r in report.results}
    assert texts["gpu_count"].sentence == "168 GB ÷ (80 GB × 0.9), rounded up, is 3 GPUs."
    assert texts["gpu_count"].unit == "GPUs"
    assert texts["tensor_parallel_size"].value == "4"
    assert texts["pipeline_parallel_size"].sentence.startswith("1 pipeline stage of 4 tensor-parallel GPUs holds")
    one = make_report(GPUS, {**GPUS.defaults(), "required_memory_gb": "16"}, kits["en"])
    assert one.results[0].unit == "GPU"


def test_vllm_takes_its_share_of_what_the_gpu_shows() -> None:
    # vLLM's gpu_memory_utilization is a share of the total CUDA reports: 81,559 MiB (79.65 GiB, 85.52 GB) on an
    # H100 sold as 80 GB. 150 GB does not fit two GPUs' 0.9 × 80 GB, but fits 0.9 × 85.52 GB on two.
    assert _result(required_memory_gb="150")["gpu_count"] == 3
    seen = _result(required_memory_gb="150", usable_memory_gib="79.65")
    assert seen["seen_memory_gb"] == pytest.approx(79.65 * 2**30 / 1e9)
    assert seen["gpu_count"] == 2
    assert _result()["seen_memory_gb"] == 80  # without a reading, the memory as sold
    # a link from before the field keeps its result
    old = {spec.name: spec.default for spec in GPUS.inputs if spec.name != "usable_memory_gib"}
    assert evaluate(GPUS, old).results == evaluate(GPUS, GPUS.defaults()).results
