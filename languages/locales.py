"""The site's locales and the CLDR facts each one hands to the browser."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import babel
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol

from calculators import NumberFacts

__all__ = ["LOCALES", "LOCALE_BY_TAG", "Locale", "number_facts", "number_facts_json"]


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
    Locale(tag="zh-CN", name="简体中文", cldr="zh_Hans_CN"),
    Locale(tag="ja", name="日本語", cldr="ja"),
    Locale(tag="ko", name="한국어", cldr="ko"),
    Locale(tag="es", name="Español", cldr="es"),
    Locale(tag="fr", name="Français", cldr="fr"),
    Locale(tag="de", name="Deutsch", cldr="de"),
    Locale(tag="pt-BR", name="Português (Brasil)", cldr="pt_BR"),
    Locale(tag="ar", name="العربية", cldr="ar", direction="rtl"),
)
"""The source locale first; it is also the fallback for any message a catalog lacks."""

LOCALE_BY_TAG: Mapping[str, Locale] = MappingProxyType({locale.tag: locale for locale in LOCALES})
"""Each locale under its BCP 47 tag."""


def number_facts(locale: Locale) -> NumberFacts:
    """Read the decimal-pattern facts of `locale` from Babel's CLDR data, in the locale's default digits."""
    cldr = babel.Locale.parse(locale.cldr)
    primary, secondary = cldr.decimal_formats[None].grouping
    system = "default"
    # Digits, and a negative prefix that may carry direction marks: take them as Babel writes them.
    digits = "".join(format_decimal(digit, locale=cldr, numbering_system=system) for digit in range(10))
    minus = format_decimal(-1, locale=cldr, numbering_system=system)[: -len(digits[1])]
    return NumberFacts(
        decimal=get_decimal_symbol(cldr, numbering_system=system),
        group=get_group_symbol(cldr, numbering_system=system),
        minus=minus,
        digits=digits,
        primary_group=primary,
        secondary_group=secondary,
        direction=locale.direction,
        money=_money_pattern(cldr),
    )


def _money_pattern(cldr: babel.Locale) -> tuple[str, str, str, str]:
    """Read the locale's standard currency pattern around the number, "¤" for the ISO code.

    CLDR's currency spacing puts a no-break space between a code and the digits beside it ("USD 1,234.50");
    Babel leaves it out ("USD1,234.50"), so it is added here, as browsers' Intl.NumberFormat does.
    """
    pattern = cldr.currency_formats["standard"]
    (prefix, negative_prefix), (suffix, negative_suffix) = pattern.prefix, pattern.suffix

    def spaced(text: str, *, before_number: bool) -> str:
        if before_number and text.endswith("¤"):
            return text + "\u00a0"
        if not before_number and text.startswith("¤"):
            return "\u00a0" + text
        return text

    return (
        spaced(prefix, before_number=True),
        spaced(suffix, before_number=False),
        spaced(negative_prefix, before_number=True),
        spaced(negative_suffix, before_number=False),
    )


def number_facts_json(locale: Locale) -> str:
    """Return the facts of `locale` as the JSON the browser worker loads."""
    return json.dumps(dataclasses.asdict(number_facts(locale)), ensure_ascii=False, sort_keys=True)
