"""pass@k: Hugging Face's code_eval example, the combinatorial definition written out, and the rules on n, c, k."""

from __future__ import annotations

from decimal import Decimal
from math import comb

import pytest

from calculators import Problem, evaluate
from calculators.evaluation.pass_at_k import CALCULATOR as PASS
from calculators.evaluation.pass_at_k import estimate
from tests.helpers import results_of

_result = results_of(PASS)


def test_code_eval_example() -> None:
    # Hugging Face code_eval: one correct candidate of two prints {'pass@1': 0.5, 'pass@2': 1.0}.
    assert _result(samples="2", correct="1", k="1")["pass_at_k"] == pytest.approx(50)
    assert _result(samples="2", correct="1", k="2")["pass_at_k"] == pytest.approx(100)


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        # 1 - C(n - c, k) / C(n, k), written out: C(4, 2)/C(5, 2) = 6/10; C(7, 5)/C(10, 5) = 21/252.
        (5, 1, 2, 1 - 6 / 10),
        (10, 3, 5, 1 - 21 / 252),
        (200, 10, 1, 10 / 200),
    ],
)
def test_small_cases_from_the_definition(n: int, c: int, k: int, expected: float) -> None:
    assert estimate(n, c, k) == pytest.approx(expected, rel=1e-12)


def test_the_product_form_matches_the_binomials_for_large_n() -> None:
    # The Codex paper's setting: n = 200 samples, pass@10 and pass@100, against exact integer binomials.
    for k in (10, 100):
        assert estimate(200, 10, k) == pytest.approx(1 - comb(190, k) / comb(200, k), rel=1e-12)


def test_edges() -> None:
    assert _result(samples="100", correct="0", k="10")["pass_at_k"] == 0
    assert _result(samples="10", correct="8", k="3")["pass_at_k"] == 100


def test_rules() -> None:
    assert [p.name for p in evaluate(PASS, {**PASS.defaults(), "correct": "201"}).problems] == ["correct"]
    assert [p.name for p in evaluate(PASS, {**PASS.defaults(), "k": "201"}).problems] == ["k"]


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("samples", "0", Problem("samples", "too_small", Decimal(1))),
        ("k", "1.5", Problem("k", "not_whole")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(PASS, {**PASS.defaults(), name: raw}).problems == (problem,)
