"""Prompt caching savings: the write and hit prices the vendors print, and both caching conventions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.prompt_caching_savings import CALCULATOR
from tests.helpers import results_of

_result = results_of(CALCULATOR)


MILLION = {"prefix_tokens": "1000000", "calls": "1"}


@pytest.mark.parametrize(("caching", "write"), [("explicit-5m", 18.75), ("explicit-1h", 30.0), ("automatic", 15.0)])
def test_anthropic_write_prices(caching: str, write: float) -> None:
    # Anthropic's pricing table, Claude Opus 4.1: $15 base input, $18.75 5m cache writes, $30 1h cache writes.
    # Automatic caching has no write fee: the first call pays the input price.
    result = _result(**MILLION, caching=caching, input_price="15", cached_input_price="1.5")
    assert result["write_cost"] == pytest.approx(write)


def test_hits_bill_at_the_cached_price() -> None:
    # Claude Opus 4.1's "Cache hits" column: $1.50 per MTok; two calls pay one write and one hit.
    result = _result(prefix_tokens="1000000", calls="2", input_price="15", cached_input_price="1.5")
    assert result["read_cost"] == pytest.approx(1.5)
    assert result["cached_cost"] == pytest.approx(18.75 + 1.5)
    assert result["uncached_cost"] == pytest.approx(30)


def test_openai_cache_write_price() -> None:
    # OpenAI's GPT-6.2 Sol page: input $2.00, cache writes $2.50 (1.25 times), cached input $0.10.
    result = _result(**MILLION, caching="explicit-5m", input_price="2", cached_input_price="0.1")
    assert result["write_cost"] == pytest.approx(2.5)


@pytest.mark.parametrize(("caching", "calls"), [("explicit-5m", 2), ("explicit-1h", 3), ("automatic", 2)])
def test_break_even(caching: str, calls: int) -> None:
    result = _result(caching=caching, input_price="15", cached_input_price="1.5")
    assert result["break_even_calls"] == calls
    below = _result(caching=caching, calls=str(calls - 1), input_price="15", cached_input_price="1.5")
    assert below["savings"] <= 0
    at = _result(caching=caching, calls=str(calls), input_price="15", cached_input_price="1.5")
    assert at["savings"] > 0


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"calls": "0"}, Problem("calls", "too_small", Decimal(1))),
        ({"caching": "forever"}, Problem("caching", "unknown_choice")),
        ({"cached_input_price": "9"}, Problem("cached_input_price", "rule")),
    ],
)
def test_bad_inputs_are_problems(values: dict[str, str], problem: Problem) -> None:
    assert evaluate(CALCULATOR, {**CALCULATOR.defaults(), **values}).problems == (problem,)
