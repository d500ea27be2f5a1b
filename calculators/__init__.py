"""AI and LLM calculators: pure-Python formulas with their inputs, outputs and validation.

Stdlib only, no I/O, no module state: the same code runs in CPython and, in the browser, in
Pyodide. See README.md in this folder for the rules. The shared machinery is in `core/`; each
calculator is a package under its category (`training/`, `infrastructure/`, ...), listed in
`catalogue.py`. Importing this package imports no calculator and not the catalogue: `find(slug)`
imports one, and `CALCULATORS` (looked up on first use) imports them all.
"""

from .api import InvalidInputError, compute, describe, list_calculators, validate
from .kernel.evaluation import Evaluation, Problem, evaluate
from .kernel.numbers import PLAIN, NumberFacts, format_number, parse_number
from .kernel.spec import Calculator, Category, Choice, InputSpec, Kind, Message, OutputSpec, PluralMessage
from .registry import all_calculators, find
from .report import LocaleKit, Report, make_report

__all__ = [
    "CALCULATORS",
    "CATEGORIES",
    "PLAIN",
    "Calculator",
    "Category",
    "Choice",
    "Evaluation",
    "InputSpec",
    "InvalidInputError",
    "Kind",
    "LocaleKit",
    "Message",
    "NumberFacts",
    "OutputSpec",
    "PluralMessage",
    "Problem",
    "Report",
    "compute",
    "describe",
    "evaluate",
    "find",
    "format_number",
    "list_calculators",
    "make_report",
    "parse_number",
    "validate",
]


def __getattr__(name: str) -> tuple[Calculator, ...] | tuple[Category, ...]:
    """Give the catalogue's `CALCULATORS` and `CATEGORIES`, read only when asked for (PEP 562)."""
    if name == "CALCULATORS":
        return all_calculators()
    if name == "CATEGORIES":
        from .catalogue import CATEGORIES

        return CATEGORIES
    raise AttributeError(f"module 'calculators' has no attribute {name!r}")
