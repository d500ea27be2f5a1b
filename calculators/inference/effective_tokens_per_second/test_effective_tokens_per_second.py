"""Effective tokens per second: Databricks' and NVIDIA's definitions and examples."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.inference.effective_tokens_per_second import CALCULATOR as EFFECTIVE
from tests.helpers import results_of

_result = results_of(EFFECTIVE)


def test_databricks_decode_example() -> None:
    # Databricks: "a TPOT of 100 milliseconds/tok would be 10 tokens per second per user, or ~450 words per minute".
    result = _result(tpot_ms="100", words_per_token="0.75")
    assert result["decode_tps"] == pytest.approx(10)
    assert result["words_per_minute"] == pytest.approx(450)


def test_databricks_latency() -> None:
    # latency = TTFT + TPOT × (number of tokens to be generated): 0.5 s + 200 × 20 ms = 4.5 s.
    result = _result(output_tokens="200", ttft_ms="500", tpot_ms="20", intervals="n")
    assert result["total_seconds"] == pytest.approx(4.5)
    assert result["effective_tps"] == pytest.approx(200 / 4.5)
    assert result["decode_tps"] == pytest.approx(50)


def test_nvidia_counts_the_intervals_after_the_first_token() -> None:
    # NVIDIA's inter-token latency is (e2e latency - TTFT) / (output tokens - 1): e2e = TTFT + (n - 1) × ITL.
    result = _result(output_tokens="200", ttft_ms="500", tpot_ms="20", intervals="n-1")
    assert result["total_seconds"] == pytest.approx(4.48)
    assert _result(output_tokens="1", ttft_ms="300", intervals="n-1")["total_seconds"] == pytest.approx(0.3)


def test_network_overhead_adds_once() -> None:
    result = _result(output_tokens="200", ttft_ms="500", tpot_ms="20", network_ms="100")
    assert result["total_seconds"] == pytest.approx(4.6)
    assert result["wait_share"] == pytest.approx(100 * 0.6 / 4.6)


def test_a_speed_needs_time_and_tokens() -> None:
    assert not evaluate(EFFECTIVE, {**EFFECTIVE.defaults(), "output_tokens": "0"}).ok
    zero = {"output_tokens": "1", "ttft_ms": "0", "network_ms": "0", "intervals": "n-1"}
    assert not evaluate(EFFECTIVE, {**EFFECTIVE.defaults(), **zero}).ok


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("tpot_ms", "0", Problem("tpot_ms", "too_small", Decimal(0), exclusive=True)),
        ("intervals", "n+1", Problem("intervals", "unknown_choice")),
        ("ttft_ms", "soon", Problem("ttft_ms", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(EFFECTIVE, {**EFFECTIVE.defaults(), name: raw})
    assert result.problems == (problem,)
