"""Tokens per dollar: the vendors' prices per million tokens, turned back into the tokens a budget buys."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.tokens_per_dollar import CALCULATOR
from tests.helpers import results_of

_result = results_of(CALCULATOR)


def test_a_price_per_million_buys_a_million_tokens() -> None:
    # Anthropic's pricing table, Claude Opus 4.1: "$15 / MTok" input, "$75 / MTok" output.
    assert _result(input_price="15", input_share="100", budget="15")["budget_tokens"] == pytest.approx(1e6)
    assert _result(output_price="75", input_share="0", budget="75")["budget_tokens"] == pytest.approx(1e6)
    # Claude Haiku 3, "$0.25 / MTok" input: four million tokens a dollar.
    assert _result(input_price="0.25", input_share="100")["tokens_per_unit"] == pytest.approx(4e6)


def test_a_three_to_one_blend() -> None:
    # Claude Sonnet 4 ($3 and $15 per MTok), three input tokens to one output: (3 × 3 + 15) / 4 = $6 per million.
    result = _result(input_price="3", output_price="15", input_share="75", budget="6")
    assert result["blended_price"] == pytest.approx(6)
    assert result["budget_tokens"] == pytest.approx(1e6)
    assert result["budget_input_tokens"] == pytest.approx(750_000)


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"input_share": "101"}, Problem("input_share", "too_large", Decimal(100))),
        ({"budget": "-1"}, Problem("budget", "too_small", Decimal(0))),
        ({"input_price": "0", "output_price": "0"}, Problem("input_price", "rule")),
    ],
)
def test_bad_inputs_are_problems(values: dict[str, str], problem: Problem) -> None:
    assert evaluate(CALCULATOR, {**CALCULATOR.defaults(), **values}).problems == (problem,)
