"""Tokens to words: Cohere's published characters per token by language, OpenAI's English rules of thumb."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.tokens_to_words import CALCULATOR as WORDS
from tests.helpers import results_of

_result = results_of(WORDS)


# Cohere multilingual-22-12 model card: average characters per token on 10,000 Wikipedia paragraphs.
COHERE = {"ar": 3.6, "de": 4.6, "en": 4.8, "es": 4.6, "fr": 4.4, "ja": 1.3, "ko": 2.0, "zh": 1.1}


@pytest.mark.parametrize(("language", "ratio"), COHERE.items())
def test_characters_follow_cohere_s_table(language: str, ratio: float) -> None:
    # The card's rule, approx_number_of_tokens = len(input_text) / ratio, read from tokens to characters.
    assert _result(tokens="1000", language=language)["characters"] == pytest.approx(1000 * ratio)


def test_portuguese_borrows_spanish_s_ratio() -> None:
    assert _result(language="pt")["chars_per_token_used"] == COHERE["es"]


def test_openai_s_english_rules_of_thumb() -> None:
    # OpenAI Help Center: "100 tokens ~= 75 words"; "1 token ~= 4 chars in English".
    assert _result(tokens="100")["words"] == pytest.approx(75)
    assert _result(tokens="100", language="own", chars_per_token="4")["characters"] == pytest.approx(400)


def test_the_own_ratio_is_read_only_when_chosen() -> None:
    assert _result(language="ko", chars_per_token="9")["chars_per_token_used"] == 2.0


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("tokens", "-3", Problem("tokens", "too_small", Decimal(0))),
        ("words_per_token", "0", Problem("words_per_token", "too_small", Decimal(0), exclusive=True)),
        ("language", "0", Problem("language", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(WORDS, {**WORDS.defaults(), name: raw}).problems == (problem,)
