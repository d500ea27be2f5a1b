"""LLM eval sample size: the textbook 385, JMP's two-proportion example, and the rule on the difference."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.evaluation.llm_eval_sample_size import CALCULATOR as SIZE
from tests.helpers import results_of

_result = results_of(SIZE)


@pytest.mark.parametrize(
    ("accuracy", "margin", "questions"),
    [
        # The classic survey figure: p = 0.5, E = 5 points at 95%, 384.16 rounded up to 385; E = 3 points: 1,068.
        ("50", "5", 385),
        ("50", "3", 1068),
    ],
)
def test_margin_of_error_textbook_values(accuracy: str, margin: str, questions: int) -> None:
    assert _result(accuracy=accuracy, margin=margin)["margin_questions"] == questions


def test_jmp_two_sample_proportions_example() -> None:
    # JMP 13 help, "Two Sample Proportions": proportions 0.08 and 0.06, alpha 0.05 two-sided, power 0.8 -> 2554.
    assert _result(accuracy="6", difference="2", power="80")["questions_per_model"] == 2554


def test_the_other_accuracy_must_stay_below_100() -> None:
    result = evaluate(SIZE, {**SIZE.defaults(), "accuracy": "98", "difference": "2"})
    assert [problem.name for problem in result.problems] == ["difference"]


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("margin", "0", Problem("margin", "too_small", Decimal(0), exclusive=True)),
        ("power", "40", Problem("power", "too_small", Decimal(50))),
        ("accuracy", "x", Problem("accuracy", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(SIZE, {**SIZE.defaults(), name: raw}).problems == (problem,)
