"""The two seed calculators: their published worked examples and every validation rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import CALCULATORS, Problem, evaluate, find
from calculators.evaluation import LARGEST_RESULT

GRAD = find("gradient-accumulation-memory")
VRAM = find("llm-training-vram")


def test_gradient_accumulation_seed_example() -> None:
    result = evaluate(
        GRAD, {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "1", "activation_per_sample_gb": "0.5"}
    )
    assert result.results == {"effective_batch": 32, "activation_memory_gb": 2}


def test_gradient_accumulation_four_gpus_keeps_memory() -> None:
    result = evaluate(
        GRAD, {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "4", "activation_per_sample_gb": "0.5"}
    )
    assert result.results == {"effective_batch": 128, "activation_memory_gb": 2}


@pytest.mark.parametrize("steps", ["1", "16"])
def test_activation_memory_does_not_depend_on_accumulation(steps: str) -> None:
    # Reference sheet case 1c: b=4, A=2.5 GB/sample gives 10 GB whatever the accumulation.
    result = evaluate(
        GRAD, {"micro_batch": "4", "accumulation_steps": steps, "data_parallel": "1", "activation_per_sample_gb": "2.5"}
    )
    assert result.results["activation_memory_gb"] == 10


def test_deepspeed_train_batch_size() -> None:
    # DeepSpeed: train_batch_size = micro-batch × accumulation steps × GPUs (4 × 2 × 8 = 64).
    result = evaluate(
        GRAD, {"micro_batch": 4, "accumulation_steps": 2, "data_parallel": 8, "activation_per_sample_gb": 0}
    )
    assert result.results["effective_batch"] == 64


def test_llm_training_vram_seed_examples() -> None:
    base = {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "0"}
    outputs = ("model_state_gb", "total_vram_gb", "per_gpu_vram_gb")
    assert [evaluate(VRAM, base).results[name] for name in outputs] == [112, 112, 112]
    with_activations = evaluate(VRAM, {**base, "activation_gb": "20"}).results
    assert [with_activations[name] for name in outputs] == [112, 132, 132]
    # The chart's parts: 2 bytes of weights, 2 of gradients, 12 of optimizer state per parameter, plus activations.
    parts = ("weights_memory", "gradients_memory", "optimizer_memory", "activations_memory")
    assert [with_activations[name] for name in parts] == [14, 14, 84, 20]


def test_seed_memory_figures_switch_to_gib() -> None:
    # The seed links carry no memory_unit: they keep GB. With it, the same bytes are shown in GiB.
    base = {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "0"}
    assert evaluate(VRAM, {**base, "memory_unit": "gib"}).results["total_vram_gb"] == pytest.approx(112e9 / 2**30)
    grad = {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "1", "activation_per_sample_gb": "0.5"}
    assert evaluate(GRAD, grad).results["activation_memory_gb"] == 2
    assert evaluate(GRAD, {**grad, "memory_unit": "gib"}).results["activation_memory_gb"] == pytest.approx(2e9 / 2**30)


@pytest.mark.parametrize(
    ("data_parallel", "expected"),
    [
        # ZeRO Figure 1, 7.5B parameters on 64 GPUs: "120 / 31.4 / 16.6 / 1.9 GB" (exactly 120, 31.406, 16.641, 1.875).
        ("64", (120, 31.4, 16.6, 1.9)),
        # The same model on 4 GPUs (ZeRO Table 1's grid): 120, 52.5, 41.25, 30.
        ("4", (120, 52.5, 41.25, 30)),
    ],
)
def test_zero_paper_per_gpu_model_states(data_parallel: str, expected: tuple[float, ...]) -> None:
    for stage, published in enumerate(expected):
        values = {"params_billion": "7.5", "bytes_per_param": "16", "activation_gb": "0",
                  "zero_stage": str(stage), "data_parallel": data_parallel}  # fmt: skip
        per_gpu = evaluate(VRAM, values).results["per_gpu_vram_gb"]
        assert per_gpu == pytest.approx(published, abs=0.05), stage


def test_zero_sharding_leaves_the_seed_outputs_alone() -> None:
    values = {
        "params_billion": "7",
        "bytes_per_param": "16",
        "activation_gb": "20",
        "zero_stage": "3",
        "data_parallel": "8",
    }
    results = evaluate(VRAM, values).results
    assert (results["model_state_gb"], results["total_vram_gb"]) == (112, 132)
    assert results["per_gpu_vram_gb"] == 112 / 8 + 20


def test_zero_paper_model_states() -> None:
    # ZeRO §3.1: GPT-2 with 1.5B parameters needs at least 24 GB of model state; Fig. 1 baseline: 7.5B → 120 GB.
    assert evaluate(VRAM, {"params_billion": "1.5", "bytes_per_param": "16", "activation_gb": "0"}).results[
        "model_state_gb"
    ] == pytest.approx(24)
    assert evaluate(VRAM, {"params_billion": "7.5", "bytes_per_param": "16", "activation_gb": "0"}).results[
        "model_state_gb"
    ] == pytest.approx(120)


@pytest.mark.parametrize(("bytes_per_param", "expected"), [("16", 112), ("12", 84), ("8", 56)])
def test_every_optimizer_choice(bytes_per_param: str, expected: float) -> None:
    result = evaluate(VRAM, {"params_billion": "7", "bytes_per_param": bytes_per_param, "activation_gb": "0"})
    assert result.results["model_state_gb"] == expected


GOOD_GRAD = {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "1", "activation_per_sample_gb": "0.5"}
GOOD_VRAM = {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "0"}


@pytest.mark.parametrize(
    ("calculator", "good", "name", "raw", "problem"),
    [
        (GRAD, GOOD_GRAD, "micro_batch", "", Problem("micro_batch", "required")),
        (GRAD, GOOD_GRAD, "micro_batch", "   ", Problem("micro_batch", "required")),
        (GRAD, GOOD_GRAD, "micro_batch", None, Problem("micro_batch", "required")),
        (GRAD, GOOD_GRAD, "micro_batch", "abc", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "NaN", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "Infinity", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "-inf", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "0x10", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "1_000", Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", float("nan"), Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", True, Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", [4], Problem("micro_batch", "not_a_number")),
        (GRAD, GOOD_GRAD, "micro_batch", "2.5", Problem("micro_batch", "not_whole")),
        (GRAD, GOOD_GRAD, "micro_batch", "0", Problem("micro_batch", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "micro_batch", "-1", Problem("micro_batch", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "accumulation_steps", "0", Problem("accumulation_steps", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "data_parallel", "0", Problem("data_parallel", "too_small", Decimal(1))),
        (GRAD, GOOD_GRAD, "micro_batch", "1e400", Problem("micro_batch", "too_large", Decimal(1_000_000))),
        (
            GRAD,
            GOOD_GRAD,
            "activation_per_sample_gb",
            "-0.5",
            Problem("activation_per_sample_gb", "too_small", Decimal(0)),
        ),
        (VRAM, GOOD_VRAM, "params_billion", "0", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        (VRAM, GOOD_VRAM, "params_billion", "-7", Problem("params_billion", "too_small", Decimal(0), exclusive=True)),
        (VRAM, GOOD_VRAM, "bytes_per_param", "10", Problem("bytes_per_param", "unknown_choice")),
        (VRAM, GOOD_VRAM, "bytes_per_param", "sixteen", Problem("bytes_per_param", "unknown_choice")),
        (VRAM, GOOD_VRAM, "activation_gb", "-1", Problem("activation_gb", "too_small", Decimal(0))),
    ],
)
def test_validation_rules(calculator, good, name, raw, problem) -> None:  # type: ignore[no-untyped-def]
    result = evaluate(calculator, {**good, name: raw})
    assert not result.ok
    assert result.problems == (problem,)
    assert result.results == {}


def test_zero_activation_is_allowed() -> None:
    assert evaluate(GRAD, {**GOOD_GRAD, "activation_per_sample_gb": "0"}).results["activation_memory_gb"] == 0


def test_missing_input_is_reported_and_unknown_keys_ignored() -> None:
    result = evaluate(VRAM, {"params_billion": "7", "activation_gb": "0", "surprise": "<b>"})
    assert result.problems == (Problem("bytes_per_param", "required"),)


def test_absurd_results_are_out_of_range() -> None:
    result = evaluate(VRAM, {"params_billion": "100000", "bytes_per_param": "16", "activation_gb": "1000000"})
    assert result.ok  # 1.6 million GB is large but meaningful
    product = evaluate(
        GRAD,
        {
            "micro_batch": "1000000",
            "accumulation_steps": "1000000",
            "data_parallel": "1000000",
            "activation_per_sample_gb": "1",
        },
    )
    assert product.problems == (Problem("", "out_of_range"),)
    assert 1e18 > LARGEST_RESULT


def test_every_numeric_input_is_bounded() -> None:
    # An unbounded input would let 1e400 through to the formulas as infinity.
    for calculator in CALCULATORS:
        for spec in calculator.inputs:
            assert spec.choices or spec.maximum is not None, (calculator.slug, spec.name)


def test_defaults_evaluate() -> None:
    for calculator in CALCULATORS:
        assert evaluate(calculator, calculator.defaults()).ok, calculator.slug
