"""LLM eval sample size: how many questions an eval needs for a margin of error, or to tell two models apart.

A pass/fail eval's accuracy is a binomial proportion: its standard error is sqrt(p (1 - p) / n) (Miller 2024,
"Adding Error Bars to Evals", https://arxiv.org/abs/2411.00640). For a margin of error E at a confidence of
1 - alpha, n = z²_{1-alpha/2} p (1 - p) / E², rounded up (Cochran, Sampling Techniques, 1977): 385 at 95%, p = 0.5,
E = 0.05. To detect a difference d between two models' accuracies p1 and p2 = p1 + d with a two-sided test at alpha
and power 1 - β, each model needs (Fleiss, Statistical Methods for Rates and Proportions, without continuity
correction; JMP's "Power for Two Independent Sample Proportions" gives 2,554 for 0.08 against 0.06):

    n = (z_{1-alpha/2} sqrt(2 p̄ (1 - p̄)) + z_{1-β} sqrt(p1 (1 - p1) + p2 (1 - p2)))² / d²,    p̄ = (p1 + p2) / 2
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from statistics import NormalDist

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import units

N_, NP_ = messages_of(__name__)

_EVAL = N_("The eval")
_COMPARE = N_("Comparing two models")


def _ceil(x: float) -> float:
    # Rounded first, so that a count that is whole up to float error (384.0000000001) is not taken up to the next.
    return float(math.ceil(round(x, 9)))


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the questions needed for the margin of error, and per model to detect the difference.

    The textbook case, p = 0.5, E = 5 points at 95%: 385 questions. JMP's example, 6% against 8% at alpha = 0.05
    and a power of 80%: 2,554 per model.

    >>> compute({"accuracy": 50, "margin": 5, "confidence": 95, "difference": 2, "power": 80})["margin_questions"]
    385.0
    >>> compute({"accuracy": 6, "margin": 5, "confidence": 95, "difference": 2, "power": 80})["questions_per_model"]
    2554.0
    """
    p1 = values["accuracy"] / 100
    p2 = p1 + values["difference"] / 100
    z_alpha = NormalDist().inv_cdf(0.5 + values["confidence"] / 200)
    z_beta = NormalDist().inv_cdf(values["power"] / 100)
    margin = values["margin"] / 100
    mean = (p1 + p2) / 2
    spread = z_alpha * math.sqrt(2 * mean * (1 - mean)) + z_beta * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    per_model = _ceil(spread**2 / (p2 - p1) ** 2)
    return {
        "margin_questions": _ceil(z_alpha**2 * p1 * (1 - p1) / margin**2),
        "z_alpha": z_alpha,
        "questions_per_model": per_model,
        "total_questions": 2 * per_model,
        "other_accuracy": p2 * 100,
    }


CALCULATOR = Calculator(
    title=N_("LLM eval sample size"),
    summary=N_(
        "How many questions an eval needs to pin an accuracy down to a margin of error, and how many to tell two "
        "models apart with a given power.",
    ),
    inputs=(
        InputSpec(
            name="accuracy",
            kind=Kind.DECIMAL,
            group=_EVAL,
            label=N_("Expected accuracy"),
            help=N_(
                "Your best guess of the model's score before running the eval. 50 is the worst case: it asks for "
                "the most questions.",
            ),
            default="50",
            unit=N_("%"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=3,
        ),
        InputSpec(
            name="margin",
            kind=Kind.DECIMAL,
            group=_EVAL,
            label=N_("Margin of error"),
            help=N_(
                "Half the width of the confidence interval you want around the score: 5 for 70 ± 5 points.",
            ),
            default="5",
            unit=N_("percentage points"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(50),
            fraction_digits=3,
        ),
        InputSpec(
            name="confidence",
            kind=Kind.DECIMAL,
            group=_EVAL,
            label=N_("Confidence level"),
            help=N_(
                "95 for the usual interval. The comparison's two-sided test uses the matching significance level: "
                "5 for 95.",
            ),
            default="95",
            unit=units.PERCENT,
            minimum=Decimal(50),
            maximum=Decimal("99.9999"),
            fraction_digits=4,
        ),
        InputSpec(
            name="difference",
            kind=Kind.DECIMAL,
            group=_COMPARE,
            label=N_("Difference to detect"),
            help=N_(
                "The smallest gain over the expected accuracy worth detecting: 3 for a new model that scores 3 "
                "points higher.",
            ),
            default="3",
            unit=N_("percentage points"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=3,
        ),
        InputSpec(
            name="power",
            kind=Kind.DECIMAL,
            group=_COMPARE,
            label=N_("Power"),
            help=N_(
                "The chance of finding the difference significant when it is real: 80 is customary, 90 safer.",
            ),
            default="80",
            unit=N_("%"),
            minimum=Decimal(50),
            maximum=Decimal("99.99"),
            fraction_digits=2,
        ),
    ),
    outputs=(
        OutputSpec(
            name="margin_questions",
            label=N_("Questions for the margin of error"),
            unit=N_("questions"),
            # Translators: {margin_questions} is a formatted number of questions; {accuracy}, {margin} and
            # {confidence} are as typed (the % sign or "points" follows them).
            sentence=N_(
                "To measure an accuracy near {accuracy}% (± {margin} points, at a confidence of {confidence}%), "
                "the eval needs {margin_questions} independent questions.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="questions_per_model",
            label=N_("Questions per model to detect the difference"),
            unit=N_("questions"),
            # Translators: {questions_per_model} and {total_questions} are formatted numbers of questions;
            # {accuracy}, {other_accuracy} and {power} are percentages (the % sign follows them).
            sentence=N_(
                "To tell the two accuracies apart ({accuracy}%, {other_accuracy}%) with a power of {power}%, "
                "each model needs {questions_per_model} questions of its own, {total_questions} in all, if the two "
                "samples are independent.",
            ),
            fraction_digits=0,
            exact=True,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"n = \left\lceil \frac{z_{1-\alpha/2}^2\, p\,(1 - p)}{E^2} \right\rceil",
        r"n = \left\lceil \frac{\left(z_{1-\alpha/2}\sqrt{2\bar p(1-\bar p)} + "
        r"z_{1-\beta}\sqrt{p_1(1-p_1) + p_2(1-p_2)}\right)^2}{(p_2 - p_1)^2} \right\rceil",
    ),
    related=("ab-test-significance", "pass-at-k", "perplexity"),
    rules=(
        Rule(
            "difference",
            lambda values: values["accuracy"] + values["difference"] < 100,
            # Translators: {accuracy} and {difference} are numbers as the reader typed them.
            N_(
                "The expected accuracy ({accuracy}) plus the difference ({difference}) must stay below 100.",
            ),
        ),
    ),
)
