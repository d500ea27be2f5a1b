"""Batch API savings: the vendors' batch tables are their standard prices, half off."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.batch_api_savings import CALCULATOR
from tests.helpers import results_of

_result = results_of(CALCULATOR)


@pytest.mark.parametrize(
    ("standard", "batch"),
    [
        # Anthropic's batch table against its standard table: Claude Opus 4.1, Claude Sonnet 4, Claude Haiku 3.
        (("15", "75"), (7.5, 37.5)),
        (("3", "15"), (1.5, 7.5)),
        (("0.25", "1.25"), (0.125, 0.625)),
    ],
)
def test_the_batch_table_is_half_the_standard_table(standard: tuple[str, str], batch: tuple[float, float]) -> None:
    result = _result(input_price=standard[0], output_price=standard[1], batch_discount="50")
    assert (result["batch_input_price"], result["batch_output_price"]) == pytest.approx(batch)


def test_half_the_bill_is_saved() -> None:
    # OpenAI's Batch API FAQ: "a 50% cost discount vs. the synchronous APIs".
    result = _result(input_tokens="1000000", output_tokens="0", requests="1", input_price="15")
    assert result["standard_cost"] == pytest.approx(15)
    assert result["batch_cost"] == pytest.approx(7.5)
    assert result["savings"] == pytest.approx(7.5)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("batch_discount", "150", Problem("batch_discount", "too_large", Decimal(100))),
        ("requests", "many", Problem("requests", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(CALCULATOR, {**CALCULATOR.defaults(), name: raw}).problems == (problem,)
