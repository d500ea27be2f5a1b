"""Image tokens: the vendors' own documented examples."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.inference.image_tokens import CALCULATOR as IMAGE_TOKENS
from tests.helpers import results_of

_result = results_of(IMAGE_TOKENS)


@pytest.mark.parametrize(
    ("width", "height", "detail", "tokens", "read"),
    [
        # OpenAI, "Images and vision", calculating costs: the guide's three examples for GPT-4o.
        ("1024", "1024", "high", 765, (768, 768)),
        ("2048", "4096", "high", 1105, (768, 1536)),
        ("4096", "8192", "low", 85, (256, 512)),
    ],
)
def test_openai_tile_examples(width: str, height: str, detail: str, tokens: int, read: tuple[int, int]) -> None:
    result = _result(rule="openai-gpt-4o", width=width, height=height, detail=detail)
    assert result["image_tokens"] == tokens
    assert [result["read_width"], result["read_height"]] == list(read)


def test_openai_other_tile_constants() -> None:
    # The guide's constants: GPT-4o mini 2,833 base and 5,667 a tile; o1 and o3 75 and 150.
    assert _result(rule="openai-gpt-4o-mini", width="1024", height="1024")["image_tokens"] == 2833 + 4 * 5667
    assert _result(rule="openai-o1-o3", width="1024", height="1024")["image_tokens"] == 75 + 4 * 150
    assert _result(rule="openai-o1-o3", width="1024", height="1024", detail="low")["image_tokens"] == 75


@pytest.mark.parametrize(
    ("width", "height", "patches", "read"),
    [
        # The guide's patch examples: 1024 × 1024 is 32 × 32 = 1024 patches; 1800 × 2400 would need 57 × 75 = 4275,
        # so it shrinks by 0.603 to 1086 × 1448, then to 1056 × 1408 for whole patches: 33 × 44 = 1452.
        ("1024", "1024", 1024, (1024, 1024)),
        ("1800", "2400", 1452, (1056, 1408)),
    ],
)
def test_openai_patch_examples(width: str, height: str, patches: int, read: tuple[int, int]) -> None:
    for rule, multiplier in (("openai-gpt-4.1-mini", 1.62), ("openai-gpt-4.1-nano", 2.46), ("openai-o4-mini", 1.72)):
        result = _result(rule=rule, width=width, height=height)
        assert result["units"] == patches
        assert [result["read_width"], result["read_height"]] == list(read)
        assert result["image_tokens"] == pytest.approx(patches * multiplier)


@pytest.mark.parametrize(
    ("side", "tokens", "cost"),
    [
        # Anthropic's vision guide: ~54, ~1,334 and ~1,590 tokens, ~$0.00016, ~$0.004 and ~$0.0048 at $3 per million.
        ("200", 54, 0.00016),
        ("1000", 1334, 0.004),
        ("1092", 1590, 0.0048),
    ],
)
def test_anthropic_table(side: str, tokens: int, cost: float) -> None:
    result = _result(rule="anthropic-claude", width=side, height=side, input_price="3")
    assert result["image_tokens"] == tokens
    assert result["total_cost"] == pytest.approx(cost, abs=0.00005)


def test_anthropic_scales_large_images_down() -> None:
    # A long edge above 1,568 px or more than ~1,600 tokens is scaled down first: never much above 1,600 tokens.
    result = _result(rule="anthropic-claude", width="4000", height="3000")
    assert result["image_tokens"] <= 1600
    assert max(result["read_width"], result["read_height"]) <= 1568
    assert _result(rule="anthropic-claude", width="3136", height="100")["read_width"] == 1568


def test_anthropic_refuses_images_above_8000_px() -> None:
    result = evaluate(IMAGE_TOKENS, {**IMAGE_TOKENS.defaults(), "rule": "anthropic-claude", "width": "8001"})
    assert not result.ok
    assert _result(rule="openai-gpt-4o", width="8001")["image_tokens"] > 0


def test_gemini_rule() -> None:
    # Google, "Understand and count tokens": 258 tokens up to 384 px on both sides, else 258 per 768 × 768 tile.
    assert _result(rule="google-gemini", width="384", height="384")["image_tokens"] == 258
    assert _result(rule="google-gemini", width="385", height="384")["image_tokens"] == 258
    assert _result(rule="google-gemini", width="1920", height="1080")["image_tokens"] == 258 * 3 * 2


def test_huge_images_stay_finite() -> None:
    result = _result(rule="openai-gpt-4.1-mini", width="1", height="100000", images="1000000000")
    assert result["units"] == 1536
    assert _result(rule="google-gemini", width="100000", height="100000")["image_tokens"] == 258 * 131 * 131


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("width", "0", Problem("width", "too_small", Decimal(1))),
        ("rule", "openai-gpt-9", Problem("rule", "unknown_choice")),
        ("height", "tall", Problem("height", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(IMAGE_TOKENS, {**IMAGE_TOKENS.defaults(), name: raw})
    assert result.problems == (problem,)
