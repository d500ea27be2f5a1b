"""Evaluation rules, shown on the two seed calculators: every validation code, bounds, out-of-range results."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import CALCULATORS, Problem, evaluate, find
from calculators.core.evaluation import LARGEST_RESULT

GRAD = find("gradient-accumulation-memory")
VRAM = find("llm-training-vram")
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


def test_an_input_that_breaks_the_formula_is_out_of_range_not_an_exception() -> None:
    # 1e-400 passes "greater than 0" as a Decimal but is 0.0 as a float: Chinchilla's loss fit divides by it.
    chinchilla = find("chinchilla-optimal-tokens")
    result = evaluate(chinchilla, {**chinchilla.defaults(), "params_billion": "1e-400"})
    assert result.problems == (Problem("", "out_of_range"),)
    gpus = find("gpu-count")
    assert evaluate(gpus, {**gpus.defaults(), "gpu_memory_gb": "1e-400"}).problems == (Problem("", "out_of_range"),)
