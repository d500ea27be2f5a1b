"""Structured-output overhead: the reader's measured token counts, priced at the vendor's published prices."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.structured_output_overhead import CALCULATOR as OVERHEAD
from tests.helpers import results_of

_result = results_of(OVERHEAD)


# Anthropic's pricing table, Claude Opus 4.5: $5 / MTok input, $25 / MTok output.
OPUS_4_5 = {"input_price": "5", "output_price": "25"}


def test_a_million_extra_output_tokens_cost_the_output_price() -> None:
    result = _result(plain_output_tokens="1000000", structured_output_tokens="2000000", schema_tokens="0", **OPUS_4_5)
    assert result["output_overhead"] == 100
    assert result["request_cost"] == pytest.approx(25)


def test_the_forced_tool_prompt_bills_as_input() -> None:
    # Anthropic's tool-use page: Claude Opus 4.5 with tool_choice any or tool adds 588 system prompt tokens.
    result = _result(plain_output_tokens="100", structured_output_tokens="100", schema_tokens="588", **OPUS_4_5)
    assert result["schema_cost"] == pytest.approx(588 * 5 / 1e6)
    assert result["extra_output_cost"] == 0


def test_a_shorter_structured_answer_saves() -> None:
    result = _result(plain_output_tokens="400", structured_output_tokens="300", schema_tokens="0", **OPUS_4_5)
    assert result["output_overhead"] == -25
    assert result["monthly_cost"] < 0


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("plain_output_tokens", "0", Problem("plain_output_tokens", "too_small", Decimal(1))),
        ("structured_output_tokens", "-5", Problem("structured_output_tokens", "too_small", Decimal(0))),
        ("output_price", "cheap", Problem("output_price", "not_a_number")),
        ("currency", "XYZ", Problem("currency", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(OVERHEAD, {**OVERHEAD.defaults(), name: raw})
    assert result.problems == (problem,)
