"""Text-to-speech cost: the vendors' prices per million characters."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.tts_cost import CALCULATOR as TTS_COST
from tests.helpers import results_of

_result = results_of(TTS_COST)


@pytest.mark.parametrize(
    ("price", "printed"),
    [
        ("15", 15.0),  # OpenAI TTS-1 model page: "Cost / 1M characters $15.00"
        ("30", 30.0),  # the same page's comparison: TTS-1 HD $30.00
        ("4.2", 4.2),  # xAI text to speech: "$4.20 / 1M characters"
    ],
)
def test_a_million_characters_cost_the_printed_price(price: str, printed: float) -> None:
    assert _result(characters="1000000", price_per_million_characters=price)["total_cost"] == pytest.approx(printed)


def test_price_per_thousand_characters() -> None:
    # $15 per million characters is $0.015 per 1,000, the unit other vendors print.
    assert _result(price_per_million_characters="15")["price_per_thousand"] == pytest.approx(0.015)


def test_cost_is_linear_in_the_characters() -> None:
    assert _result(characters="250000", price_per_million_characters="15")["total_cost"] == pytest.approx(3.75)
    assert _result(characters="0")["total_cost"] == 0


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("characters", "-1", Problem("characters", "too_small", Decimal(0))),
        ("characters", "1.5", Problem("characters", "not_whole")),
        ("price_per_million_characters", "free", Problem("price_per_million_characters", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(TTS_COST, {**TTS_COST.defaults(), name: raw})
    assert result.problems == (problem,)
