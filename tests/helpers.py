"""What many tests need, written once: a calculator's results for the values a test types in."""

from __future__ import annotations

from collections.abc import Callable

from calculators import Calculator, evaluate

__all__ = ["GPT_6_2_SOL", "ModelPreset", "results", "results_of"]

# OpenAI's GPT-6.2 Sol page (developers.openai.com, read 2026-12-02), as a reader types it: 2.00 input, 0.10 cached
# input, 10.00 output per million; "For requests with more than 272K input tokens, input and cache rates double and
# output costs 1.5 times the short-context rate for the full request."
GPT_6_2_SOL = {
    "input_price": "2",
    "cached_input_price": "0.1",
    "output_price": "10",
    "long_context_above": "272000",
    "long_context_input_price": "4",
    "long_context_cached_input_price": "0.2",
    "long_context_output_price": "15",
}

# The `model_preset` fixture: the inputs a model preset of the site fills in a calculator, by model id.
ModelPreset = Callable[[Calculator, str], dict[str, str]]


def results(calculator: Calculator, **values: str) -> dict[str, float]:
    """Return every result of `calculator` for its defaults with `values` typed over them; fail on a problem."""
    evaluation = evaluate(calculator, {**calculator.defaults(), **values})
    assert evaluation.ok, evaluation.problems
    return dict(evaluation.results)


def results_of(calculator: Calculator) -> Callable[..., dict[str, float]]:
    """Return `results` for one calculator: a test file's `_result(**values)`."""
    return lambda **values: results(calculator, **values)
