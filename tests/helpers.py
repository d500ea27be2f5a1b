"""What many tests need, written once: a calculator's results for the values a test types in."""

from __future__ import annotations

from collections.abc import Callable

from calculators import Calculator, evaluate

__all__ = ["ModelPreset", "results", "results_of"]

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
