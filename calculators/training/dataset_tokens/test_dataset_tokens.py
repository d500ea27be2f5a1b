"""Dataset token count: OpenAI's rules of thumb (4 characters, 0.75 words per token) and adjustable ratios."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.training.dataset_tokens import CALCULATOR as TOKENS


def _tokens(amount: str, unit: str, **ratios: str) -> float:
    result = evaluate(TOKENS, {**TOKENS.defaults(), "text_amount": amount, "text_unit": unit, **ratios})
    assert result.ok, result.problems
    return result.results["tokens"]


def test_shakespeare_collected_works() -> None:
    # OpenAI (pricing FAQ, next to the same 4-character and 0.75-word rules): Shakespeare's collected works
    # are "about 900,000 words or 1.2M tokens". Reference sheet 6a.
    assert _tokens("900000", "words") == pytest.approx(1_200_000)


def test_seventy_five_words_are_a_hundred_tokens() -> None:
    # OpenAI Help Center: "100 tokens ≈ 75 words".
    assert _tokens("75", "words") == pytest.approx(100)


def test_1500_words_follow_the_ratio_not_the_2048_example() -> None:
    # The same page says "1,500 words ≈ 2048 tokens", which does not follow from its own 3/4-word rule
    # (1500 / 0.75 = 2000): the calculator applies the rule, so it gives 2000.
    assert _tokens("1500", "words") == pytest.approx(2000)


def test_four_characters_per_token() -> None:
    # OpenAI Help Center: "1 token ≈ 4 characters" of common English text; 4,000 characters ≈ 1,000 tokens.
    assert _tokens("4000", "characters") == pytest.approx(1000)


@pytest.mark.parametrize(
    ("amount", "unit", "expected"),
    [
        ("1000000000", "bytes", 2.5e8),  # 1 GB of plain English text, one byte per character
        ("1000", "mb", 2.5e8),
        ("1", "gb", 2.5e8),
        ("0.5", "gb", 1.25e8),
    ],
)
def test_bytes_of_english_text_count_as_characters(amount: str, unit: str, expected: float) -> None:
    assert _tokens(amount, unit) == pytest.approx(expected)


def test_ratios_are_adjustable() -> None:
    # Code or other languages split into more tokens: fewer characters per token means more tokens.
    assert _tokens("4000", "characters", chars_per_token="2.5") == pytest.approx(1600)
    assert _tokens("900000", "words", words_per_token="0.5") == pytest.approx(1_800_000)
    # Each ratio is read only for its own kind of amount.
    assert _tokens("900000", "words", chars_per_token="1") == pytest.approx(1_200_000)


def test_tokens_per_unit() -> None:
    result = evaluate(TOKENS, {**TOKENS.defaults(), "text_unit": "characters"})
    assert result.results["tokens_per_unit"] == 0.25
    result = evaluate(TOKENS, {**TOKENS.defaults(), "text_unit": "words"})
    assert result.results["tokens_per_unit"] == pytest.approx(4 / 3)


def test_advanced_ratios_default_when_missing() -> None:
    result = evaluate(TOKENS, {"text_amount": "75", "text_unit": "words"})
    assert result.results["tokens"] == pytest.approx(100)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("text_amount", "-1", Problem("text_amount", "too_small", Decimal(0))),
        ("text_amount", "lots", Problem("text_amount", "not_a_number")),
        ("text_amount", "1e16", Problem("text_amount", "too_large", Decimal("1e15"))),
        ("text_unit", "pages", Problem("text_unit", "unknown_choice")),
        ("text_unit", "0", Problem("text_unit", "unknown_choice")),  # choices are read by name only
        ("chars_per_token", "0", Problem("chars_per_token", "too_small", Decimal(0), exclusive=True)),
        ("words_per_token", "-0.75", Problem("words_per_token", "too_small", Decimal(0), exclusive=True)),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(TOKENS, {**TOKENS.defaults(), name: raw})
    assert result.problems == (problem,)
    assert result.results == {}


def test_huge_amounts_are_out_of_range() -> None:
    result = evaluate(TOKENS, {**TOKENS.defaults(), "text_amount": "1e15", "text_unit": "gb"})
    assert result.problems == (Problem("", "out_of_range"), Problem("text_amount", "out_of_range"))
