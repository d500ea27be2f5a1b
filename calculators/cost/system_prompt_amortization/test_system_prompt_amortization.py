"""System-prompt amortization: Anthropic's listed cache prices and OpenAI's automatic caching with no write fee."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.system_prompt_amortization import CALCULATOR as AMORTIZATION
from tests.helpers import results_of

_result = results_of(AMORTIZATION)


# Anthropic's pricing table, Claude Opus 4.1 row: $15 base input, $18.75 five-minute cache writes, $30 one-hour
# cache writes, $1.50 cache hits and refreshes, per million tokens.
OPUS_4_1 = {"input_price": "15", "cached_input_price": "1.5"}
FIVE_MINUTES, ONE_HOUR = "18.75", "30"
MILLION = {"system_prompt_tokens": "1000000", "requests_per_day": "1", "month_hours": "720"}


def test_a_lone_request_pays_the_write_price() -> None:
    # One request per write: a million tokens written to the cache cost the listed write price.
    five = _result(requests_per_write="1", cache_write_price=FIVE_MINUTES, **OPUS_4_1, **MILLION)
    assert five["cached_request_cost"] == pytest.approx(18.75)
    assert five["uncached_request_cost"] == pytest.approx(15)
    hour = _result(requests_per_write="1", cache_write_price=ONE_HOUR, **OPUS_4_1, **MILLION)
    assert hour["cached_request_cost"] == pytest.approx(30)
    # 25% more than no cache: the five-minute write premium.
    assert five["savings_percent"] == pytest.approx(-25)


def test_the_reads_approach_the_hit_price() -> None:
    # Cache hits bill at 0.1 times the base input price (the $1.50 of the row): a warm cache saves close to 90%.
    warm = _result(requests_per_write="1000000", cache_write_price=FIVE_MINUTES, **OPUS_4_1, **MILLION)
    assert warm["cached_request_cost"] == pytest.approx(1.5, abs=1e-4)
    assert warm["savings_percent"] == pytest.approx(90, abs=1e-3)


def test_break_even_with_the_listed_multipliers() -> None:
    # (1.25 - 0.1) / (1 - 0.1) ≈ 1.28: two requests per five-minute write already pay; (2 - 0.1) / 0.9 ≈ 2.11
    # for the one-hour cache, so it needs three.
    five = _result(cache_write_price=FIVE_MINUTES, **OPUS_4_1)
    assert five["break_even_requests"] == pytest.approx(1.15 / 0.9)
    assert _result(requests_per_write="2", cache_write_price=FIVE_MINUTES, **OPUS_4_1)["monthly_savings"] > 0
    assert _result(requests_per_write="2", cache_write_price=ONE_HOUR, **OPUS_4_1)["monthly_savings"] < 0
    assert _result(requests_per_write="3", cache_write_price=ONE_HOUR, **OPUS_4_1)["monthly_savings"] > 0


def test_automatic_caching_has_no_write_fee() -> None:
    # OpenAI: caching is automatic, "no additional fees"; the write price entered is not used.
    lone = _result(caching="automatic", requests_per_write="1", cache_write_price="999", **OPUS_4_1, **MILLION)
    assert lone["cached_request_cost"] == pytest.approx(lone["uncached_request_cost"])
    assert lone["monthly_savings"] == pytest.approx(0)
    assert lone["break_even_requests"] == 1


def test_monthly_figures_use_the_chosen_month() -> None:
    result = _result(requests_per_day="1000", month_hours="720", input_price="3", system_prompt_tokens="1000")
    assert result["uncached_monthly_cost"] == pytest.approx(0.003 * 1000 * 30)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("requests_per_write", "0", Problem("requests_per_write", "too_small", Decimal(1))),
        ("caching", "lazy", Problem("caching", "unknown_choice")),
        ("system_prompt_tokens", "lots", Problem("system_prompt_tokens", "not_a_number")),
        ("cached_input_price", "5", Problem("cached_input_price", "rule")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(AMORTIZATION, {**AMORTIZATION.defaults(), name: raw})
    assert result.problems == (problem,)


@pytest.mark.parametrize(("tokens", "minimum"), [(1023, "1024"), (2047, "2048"), (4095, "4096")])
def test_a_prompt_below_the_vendors_minimum_is_not_cached(tokens: int, minimum: str) -> None:
    # Anthropic's prompt-caching guide: "Shorter prompts cannot be cached, even if marked with cache_control"
    # (1,024 tokens for Sonnet 4.5, 2,048 for Sonnet 4.6, 4,096 for Opus 4.5); OpenAI caches 1,024 or more.
    values = {**AMORTIZATION.defaults(), "system_prompt_tokens": str(tokens), "min_cacheable_tokens": minimum}
    short = _result(**values)
    assert short["cached_monthly_cost"] == short["uncached_monthly_cost"] and short["monthly_savings"] == 0
    at_minimum = _result(**{**values, "system_prompt_tokens": minimum})
    assert at_minimum["monthly_savings"] > 0
