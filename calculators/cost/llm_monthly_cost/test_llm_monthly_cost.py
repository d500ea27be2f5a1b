"""LLM monthly cost: a day's requests at the vendors' prices, over the month length the reader chose."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.llm_monthly_cost import CALCULATOR
from tests.helpers import GPT_6_2_SOL

# Anthropic's pricing table, Claude Opus 4.1: $15 / MTok input, $1.50 cache hits, $75 output.
OPUS = {"input_price": "15", "cached_input_price": "1.5", "output_price": "75"}


def _result(**values: str) -> dict[str, float]:
    result = evaluate(CALCULATOR, {**CALCULATOR.defaults(), **OPUS, **values})
    assert result.ok, result.problems
    return dict(result.results)


def test_a_million_tokens_a_day_for_a_month() -> None:
    day = {"requests_per_day": "1", "input_tokens": "1000000", "output_tokens": "0"}
    assert _result(**day, month_hours="720")["monthly_cost"] == pytest.approx(15 * 30)
    # 730 hours: 8,760 hours a year over twelve months, 30.42 days.
    assert _result(**day, month_hours="730")["monthly_cost"] == pytest.approx(15 * 730 / 24)
    assert _result(**day, month_hours="730")["yearly_cost"] == pytest.approx(15 * 365)


def test_cache_hits_and_output_bill_at_their_prices() -> None:
    hits = _result(requests_per_day="1", input_tokens="1000000", output_tokens="0", cache_hit_share="100")
    assert hits["request_cost"] == pytest.approx(1.5)
    output = _result(requests_per_day="1", input_tokens="0", output_tokens="1000000")
    assert output["request_cost"] == pytest.approx(75)
    assert output["daily_cost"] == pytest.approx(75)


def test_requests_past_the_long_context_threshold_bill_at_its_prices() -> None:
    # OpenAI's GPT-6.2 Sol page: 2.00 in, 10.00 out per million; above 272K input tokens, twice the input rate and
    # 1.5 times the output rate for the full request. 100 requests a day of 400K in and 4K out, 30 days:
    # (400,000 × 4 + 4,000 × 15) / 10⁶ = 1.66 a request, 166 a day, 4,980 a month.
    sol = GPT_6_2_SOL
    long = _result(requests_per_day="100", input_tokens="400000", output_tokens="4000", month_hours="720", **sol)
    assert long["request_cost"] == pytest.approx(1.66)
    assert long["monthly_cost"] == pytest.approx(4980)
    # Below the threshold the short-context prices: (200,000 × 2 + 4,000 × 10) / 10⁶ = 0.44.
    short = _result(requests_per_day="100", input_tokens="200000", output_tokens="4000", **sol)
    assert short["request_cost"] == pytest.approx(0.44)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("requests_per_day", "-1", Problem("requests_per_day", "too_small", Decimal(0))),
        ("cache_hit_share", "120", Problem("cache_hit_share", "too_large", Decimal(100))),
        ("month_hours", "744", Problem("month_hours", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(CALCULATOR, {**CALCULATOR.defaults(), name: raw}).problems == (problem,)


def test_requests_sent_as_batches_bill_at_the_batch_discount() -> None:
    # Anthropic's batch table, Claude Opus 4.1: $7.50 and $37.50 per million against $15 and $75; cache hits
    # stack with the discount. Half the requests as batches at 50% off: three quarters of the bill.
    usage = {"requests_per_day": "1000", "input_tokens": "20000", "output_tokens": "800", "cache_hit_share": "60"}
    full = _result(**usage)
    assert _result(**usage, batch_share="100", batch_discount="50")["monthly_cost"] == pytest.approx(
        full["monthly_cost"] / 2
    )
    assert _result(**usage, batch_share="50", batch_discount="50")["monthly_cost"] == pytest.approx(
        full["monthly_cost"] * 0.75
    )
    # An old link has no batch share: nothing changes, whatever the discount.
    assert _result(**usage, batch_discount="50")["monthly_cost"] == full["monthly_cost"]


def test_the_service_tier_prices_the_requests_not_sent_as_batches() -> None:
    # OpenAI's pricing page: flex at half the standard price, priority at twice it on GPT-6 Luna.
    usage = {"requests_per_day": "500", "input_tokens": "8000", "output_tokens": "400", "cache_hit_share": "50"}
    full = _result(**usage)["monthly_cost"]
    assert _result(**usage, service_tier="flex", flex_percent="50")["monthly_cost"] == pytest.approx(full / 2)
    assert _result(**usage, service_tier="priority", priority_percent="200")["monthly_cost"] == pytest.approx(2 * full)
    # A quarter as batches at 50% off, the rest on priority at 180%: 0.25 × 0.5 + 0.75 × 1.8 = 1.475.
    mixed = _result(**usage, batch_share="25", batch_discount="50", service_tier="priority", priority_percent="180")
    assert mixed["monthly_cost"] == pytest.approx(1.475 * full)
    # The tiers' prices change nothing on the standard tier, the default (so every older link keeps its result).
    assert _result(**usage, flex_percent="10", priority_percent="900")["monthly_cost"] == full
