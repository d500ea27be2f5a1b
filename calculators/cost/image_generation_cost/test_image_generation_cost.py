"""Image generation cost: OpenAI's output-token table reproduces its per-image price table."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.image_generation_cost import CALCULATOR as IMAGE_COST
from tests.helpers import results_of

_result = results_of(IMAGE_COST)


# OpenAI's image-generation guide: gpt-image-1's per-image prices, "Calculating costs" (rounded as printed).
PRINTED = {
    "low-1024x1024": 0.011,
    "low-1024x1536": 0.016,
    "low-1536x1024": 0.016,
    "medium-1024x1024": 0.042,
    "medium-1024x1536": 0.063,
    "medium-1536x1024": 0.063,
    "high-1024x1024": 0.167,
    "high-1024x1536": 0.25,
    "high-1536x1024": 0.25,
}


@pytest.mark.parametrize(("quality_size", "printed"), PRINTED.items())
def test_tokens_reproduce_the_per_image_table(quality_size: str, printed: float) -> None:
    # The guide's output tokens (4,160 for high 1024×1024) at 40 per million: 0.1664, printed 0.167.
    tokens = {"billing": "tokens", "quality_size": quality_size, "prompt_tokens": "0", "image_output_price": "40"}
    result = _result(images="1", **tokens)
    assert result["image_cost"] == pytest.approx(printed, abs=0.002)


def test_the_high_square_image_exactly() -> None:
    result = _result(images="1000", billing="tokens", quality_size="high-1024x1024", prompt_tokens="0")
    assert result["image_cost"] == pytest.approx(0.1664)
    assert result["total_cost"] == pytest.approx(166.4)


def test_the_prompt_is_billed_on_top() -> None:
    result = _result(billing="tokens", quality_size="low-1024x1024", prompt_tokens="1000", text_input_price="5")
    assert result["prompt_cost"] == pytest.approx(0.005)
    assert result["image_cost"] == pytest.approx(0.01088 + 0.005)


def test_per_image_pricing_multiplies_the_table_price() -> None:
    # The guide's GPT Image 1.5 medium 1024×1024: $0.034 an image.
    result = _result(images="1000", billing="image", price_per_image="0.034")
    assert result["total_cost"] == pytest.approx(34)
    assert result["prompt_cost"] == 0


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("images", "-3", Problem("images", "too_small", Decimal(0))),
        ("quality_size", "ultra", Problem("quality_size", "unknown_choice")),
        ("price_per_image", "cheap", Problem("price_per_image", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(IMAGE_COST, {**IMAGE_COST.defaults(), name: raw})
    assert result.problems == (problem,)
