"""Speculative decoding: the numbers Leviathan, Kalman and Matias (2023) print."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.inference.speculative_decoding import CALCULATOR as SPECULATIVE
from tests.helpers import results_of

_result = results_of(SPECULATIVE)


@pytest.mark.parametrize(
    ("alpha", "gamma", "speed", "operations"),
    [
        # Table 1 (c = c_ops = 0): alpha 0.8, gamma 5 → 3.69X speed, 1.63X ops; alpha 0.9, gamma 10 → 6.86X, 1.60X.
        ("0.8", "5", 3.69, 1.63),
        ("0.9", "10", 6.86, 1.60),
    ],
)
def test_table_1(alpha: str, gamma: str, speed: float, operations: float) -> None:
    result = _result(acceptance_rate=alpha, draft_tokens=gamma, cost_ratio="0", ops_ratio="0")
    assert result["speedup"] == pytest.approx(speed, abs=0.005)
    assert result["operations_factor"] == pytest.approx(operations, abs=0.005)


@pytest.mark.parametrize(
    ("alpha", "printed"),
    # Appendix A.5: T5-small drafting for T5-XXL, c = 0.015 and gamma = 8: 3.3X, 3.3X, 3.9X and 4.9X.
    [("0.75", 3.3), ("0.8", 3.9), ("0.87", 4.9)],
)
def test_t5_walltime_improvements(alpha: str, printed: float) -> None:
    result = _result(acceptance_rate=alpha, draft_tokens="8", cost_ratio="0.015")
    assert result["speedup"] == pytest.approx(printed, abs=0.05)


def test_bigram_draft() -> None:
    # §4.2: a bigram draft, alpha ≈ 0.2 at c ≈ 0 with gamma = 3: "1.25X".
    assert _result(acceptance_rate="0.2", draft_tokens="3", cost_ratio="0")["speedup"] == pytest.approx(1.25, abs=0.005)


def test_corollary_3_9_at_one_draft_token() -> None:
    # With gamma = 1 the improvement is (1 + alpha) / (1 + c).
    assert _result(acceptance_rate="0.6", draft_tokens="1", cost_ratio="0.1")["speedup"] == pytest.approx(1.6 / 1.1)


def test_full_acceptance_is_the_limit() -> None:
    # alpha = 1: E = gamma + 1 without a division by zero, S = (gamma + 1) / (gammac + 1).
    result = _result(acceptance_rate="1", draft_tokens="4", cost_ratio="0.25")
    assert result["expected_tokens"] == 5
    assert result["speedup"] == pytest.approx(2.5)
    assert result["operations_factor"] == pytest.approx(1)


def test_best_draft_length() -> None:
    # With a costly draft a short draft wins; with a free one the search ends at its upper bound.
    assert _result(acceptance_rate="0.5", cost_ratio="0.5")["best_draft_tokens"] == 1
    assert _result(acceptance_rate="0.8", cost_ratio="0.05")["best_draft_tokens"] > 1
    assert _result(acceptance_rate="1", cost_ratio="0")["best_draft_tokens"] == 100


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("acceptance_rate", "1.5", Problem("acceptance_rate", "too_large", Decimal(1))),
        ("draft_tokens", "0", Problem("draft_tokens", "too_small", Decimal(1))),
        ("cost_ratio", "-1", Problem("cost_ratio", "too_small", Decimal(0))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(SPECULATIVE, {**SPECULATIVE.defaults(), name: raw})
    assert result.problems == (problem,)
