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


# Anthropic, "Vision", platform.claude.com/docs/en/build-with-claude/vision, "Calculate image costs": the two tables,
# Claude Sonnet 4.6 at $3 per million input tokens and Claude Opus 4.7 and 4.8 at $5, with the sizes the larger
# images are downscaled to before processing.
@pytest.mark.parametrize(
    ("width", "height", "tokens", "cost", "read"),
    [
        ("200", "200", 64, 0.00019, (200, 200)),
        ("1000", "1000", 1296, 0.0039, (1000, 1000)),
        ("1092", "1092", 1521, 0.0046, (1092, 1092)),
        ("1920", "1080", 1560, 0.0047, (1456, 819)),
        ("2000", "1500", 1564, 0.0047, (1270, 952)),
        ("3840", "2160", 1560, 0.0047, (1456, 819)),
    ],
)
def test_anthropic_table(width: str, height: str, tokens: int, cost: float, read: tuple[int, int]) -> None:
    result = _result(rule="anthropic-claude", width=width, height=height, input_price="3")
    assert result["image_tokens"] == result["units"] == tokens
    assert [result["read_width"], result["read_height"]] == list(read)
    assert float(f"{result['total_cost']:.2g}") == cost  # the table's "~$0.0039": two significant figures


@pytest.mark.parametrize(
    ("width", "height", "tokens", "cost", "read"),
    [
        ("200", "200", 64, 0.00032, (200, 200)),
        ("1000", "1000", 1296, 0.0065, (1000, 1000)),
        ("1092", "1092", 1521, 0.0076, (1092, 1092)),
        ("1920", "1080", 2691, 0.013, (1920, 1080)),
        ("2000", "1500", 3888, 0.019, (2000, 1500)),
        ("3840", "2160", 4784, 0.024, (2576, 1449)),
    ],
)
def test_anthropic_high_resolution_table(
    width: str, height: str, tokens: int, cost: float, read: tuple[int, int]
) -> None:
    result = _result(rule="anthropic-claude-high-resolution", width=width, height=height, input_price="5")
    assert result["image_tokens"] == tokens
    assert [result["read_width"], result["read_height"]] == list(read)
    assert float(f"{result['total_cost']:.2g}") == cost


def test_anthropic_resizes_to_the_token_budget() -> None:
    # The guide's "How Claude resizes and pads images": an A4 page scanned at 130 DPI, 1075 × 1520 px, is within
    # 1568 px on both sides but costs 39 × 55 = 2145 visual tokens, so Claude resizes it to 924 × 1307.
    result = _result(rule="anthropic-claude", width="1075", height="1520")
    assert [result["read_width"], result["read_height"]] == [924, 1307]
    assert _result(rule="anthropic-claude-high-resolution", width="1075", height="1520")["image_tokens"] == 2145


@pytest.mark.parametrize(
    ("width", "height", "tokens"),
    [
        # The sizes the guide listed as the largest it does not resize, by aspect ratio (1:1, 3:4, 2:3, 9:16, 1:2),
        # read as sent: ⌈w / 28⌉ × ⌈h / 28⌉ = 39 × 39, 34 × 46, 32 × 48, 30 × 52 and 28 × 56 visual tokens.
        ("1092", "1092", 1521),
        ("951", "1268", 1564),
        ("896", "1344", 1536),
        ("819", "1456", 1560),
        ("784", "1568", 1568),
    ],
)
def test_anthropic_sizes_not_resized(width: str, height: str, tokens: int) -> None:
    result = _result(rule="anthropic-claude", width=width, height=height)
    assert [result["read_width"], result["read_height"]] == [int(width), int(height)]
    assert result["image_tokens"] == tokens


def test_anthropic_scales_large_images_down() -> None:
    # Past 1568 px on the long edge the image shrinks to fit it: never more than 1568 visual tokens.
    result = _result(rule="anthropic-claude", width="4000", height="3000")
    assert result["image_tokens"] <= 1568
    assert max(result["read_width"], result["read_height"]) <= 1568
    assert _result(rule="anthropic-claude", width="3136", height="100")["read_width"] == 1568


@pytest.mark.parametrize("rule", ["anthropic-claude", "anthropic-claude-high-resolution"])
def test_anthropic_refuses_images_above_8000_px(rule: str) -> None:
    result = evaluate(IMAGE_TOKENS, {**IMAGE_TOKENS.defaults(), "rule": rule, "width": "8001"})
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
