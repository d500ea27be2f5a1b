"""The entry points the browser worker calls, also used by the build to prerender.

The worker fetches the page's compiled catalog (`.mo` bytes: the core's messages and its own
calculator's) and the locale's number facts (JSON) and calls `make_engine` once: `load_kit` and
`load_calculator`. It then calls the engine's `report` (`report_json`) on every edit. The build loads
the very same bytes through the very same functions, which is what makes the prerendered and the live
text identical.
"""

from __future__ import annotations

import gettext
import importlib
import io
import json
from dataclasses import dataclass

from calculators.kernel.numbers import NumberFacts
from calculators.kernel.spec import Calculator
from calculators.vocabulary.model_config import fill_values

from .report import (
    ConfigReport,
    LocaleKit,
    MenuGpu,
    MenuPrice,
    hub_problem,
    make_report,
    menu_gpus,
    menu_prices,
    price_facts,
    read_checkpoint,
    read_config,
)

__all__ = ["Engine", "config_json", "load_calculator", "load_kit", "make_engine", "report_json"]


def load_kit(catalog: bytes, number_facts: str) -> LocaleKit:
    """Make a locale kit from a compiled gettext catalog and a JSON object of number facts."""
    translations = gettext.GNUTranslations(io.BytesIO(catalog))
    return LocaleKit(translations=translations, numbers=NumberFacts(**json.loads(number_facts)))


def load_calculator(module: str) -> Calculator:
    """Import the one calculator a page needs, by its module (`calculators.training.lr_warmup`)."""
    calculator: Calculator = importlib.import_module(module).CALCULATOR
    return calculator


def report_json(
    kit: LocaleKit,
    calculator: Calculator,
    raw_json: str,
    gpus: tuple[MenuGpu, ...] = (),
    prices: tuple[MenuPrice, ...] = (),
) -> str:
    """Compute `calculator` on the raw input texts in `raw_json` (and on the page's GPU menu, `gpus`, and the site's
    language models, `prices`) and return the report as JSON."""
    raw = json.loads(raw_json)
    return make_report(calculator, raw if isinstance(raw, dict) else {}, kit, gpus, prices).to_json()


def config_json(kit: LocaleKit, calculator: Calculator, text: str) -> str:
    """Read a pasted config.json for `calculator`; return the inputs it fills and a message, as JSON."""
    return read_config(calculator, text, kit).to_json()


@dataclass(frozen=True)
class Engine:
    """One page's engine: its calculator, in its reader's language, answering the worker's requests."""

    kit: LocaleKit
    calculator: Calculator
    gpus: tuple[MenuGpu, ...] = ()
    """The page's GPU menu, which a calculator's table of GPUs computes on."""
    prices: tuple[MenuPrice, ...] = ()
    """The site's language models, which a calculator's table of prices computes on."""

    def report(self, raw_json: str) -> str:
        """Answer an edit: the report on the raw input texts in `raw_json`, as JSON."""
        return report_json(self.kit, self.calculator, raw_json, self.gpus, self.prices)

    def config(self, text: str) -> str:
        """Answer a pasted config.json: the inputs it fills and a message, as JSON."""
        return config_json(self.kit, self.calculator, text)

    def checkpoint(self, config: str, headers_json: str) -> str:
        """Answer a model the page's script read from the Hub: its config.json and the headers of its safetensors
        files (a JSON list of texts); the inputs they fill and a message, as JSON."""
        headers = json.loads(headers_json)
        texts = [header for header in headers if isinstance(header, str)] if isinstance(headers, list) else []
        return read_checkpoint(self.calculator, config, texts, self.kit).to_json()

    def price(self, entry: str) -> str:
        """Answer a model the price search found (its entry in the site's price feed, JSON): the inputs its prices
        fill, as the build's own price menus fill them, as JSON."""
        values = fill_values(self.calculator, price_facts(json.loads(entry)))
        return ConfigReport(ok=True, values=values, message="").to_json()

    def hub_problem(self, code: str, number: int) -> str:
        """Answer a model the page's script could not read: what went wrong, said in the page's language, as JSON."""
        return ConfigReport(ok=False, values={}, message=hub_problem(code, int(number), self.kit)).to_json()


def make_engine(
    catalog: bytes | memoryview, number_facts: str, module: str, gpus: str = "[]", prices: str = "{}"
) -> Engine:
    """Make the engine of the page showing `module`'s calculator with this catalog and these number facts, its GPU
    menu (`report.menu_gpus`) and, where its calculator compares them, the site's price feed (`report.menu_prices`)."""
    calculator = load_calculator(module)
    return Engine(load_kit(bytes(catalog), number_facts), calculator, menu_gpus(gpus), menu_prices(calculator, prices))
