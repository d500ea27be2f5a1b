"""Batch inference throughput: the memory limit and the crossover batch."""

import pytest

from calculators import evaluate, find
from tests.helpers import results_of

CALCULATOR = find("batch-inference-throughput")
_result = results_of(CALCULATOR)


def test_llama_8b_on_an_h100() -> None:
    # 80 GB minus 16.06 GB of weights, 131,072 bytes × 4,096 tokens a sequence (vLLM's per-token formula).
    result = _result()
    assert result["max_batch"] == 119
    assert result["crossover_batch"] == pytest.approx(989.5e12 / 3350e9)


def test_a_model_too_large_fits_no_batch() -> None:
    result = _result(params_billion="405", gpu_memory_gb="80")
    assert result["max_batch"] == 0 and result["max_batch_tokens_per_second"] == 0


def test_bad_input_is_a_problem() -> None:
    assert not evaluate(CALCULATOR, {**CALCULATOR.defaults(), "gpu_memory_gb": "0"}).ok
