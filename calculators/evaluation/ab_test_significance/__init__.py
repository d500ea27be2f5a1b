"""A/B test significance: the two-proportion z-test and the confidence interval of the difference.

NIST's Dataplot reference, "Binomial proportion test"
(https://www.itl.nist.gov/div898/software/dataplot/refman1/auxillar/binotest.htm), gives the test of H0: p1 = p2
with the pooled proportion p = (x1 + x2) / (n1 + n2):

    z = (p̂_B - p̂_A) / sqrt(p (1 - p) (1/n_A + 1/n_B)),    two-sided p-value = 2 Φ(-|z|)

The confidence interval of the difference does not assume H0, so it takes the unpooled (Wald) standard error,
sqrt(p̂_A (1 - p̂_A)/n_A + p̂_B (1 - p̂_B)/n_B), as statsmodels' `confint_proportions_2indep(method="wald")` does.
statsmodels' own test suite pins `proportions_ztest(count=[5, 12], nobs=[83, 99])` at z = -1.4078304151258787,
p = 0.15918129181156992.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from statistics import NormalDist

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import units

N_, NP_ = messages_of(__name__)

_A = N_("Variant A (control)")
_B = N_("Variant B")
_TEST = N_("Test")
_LARGEST = Decimal(10**12)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return both rates, their difference, z, the two-sided p-value and the confidence interval, in percent.

    statsmodels' test case, 5 of 83 against 12 of 99: z = 1.4078 (B minus A), p = 0.1592.

    >>> result = compute({"successes_a": 5, "trials_a": 83, "successes_b": 12, "trials_b": 99, "confidence": 95})
    >>> round(result["z"], 10), round(result["p_value"], 10)
    (1.4078304151, 0.1591812918)
    """
    n_a, n_b = values["trials_a"], values["trials_b"]
    rate_a, rate_b = values["successes_a"] / n_a, values["successes_b"] / n_b
    pooled = (values["successes_a"] + values["successes_b"]) / (n_a + n_b)
    z = (rate_b - rate_a) / math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    unpooled = math.sqrt(rate_a * (1 - rate_a) / n_a + rate_b * (1 - rate_b) / n_b)
    z_star = NormalDist().inv_cdf(0.5 + values["confidence"] / 200)
    difference = rate_b - rate_a
    return {
        "rate_a": rate_a * 100,
        "rate_b": rate_b * 100,
        "difference": difference * 100,
        "z": z,
        # 2 Φ(-|z|) = erfc(|z| / √2), from erfc itself: exact far into the tail, where NormalDist.cdf rounds
        # to 0 on the build's CPython but not on Pyodide's, and prerendered and live pages would disagree.
        "p_value": math.erfc(abs(z) / math.sqrt(2)),
        "ci_low": (difference - z_star * unpooled) * 100,
        "ci_high": (difference + z_star * unpooled) * 100,
    }


CALCULATOR = Calculator(
    title=N_("A/B test significance"),
    summary=N_(
        "Is variant B's success rate really different from A's? The two-proportion z-test, its two-sided "
        "p-value and the confidence interval of the difference.",
    ),
    inputs=(
        InputSpec(
            name="successes_a",
            kind=Kind.INTEGER,
            group=_A,
            label=N_("Successes in A"),
            help=N_(
                "Conversions, correct answers or thumbs-up in variant A: the trials that count as a success.",
            ),
            default="200",
            minimum=Decimal(0),
            maximum=_LARGEST,
            fraction_digits=0,
        ),
        InputSpec(
            name="trials_a",
            kind=Kind.INTEGER,
            group=_A,
            label=N_("Trials in A"),
            help=N_("Visitors, prompts or questions variant A was shown."),
            default="1000",
            minimum=Decimal(1),
            maximum=_LARGEST,
            fraction_digits=0,
        ),
        InputSpec(
            name="successes_b",
            kind=Kind.INTEGER,
            group=_B,
            label=N_("Successes in B"),
            help=N_("The trials of variant B that count as a success."),
            default="250",
            minimum=Decimal(0),
            maximum=_LARGEST,
            fraction_digits=0,
        ),
        InputSpec(
            name="trials_b",
            kind=Kind.INTEGER,
            group=_B,
            label=N_("Trials in B"),
            help=N_("Visitors, prompts or questions variant B was shown."),
            default="1000",
            minimum=Decimal(1),
            maximum=_LARGEST,
            fraction_digits=0,
        ),
        InputSpec(
            name="confidence",
            kind=Kind.DECIMAL,
            group=_TEST,
            label=N_("Confidence level of the interval"),
            help=N_(
                "95 for the usual interval; the test is significant at the level 1 minus this exactly when the "
                "p-value is below it.",
            ),
            default="95",
            unit=units.PERCENT,
            minimum=Decimal(50),
            maximum=Decimal("99.9999"),
            fraction_digits=4,
        ),
    ),
    outputs=(
        OutputSpec(
            name="difference",
            label=N_("Difference, B minus A"),
            unit=N_("percentage points"),
            # Translators: {rate_a}, {rate_b} are formatted percentages, {difference} a difference in percentage
            # points; the % sign follows each placeholder.
            sentence=N_(
                "Success rates: B {rate_b}%, A {rate_a}%; a difference of {difference} percentage points.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="z",
            label=N_("z statistic (pooled)"),
            # Translators: {z} is a formatted number.
            sentence=N_(
                "With the pooled standard error of the test, z = {z}.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="p_value",
            label=N_("Two-sided p-value"),
            # Translators: {p_value} is a formatted probability between 0 and 1.
            sentence=N_(
                "If A and B had the same success rate, a difference at least this large, either way, would "
                "come up with probability {p_value}.",
            ),
            fraction_digits=8,
        ),
        # Each end of the interval is its own result: one figure labelled "confidence interval" was only its lower
        # end, and a negative one read like the effect.
        OutputSpec(
            name="ci_low",
            label=N_("Lower end of the confidence interval"),
            unit=N_("percentage points"),
            # Translators: {confidence} is the confidence level as typed (the % sign follows it); {ci_low} and
            # {ci_high} are differences in percentage points.
            sentence=N_(
                "Interval at a confidence of {confidence}%, with the unpooled standard error: from {ci_low} to "
                "{ci_high} percentage points.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="ci_high",
            label=N_("Upper end of the confidence interval"),
            unit=N_("percentage points"),
            # Translators: {ci_high} and {ci_low} are differences in percentage points; {confidence} the confidence
            # level as typed (the % sign follows it).
            sentence=N_(
                "At a confidence of {confidence}%, B minus A is at most {ci_high} percentage points, and at least "
                "{ci_low}.",
            ),
            fraction_digits=3,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"z = \frac{\hat p_B - \hat p_A}{\sqrt{\hat p\,(1 - \hat p)\left(\frac{1}{n_A} + \frac{1}{n_B}\right)}}, "
        r"\quad \hat p = \frac{x_A + x_B}{n_A + n_B}, \quad p = 2\,\Phi(-|z|)",
        r"\hat p_B - \hat p_A \pm z_{1 - \alpha/2} \sqrt{\frac{\hat p_A (1 - \hat p_A)}{n_A} + "
        r"\frac{\hat p_B (1 - \hat p_B)}{n_B}}",
    ),
    related=("llm-eval-sample-size", "pass-at-k", "perplexity"),
    rules=(
        Rule(
            "successes_a",
            lambda values: values["successes_a"] <= values["trials_a"],
            # Translators: {successes_a} and {trials_a} are numbers as the reader typed them.
            N_("A cannot have more successes ({successes_a}) than trials ({trials_a})."),
        ),
        Rule(
            "successes_b",
            lambda values: values["successes_b"] <= values["trials_b"],
            # Translators: {successes_b} and {trials_b} are numbers as the reader typed them.
            N_("B cannot have more successes ({successes_b}) than trials ({trials_b})."),
        ),
        Rule(
            "successes_b",
            lambda values: 0 < values["successes_a"] + values["successes_b"] < values["trials_a"] + values["trials_b"],
            N_(
                "The test needs at least one success and one failure across A and B together.",
            ),
        ),
    ),
)
