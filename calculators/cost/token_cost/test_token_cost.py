"""Token cost: the vendors' prices per million tokens, applied to a request's input, cache hits and output."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.cost.token_cost import CALCULATOR as TOKEN_COST
from tests.helpers import GPT_6_2_SOL, results_of

_result = results_of(TOKEN_COST)


def test_a_million_tokens_cost_the_price_per_million() -> None:
    # Anthropic's pricing table, Claude Opus 4.1 row: $15 / MTok input, $1.50 cache hits, $75 output.
    opus = {"input_price": "15", "cached_input_price": "1.5", "output_price": "75", "requests": "1"}
    assert _result(input_tokens="1000000", output_tokens="0", **opus)["request_cost"] == pytest.approx(15)
    cached = _result(input_tokens="1000000", cached_tokens="1000000", output_tokens="0", **opus)
    assert cached["request_cost"] == pytest.approx(1.5)
    assert _result(input_tokens="0", output_tokens="1000000", **opus)["request_cost"] == pytest.approx(75)


SOL = {**GPT_6_2_SOL, "requests": "1"}


def test_a_request_past_the_long_context_threshold_bills_whole_at_the_long_context_prices() -> None:
    # 300K input (100K cached) and 2K output: 200,000 × 4 + 100,000 × 0.2 + 2,000 × 15, per million = 0.85.
    long = _result(input_tokens="300000", cached_tokens="100000", output_tokens="2000", **SOL)
    assert long["request_cost"] == pytest.approx(0.8 + 0.02 + 0.03)
    # 272K is not more than 272K: the short-context prices, 172,000 × 2 + 100,000 × 0.1 + 2,000 × 10.
    at = _result(input_tokens="272000", cached_tokens="100000", output_tokens="2000", **SOL)
    assert at["request_cost"] == pytest.approx(0.344 + 0.01 + 0.02)


def test_a_request_of_input_and_output() -> None:
    # 2,000 in at 2.50 and 500 out at 10 per million: 0.005 + 0.005.
    result = _result(input_tokens="2000", output_tokens="500", input_price="2.5", output_price="10")
    assert result["request_cost"] == pytest.approx(0.01)
    assert result["total_cost"] == pytest.approx(10)
    assert result["output_share"] == pytest.approx(50)


def test_cache_hits_bill_at_the_cached_price() -> None:
    result = _result(
        input_tokens="2000",
        cached_tokens="1500",
        output_tokens="0",
        input_price="3",
        cached_input_price="0.3",
    )
    assert result["request_cost"] == pytest.approx((500 * 3 + 1500 * 0.3) / 1e6)


def test_money_is_written_with_the_currency_code(kits: dict[str, LocaleKit]) -> None:
    values = {"input_tokens": "2000", "output_tokens": "500", "input_price": "2.5", "output_price": "10"}
    english = make_report(TOKEN_COST, {**TOKEN_COST.defaults(), **values}, kits["en"])
    assert english.results[0].value == "USD\u00a00.01"
    assert "USD\u00a010.00: USD\u00a05.00 for input" in english.results[1].sentence
    german = make_report(TOKEN_COST, {**TOKEN_COST.defaults(), **values, "currency": "EUR"}, kits["de"])
    assert german.results[1].value == "10,00\u00a0EUR"


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("input_tokens", "-1", Problem("input_tokens", "too_small", Decimal(0))),
        ("input_price", "free", Problem("input_price", "not_a_number")),
        ("currency", "XYZ", Problem("currency", "unknown_choice")),
        ("cached_tokens", "3000", Problem("cached_tokens", "rule")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(TOKEN_COST, {**TOKEN_COST.defaults(), name: raw})
    assert result.problems == (problem,)
