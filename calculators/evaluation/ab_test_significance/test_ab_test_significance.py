"""A/B test significance: statsmodels' pinned two-proportion z-test, NIST's pooled statistic, the Wald interval."""

from __future__ import annotations

import gettext
import math
from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.evaluation.ab_test_significance import CALCULATOR as AB
from tests.helpers import results_of

_result = results_of(AB)


def test_statsmodels_proportions_ztest() -> None:
    # statsmodels stats/tests/test_proportion.py (GH 2969): proportions_ztest(count=[5, 12], nobs=[83, 99])
    # gives stat -1.4078304151258787 and p-value 0.15918129181156992; its docstring prints 0.159. Our z is B - A.
    result = _result(successes_a="5", trials_a="83", successes_b="12", trials_b="99")
    assert result["z"] == pytest.approx(1.4078304151258787, rel=1e-12)
    assert result["p_value"] == pytest.approx(0.15918129181156992, rel=1e-12)


def test_the_interval_is_unpooled() -> None:
    # 200/1000 against 250/1000 at 95%: Wald interval 5 ± 1.959964 × sqrt(0.2·0.8/1000 + 0.25·0.75/1000) points.
    result = _result()
    half = 1.959963984540054 * math.sqrt(0.2 * 0.8 / 1000 + 0.25 * 0.75 / 1000) * 100
    assert result["difference"] == pytest.approx(5)
    assert (result["ci_low"], result["ci_high"]) == pytest.approx((5 - half, 5 + half))
    assert result["z"] == pytest.approx(2.6774, abs=1e-4)


def test_more_successes_than_trials_is_refused() -> None:
    result = evaluate(AB, {**AB.defaults(), "successes_a": "1001"})
    assert not result.ok
    assert [problem.name for problem in result.problems] == ["successes_a"]


def test_no_success_at_all_is_refused() -> None:
    assert not evaluate(AB, {**AB.defaults(), "successes_a": "0", "successes_b": "0"}).ok


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("trials_a", "0", Problem("trials_a", "too_small", Decimal(1))),
        ("successes_b", "2.5", Problem("successes_b", "not_whole")),
        ("confidence", "100", Problem("confidence", "too_large", Decimal("99.9999"))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(AB, {**AB.defaults(), name: raw}).problems == (problem,)


def test_each_end_of_the_interval_is_its_own_result() -> None:
    # One figure labelled "Confidence interval" was only the lower end: with a negative one it read like the effect.
    from calculators import LocaleKit, make_report
    from calculators.kernel.numbers import PLAIN

    kit = LocaleKit(gettext.NullTranslations(), PLAIN)
    report = make_report(AB, AB.defaults(), kit)
    shown = {result.name: result for result in report.results}
    labels = {spec.name: spec.label.text for spec in AB.outputs}
    assert labels["ci_low"].startswith("Lower end") and labels["ci_high"].startswith("Upper end")
    assert shown["ci_low"].value != shown["ci_high"].value and shown["ci_high"].value in shown["ci_high"].sentence
