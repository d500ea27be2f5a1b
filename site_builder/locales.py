"""The site's locales and the CLDR facts each one hands to the browser."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

import babel
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol

from calculators import NumberFacts

__all__ = ["LOCALES", "Locale", "number_facts", "number_facts_json"]


@dataclass(frozen=True)
class Locale:
    """A language the site is published in.

    `tag` is the BCP 47 spelling used in `lang` and `hreflang` (zh-TW);
    `folder` the lower-case URL segment (zh-tw); `catalog` the gettext
    directory name under locales/ (zh_TW); `cldr` Babel's identifier.
    """

    tag: str
    name: str
    cldr: str
    direction: str = "ltr"

    @property
    def folder(self) -> str:
        """Return the URL segment of the locale's pages."""
        return self.tag.lower()

    @property
    def catalog(self) -> str:
        """Return the gettext name of the locale's catalog folder."""
        return self.tag.replace("-", "_")


LOCALES: tuple[Locale, ...] = (
    Locale(tag="en", name="English", cldr="en"),
    Locale(tag="zh-TW", name="繁體中文", cldr="zh_Hant_TW"),
)


def number_facts(locale: Locale) -> NumberFacts:
    """Read the decimal-pattern facts of `locale` from Babel's CLDR data."""
    cldr = babel.Locale.parse(locale.cldr)
    primary, secondary = cldr.decimal_formats[None].grouping
    # The negative prefix may carry direction marks (as in Arabic); take it from Babel as it writes it.
    minus = format_decimal(-1, locale=cldr)[:-1]
    return NumberFacts(
        decimal=get_decimal_symbol(cldr),
        group=get_group_symbol(cldr),
        minus=minus,
        primary_group=primary,
        secondary_group=secondary,
    )


def number_facts_json(locale: Locale) -> str:
    """Return the facts of `locale` as the JSON the browser worker loads."""
    return json.dumps(dataclasses.asdict(number_facts(locale)), ensure_ascii=False, sort_keys=True)
