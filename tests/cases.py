"""The value sets each calculator keeps beside its module (`cases.toml`), for the parity tests."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

from calculators import Calculator, Kind

BAD_INPUT = ["", "-1", "abc", "1e400", "NaN", "0x10", "1_000", "٣", "４", "0,5", "9" * 10_000]
"""What a reader may type into any number field: each must give the core's message, never junk."""


def cases_path(calculator: Calculator) -> Path:
    """Return the calculator's `cases.toml`: beside the module that defines its formula."""
    return Path(inspect.getfile(calculator.compute)).with_name("cases.toml")


def value_sets(calculator: Calculator) -> list[dict[str, str]]:
    """Return the calculator's value sets, each completed with the defaults of the inputs it leaves out."""
    with cases_path(calculator).open("rb") as handle:
        sets = tomllib.load(handle)["values"]
    return [{**calculator.defaults(), **{name: str(value) for name, value in values.items()}} for values in sets]


def bad_input_sets(calculator: Calculator) -> list[dict[str, str]]:
    """Return the defaults with one number field at a time holding each of `BAD_INPUT`."""
    return [
        {**calculator.defaults(), spec.name: text}
        for spec in calculator.inputs
        if spec.kind is not Kind.CHOICE
        for text in BAD_INPUT
    ]
