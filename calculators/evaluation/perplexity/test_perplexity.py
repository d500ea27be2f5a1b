"""Perplexity: Jurafsky and Martin's digits, the loss-perplexity identity in nats and bits, bits per byte."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.evaluation.perplexity import CALCULATOR as PPL
from tests.helpers import results_of

_result = results_of(PPL)


def test_ten_equally_likely_digits_have_perplexity_ten() -> None:
    # SLP3 ch. 3: each digit has probability 1/10, so the perplexity is 10, in nats (ln 10) and in bits (log2 10).
    assert _result(loss=repr(math.log(10)))["perplexity"] == pytest.approx(10)
    assert _result(loss=repr(math.log2(10)), loss_unit="bits")["perplexity"] == pytest.approx(10)


def test_a_loss_of_three_bits_is_a_perplexity_of_eight() -> None:
    result = _result(loss="3", loss_unit="bits", bytes_per_token="4")
    assert result["perplexity"] == pytest.approx(8)
    assert result["bits_per_byte"] == pytest.approx(0.75)


def test_a_word_carries_the_loss_of_its_tokens() -> None:
    # 1.5 tokens per word at 2 nats a token: a word costs 3 nats.
    assert _result(loss="2", tokens_per_word="1.5")["word_perplexity"] == pytest.approx(math.exp(3))


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("loss", "-1", Problem("loss", "too_small", Decimal(0))),
        ("tokens_per_word", "0", Problem("tokens_per_word", "too_small", Decimal(0), exclusive=True)),
        ("loss_unit", "0", Problem("loss_unit", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(PPL, {**PPL.defaults(), name: raw}).problems == (problem,)
