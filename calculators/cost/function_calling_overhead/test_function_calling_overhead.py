"""Function-calling overhead: Anthropic's published tool-use system prompts and OpenAI's cookbook example."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.cost.function_calling_overhead import ANTHROPIC_TOOL_PROMPTS
from calculators.cost.function_calling_overhead import CALCULATOR as OVERHEAD
from tests.helpers import results_of

_result = results_of(OVERHEAD)


# OpenAI cookbook, "How to count tokens with tiktoken", §7: one get_current_weather tool (location, and unit with
# the enum celsius, fahrenheit) and two messages. The text pieces, counted with tiktoken: the function line 11, the
# location line 14, the unit line 8, the two enum values 2 each, in cl100k_base and o200k_base alike; the messages
# (3 per message, its role and content, and 3 to prime the reply) 34 in cl100k_base and 33 in o200k_base.
WEATHER_TOOL = {
    "tool_count": "1",
    "definition_tokens": "37",
    "parameter_count": "2",
    "enum_count": "1",
    "enum_values": "2",
    "exchange_tokens": "0",
}


def test_openai_cookbook_example_gpt_4() -> None:
    # "105 prompt tokens counted by the OpenAI API." (gpt-3.5-turbo and gpt-4)
    result = _result(convention="openai-gpt-4", input_tokens="34", **WEATHER_TOOL)
    assert result["total_input_tokens"] == 105


def test_openai_cookbook_example_gpt_4o() -> None:
    # "101 prompt tokens counted by the OpenAI API." (gpt-4o and gpt-4o-mini)
    result = _result(convention="openai-gpt-4o", input_tokens="33", **WEATHER_TOOL)
    assert result["total_input_tokens"] == 101


@pytest.mark.parametrize(
    ("model", "auto", "forced"),
    [
        # Anthropic, "Tool use system prompt token count" (platform.claude.com tool-use overview, Pricing).
        ("claude-opus-4-8", 290, 410),
        ("claude-opus-4-7", 675, 804),
        ("claude-opus-4-5", 496, 588),
        ("claude-sonnet-4-5", 496, 588),
        ("claude-sonnet-4", 313, 315),
        ("claude-haiku-3-5", 264, 355),
    ],
)
def test_anthropic_tool_use_system_prompt(model: str, auto: int, forced: int) -> None:
    bare = {"claude_model": model, "tool_count": "1", "definition_tokens": "0", "exchange_tokens": "0"}
    assert _result(tool_choice="auto", **bare)["framing_tokens"] == auto
    assert _result(tool_choice="forced", **bare)["framing_tokens"] == forced


def test_the_table_has_one_row_per_model() -> None:
    assert len({row.value for row in ANTHROPIC_TOOL_PROMPTS}) == len(ANTHROPIC_TOOL_PROMPTS) == 12


def test_a_tool_without_parameters_opens_no_parameter_list() -> None:
    # The cookbook adds prop_init (3) only `if len(function["parameters"]["properties"]) > 0`: a second tool with an
    # empty properties object adds func_init (10 on gpt-4) and its name:description line, nothing more. Two tools,
    # the weather tool's 2 parameters on one of them: 10 + 10 + 3 + 2 × 3 - 3 + 2 × 3 + 12 = 44 framing tokens.
    two = {**WEATHER_TOOL, "tool_count": "2", "tools_without_parameters": "1"}
    assert _result(convention="openai-gpt-4", **two)["framing_tokens"] == 44
    # Told that every tool has parameters, the count opens two parameter lists: 3 more.
    assert _result(convention="openai-gpt-4", **{**two, "tools_without_parameters": "0"})["framing_tokens"] == 47


def test_tools_without_parameters_must_be_among_the_tools() -> None:
    values = {**OVERHEAD.defaults(), "tool_count": "2", "tools_without_parameters": "3"}
    assert [p.name for p in evaluate(OVERHEAD, values).problems] == ["tools_without_parameters"]
    every_tool_bare = {**OVERHEAD.defaults(), "tool_count": "2", "tools_without_parameters": "2"}
    assert [p.name for p in evaluate(OVERHEAD, every_tool_bare).problems] == ["parameter_count"]


def test_no_tools_add_nothing() -> None:
    # "If no tools are provided, then a tool choice of none uses 0 additional system prompt tokens."
    assert _result(tool_count="0", exchange_tokens="0")["overhead_tokens"] == 0
    assert _result(convention="openai-gpt-4o", tool_count="0", exchange_tokens="0")["overhead_tokens"] == 0


def test_overhead_is_billed_at_the_input_price() -> None:
    # Anthropic's pricing table, Claude Opus 4.5: $5 / MTok input. A million overhead tokens cost 5.
    result = _result(
        tool_count="1",
        definition_tokens="999504",
        claude_model="claude-opus-4-5",
        input_price="5",
        requests_per_day="1",
        month_hours="720",
    )
    assert result["overhead_tokens"] == 1_000_000
    assert result["request_cost"] == pytest.approx(5)
    assert result["monthly_cost"] == pytest.approx(150)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("tool_count", "-1", Problem("tool_count", "too_small", Decimal(0))),
        ("claude_model", "gpt-9", Problem("claude_model", "unknown_choice")),
        ("definition_tokens", "many", Problem("definition_tokens", "not_a_number")),
        ("enum_count", "99", Problem("enum_count", "rule")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(OVERHEAD, {**OVERHEAD.defaults(), name: raw})
    assert result.problems == (problem,)


def test_sentences_name_the_convention_and_the_month(kits: dict[str, LocaleKit]) -> None:
    report = make_report(OVERHEAD, OVERHEAD.defaults(), kits["en"])
    assert "(Anthropic: tool-use system prompt)" in report.results[0].sentence
    assert "a month of 730 hours (365 days ÷ 12)" in report.results[2].sentence
