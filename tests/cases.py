"""The value sets each calculator keeps beside its module (`cases.toml`), for the parity tests."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

from calculators import Calculator


def cases_path(calculator: Calculator) -> Path:
    """Return the calculator's `cases.toml`: beside the module that defines its formula."""
    return Path(inspect.getfile(calculator.compute)).with_name("cases.toml")


def value_sets(calculator: Calculator) -> list[dict[str, str]]:
    """Return the calculator's value sets, each completed with the defaults of the inputs it leaves out."""
    with cases_path(calculator).open("rb") as handle:
        sets = tomllib.load(handle)["values"]
    return [{**calculator.defaults(), **{name: str(value) for name, value in values.items()}} for values in sets]
