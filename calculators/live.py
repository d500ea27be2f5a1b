"""The entry points the browser worker calls, also used by the build to prerender.

The worker fetches the page's compiled catalog (`.mo` bytes: the core's messages and its own
calculator's) and the locale's number facts (JSON) and calls `load_kit` once, imports the page's
calculator with `load_calculator`, then calls `report_json` on every edit. The build loads the very
same bytes through the very same functions, which is what makes the prerendered and the live text
identical.
"""

from __future__ import annotations

import gettext
import importlib
import io
import json

from calculators.kernel.numbers import NumberFacts
from calculators.kernel.spec import Calculator

from .report import LocaleKit, make_report, read_config

__all__ = ["config_json", "load_calculator", "load_kit", "report_json"]


def load_kit(catalog: bytes, number_facts: str) -> LocaleKit:
    """Make a locale kit from a compiled gettext catalog and a JSON object of number facts."""
    translations = gettext.GNUTranslations(io.BytesIO(catalog))
    return LocaleKit(translations=translations, numbers=NumberFacts(**json.loads(number_facts)))


def load_calculator(module: str) -> Calculator:
    """Import the one calculator a page needs, by its module (`calculators.training.lr_warmup`)."""
    calculator: Calculator = importlib.import_module(module).CALCULATOR
    return calculator


def report_json(kit: LocaleKit, calculator: Calculator, raw_json: str) -> str:
    """Compute `calculator` on the raw input texts in `raw_json` and return the report as JSON."""
    raw = json.loads(raw_json)
    return make_report(calculator, raw if isinstance(raw, dict) else {}, kit).to_json()


def config_json(kit: LocaleKit, calculator: Calculator, text: str) -> str:
    """Read a pasted config.json for `calculator`; return the inputs it fills and a message, as JSON."""
    return read_config(calculator, text, kit).to_json()
