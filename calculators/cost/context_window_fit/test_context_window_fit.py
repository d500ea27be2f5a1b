"""Context-window fit: input, output limit and thinking budget against the window the documentation states."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.context_window_fit import CALCULATOR as FIT
from tests.helpers import ModelPreset, results_of

_result = results_of(FIT)


def test_openai_window_is_shared_between_prompt_and_completion() -> None:
    # OpenAI's help article: requests can use up to 128,000 tokens shared between prompt and completion.
    exact = _result(context_window="128000", input_tokens="124000", max_output_tokens="4000")
    assert (exact["spare_tokens"], exact["overflow_tokens"]) == (0, 0)
    over = _result(context_window="128000", input_tokens="124000", max_output_tokens="4001")
    assert over["overflow_tokens"] == 1
    assert over["largest_output"] == 4000


def test_llama_3_1_context_from_its_config(model_preset: ModelPreset) -> None:
    # Llama 3.1 8B's config.json: max_position_embeddings 131072, which the model preset fills.
    assert model_preset(FIT, "meta-llama/Llama-3.1-8B") == {"context_window": "131072"}
    result = _result(context_window="131072", input_tokens="126976", max_output_tokens="4096")
    assert (result["spare_tokens"], result["overflow_tokens"]) == (0, 0)
    assert result["window_share"] == 100


def test_a_thinking_budget_inside_the_output_limit_adds_nothing() -> None:
    # Anthropic: budget_tokens must be less than max_tokens, and counts within it.
    inside = _result(context_window="200000", input_tokens="150000", max_output_tokens="32000", thinking_budget="16000")
    assert inside["needed_tokens"] == 182000
    separate = _result(
        context_window="200000",
        input_tokens="150000",
        max_output_tokens="32000",
        thinking_budget="16000",
        thinking_counted="separate",
    )
    assert separate["needed_tokens"] == 198000
    assert separate["largest_output"] == 34000


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("context_window", "0", Problem("context_window", "too_small", Decimal(1))),
        ("thinking_counted", "both", Problem("thinking_counted", "unknown_choice")),
        ("input_tokens", "a lot", Problem("input_tokens", "not_a_number")),
        ("thinking_budget", "4096", Problem("thinking_budget", "rule")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(FIT, {**FIT.defaults(), name: raw})
    assert result.problems == (problem,)
