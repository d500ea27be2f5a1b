"""Fine-tuning cost: OpenAI's published estimate for 100,000 tokens over 3 epochs."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.fine_tuning_cost import CALCULATOR as FINE_TUNING


def _cost(**values: str) -> float:
    result = evaluate(FINE_TUNING, {**FINE_TUNING.defaults(), **values})
    assert result.ok, result.problems
    return result.results["job_cost"]


@pytest.mark.parametrize(
    ("price", "printed"),
    [
        # OpenAI fine-tuning guide: ~$0.90 with gpt-4o-mini-2024-07-18 ($3 per 1M training tokens),
        # ~$2.40 with gpt-3.5-turbo-0125 ($8 per 1M).
        ("3", 0.90),
        ("8", 2.40),
    ],
)
def test_openai_s_estimate(price: str, printed: float) -> None:
    assert _cost(file_tokens="100000", epochs="3", training_price=price) == pytest.approx(printed)


def test_validation_tokens_bill_once_per_epoch() -> None:
    assert _cost(file_tokens="100000", epochs="2", validation_tokens="10000", training_price="3") == pytest.approx(
        220000 * 3 / 1e6
    )


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("epochs", "0", Problem("epochs", "too_small", Decimal(1))),
        ("epochs", "2.5", Problem("epochs", "not_whole")),
        ("training_price", "-3", Problem("training_price", "too_small", Decimal(0))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(FINE_TUNING, {**FINE_TUNING.defaults(), name: raw}).problems == (problem,)
