"""The entry points the browser worker calls, also used by the build to prerender.

The worker fetches a locale's compiled catalog (`.mo` bytes) and its number
facts (JSON) and calls `load_kit` once; then `report_json` on every edit. The
build loads the very same bytes through the very same function, which is what
makes the prerendered and the live text identical.
"""

from __future__ import annotations

import gettext
import io
import json

from .numbers import NumberFacts
from .registry import find
from .report import LocaleKit, make_report, read_config

__all__ = ["config_json", "load_kit", "report_json"]


def load_kit(catalog: bytes, number_facts: str) -> LocaleKit:
    """Make a locale kit from a compiled gettext catalog and a JSON object of number facts."""
    translations = gettext.GNUTranslations(io.BytesIO(catalog))
    return LocaleKit(translations=translations, numbers=NumberFacts(**json.loads(number_facts)))


def report_json(kit: LocaleKit, slug: str, raw_json: str) -> str:
    """Compute the calculator `slug` on the raw input texts in `raw_json` and return the report as JSON."""
    raw = json.loads(raw_json)
    return make_report(find(slug), raw if isinstance(raw, dict) else {}, kit).to_json()


def config_json(kit: LocaleKit, slug: str, text: str) -> str:
    """Read a pasted config.json for the calculator `slug`; return the inputs it fills and a message, as JSON."""
    return read_config(find(slug), text, kit).to_json()
