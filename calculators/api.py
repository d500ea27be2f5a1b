"""The library API: list, describe, validate and compute calculators from Python.

    >>> import calculators
    >>> "llm-training-vram" in calculators.list_calculators()
    True
    >>> calculators.compute("llm-training-vram", {"params_billion": 7, "bytes_per_param": 16, "activation_gb": 20})
    {'total_vram_gb': 132.0, 'model_state_gb': 112.0, 'activations_memory': 20.0, 'per_gpu_vram_gb': 132.0}
    >>> calculators.validate("llm-training-vram", {"params_billion": 0, "bytes_per_param": 16, "activation_gb": 0})
    (Problem(name='params_billion', code='too_small', limit=Decimal('0'), exclusive=True),)
    >>> calculators.describe("llm-training-vram")["outputs"][0]["name"]
    'total_vram_gb'

Texts in `describe` are the English source; the web page and `python -m calculators --lang`
translate them.
"""

from __future__ import annotations

from collections.abc import Mapping

from calculators.kernel.evaluation import Problem, evaluate
from calculators.kernel.spec import PluralMessage

from .registry import find, slugs

__all__ = ["InvalidInputError", "compute", "describe", "list_calculators", "validate"]


class InvalidInputError(ValueError):
    """Raised by `compute` when an input cannot be used; `problems` says which and why."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p.name or 'result'}: {p.code}" for p in problems))


def list_calculators() -> tuple[str, ...]:
    """Return every calculator's slug, in display order."""
    return slugs()


def describe(slug: str) -> dict[str, object]:
    """Return a calculator's inputs (kind, unit, default, bounds, choices) and outputs, as plain data."""
    calculator = find(slug)

    def unit(message: object) -> str | None:
        if isinstance(message, PluralMessage):
            return message.plural
        return getattr(message, "text", None)

    return {
        "slug": calculator.slug,
        "category": calculator.category,
        "title": calculator.title.text,
        "summary": calculator.summary.text,
        "formulas": list(calculator.formulas),
        "inputs": [
            {
                "name": spec.name,
                "kind": spec.kind.value,
                "label": spec.label.text,
                "unit": unit(spec.unit),
                "default": spec.default,
                "minimum": str(spec.minimum) if spec.minimum is not None else None,
                "minimum_exclusive": spec.minimum_exclusive,
                "maximum": str(spec.maximum) if spec.maximum is not None else None,
                "choices": [{"value": c.value, "label": c.label.text} for c in spec.choices],
            }
            for spec in calculator.inputs
        ],
        "outputs": [
            {"name": spec.name, "label": spec.label.text, "unit": unit(spec.unit)} for spec in calculator.outputs
        ],
    }


def validate(slug: str, values: Mapping[str, object]) -> tuple[Problem, ...]:
    """Return what is wrong with `values` for the calculator `slug` (empty when they can be used)."""
    return evaluate(find(slug), values).problems


def compute(slug: str, values: Mapping[str, object]) -> dict[str, float]:
    """Return the calculator's outputs for `values`; raise InvalidInputError if any input cannot be used.

    Only the declared outputs: the parts a memory chart is drawn from stay internal. An output the inputs cannot tell
    is NaN, where the page writes "Not known" (a time to first token without a compute peak):

    >>> latency = find("inference-latency")
    >>> compute("inference-latency", {**latency.defaults(), "bandwidth_gb_s": 800, "peak_tflops": 0})["ttft_ms"]
    nan
    """
    calculator = find(slug)
    evaluation = evaluate(calculator, values)
    if not evaluation.ok:
        raise InvalidInputError(evaluation.problems)
    return {spec.name: evaluation.results[spec.name] for spec in calculator.outputs}
