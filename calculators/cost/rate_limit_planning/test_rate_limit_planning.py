"""Rate-limit planning: Little's law as MathWorld prints it, and TPM counted as OpenAI's cookbook counts it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.rate_limit_planning import CALCULATOR as LIMITS
from calculators.cost.rate_limit_planning import little
from tests.helpers import results_of

_result = results_of(LIMITS)


def test_little_s_law_as_mathworld_prints_it() -> None:
    # MathWorld, "Little's Law": a college admitting 6,000 students a year, each staying 2 years, has 12,000.
    assert little(6000, 2) == 12000


def test_the_output_limit_counts_against_tpm_for_every_completion() -> None:
    # OpenAI cookbook, api_request_parallel_processor.py: tokens = prompt tokens + n × max_tokens.
    result = _result(prompt_tokens="2000", max_tokens="1000", completions="3")
    assert result["counted_tokens"] == 5000


def test_the_smaller_limit_binds() -> None:
    rpm_bound = _result(headroom="100")  # TPM allows 2,000,000 / 3,000 = 666.7 a minute; RPM 600
    assert rpm_bound["planned_rpm"] == pytest.approx(600)
    assert rpm_bound["in_flight"] == pytest.approx(80)
    assert rpm_bound["users"] == pytest.approx(300)
    tpm_bound = _result(headroom="100", tpm_limit="300000")
    assert tpm_bound["planned_rpm"] == pytest.approx(100)


def test_headroom_scales_the_plan() -> None:
    assert _result()["planned_rpm"] == pytest.approx(480)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("rpm_limit", "0", Problem("rpm_limit", "too_small", Decimal(0), exclusive=True)),
        ("headroom", "150", Problem("headroom", "too_large", Decimal(100))),
        ("completions", "0", Problem("completions", "too_small", Decimal(1))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(LIMITS, {**LIMITS.defaults(), name: raw}).problems == (problem,)


def test_a_request_of_no_tokens_is_bounded_by_rpm_alone() -> None:
    assert _result(prompt_tokens="0", max_tokens="0", headroom="100")["planned_rpm"] == pytest.approx(600)
