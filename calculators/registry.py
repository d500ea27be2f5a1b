"""Finding calculators by slug: each module is imported when first asked for, never all at once.

The list itself is plain data in `calculators/catalogue.py`, read only here and only when asked:
the browser worker imports its page's calculator by module name and never loads the catalogue.
"""

from __future__ import annotations

import importlib

from calculators.kernel.spec import Calculator

__all__ = ["all_calculators", "find", "module_name", "slugs"]


def _catalogue() -> tuple[str, ...]:
    from .catalogue import CATALOGUE  # only the build, the library and the tests read the whole list

    return CATALOGUE


def module_name(entry: str) -> str:
    """Return the module a catalogue entry lives in: "training/lr-warmup" is calculators.training.lr_warmup."""
    category, slug = entry.split("/")
    return f"calculators.{category}.{slug.replace('-', '_')}"


def slugs() -> tuple[str, ...]:
    """Return every published slug, in display order, without importing any calculator."""
    return tuple(entry.split("/")[1] for entry in _catalogue())


def find(slug: str) -> Calculator:
    """Return the calculator published under `slug`; raise KeyError if there is none."""
    entry = next((entry for entry in _catalogue() if entry.split("/")[1] == slug), None)
    if entry is None:
        raise KeyError(slug)
    calculator: Calculator = importlib.import_module(module_name(entry)).CALCULATOR
    return calculator


def all_calculators() -> tuple[Calculator, ...]:
    """Return every calculator, in display order (this imports them all)."""
    return tuple(find(slug) for slug in slugs())
