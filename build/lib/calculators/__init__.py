"""AI and LLM calculators: pure-Python formulas with their inputs, outputs and validation.

Stdlib only, no I/O, no module state: the same code runs in CPython and, in the
browser, in Pyodide. See README.md in this folder for the rules.
"""

from .api import InvalidInputError, compute, describe, list_calculators, validate
from .evaluation import Evaluation, Problem, evaluate
from .numbers import PLAIN, NumberFacts, format_number, parse_number
from .registry import CALCULATORS, CATEGORIES, Category, find
from .report import LocaleKit, Report, make_report
from .spec import Calculator, Choice, InputSpec, Kind, Message, OutputSpec, PluralMessage

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
