"""Locale numbers without Babel: formatting and reading, from a few CLDR facts.

The build extracts `NumberFacts` for each locale from Babel's CLDR data and
hands them to this module, at build time and in the browser alike, so a number
is written the same way in the prerendered page and the live one. A test holds
`format_number` to Babel's own `format_decimal`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation

__all__ = [
    "CURRENCIES",
    "PLAIN",
    "SIGNIFICANT_DIGITS",
    "Currency",
    "NumberFacts",
    "format_money",
    "format_number",
    "format_scientific",
    "parse_number",
    "readable_fraction_digits",
]


@dataclass(frozen=True)
class NumberFacts:
    """What a locale's decimal pattern needs: symbols, digits and group sizes."""

    decimal: str = "."
    group: str = ","
    minus: str = "-"
    digits: str = "0123456789"
    primary_group: int = 3
    secondary_group: int = 3
    direction: str = "ltr"
    """How the locale's sentences run ("rtl" for Arabic): numbers and units in them are isolated then."""
    money: tuple[str, str, str, str] = ("¤\u00a0", "", "-¤\u00a0", "")
    """The locale's standard currency pattern around the number (positive prefix and suffix, negative prefix and
    suffix), "¤" standing for the currency's ISO code, with CLDR's currency spacing applied: "USD 1,234.50" in
    English, "1.234,50 USD" in German."""


_WIDE = Context(prec=80)  # room for any float written out in full

PLAIN = NumberFacts()
"""Facts for machine-readable numbers: the C locale's symbols, no grouping surprises."""

SIGNIFICANT_DIGITS = 4
"""The site's one precision policy: a derived figure is written to 4 significant digits (its whole part always in
full), since its inputs (a parameter count in billions, bytes per parameter, an overhead) rarely justify more.
"""


def readable_fraction_digits(value: float, most: int, significant: int = SIGNIFICANT_DIGITS) -> int:
    """Return the fraction digits that write `value` to `significant` digits (at most `most`), its whole part in full.

    >>> [readable_fraction_digits(v, 9) for v in (671.0264192, 37.552297472, 20.3456, 1120.4, 123456.7, 0.00123456)]
    [1, 2, 2, 0, 0, 6]
    >>> readable_fraction_digits(16.060522496, 2), readable_fraction_digits(0.0, 2)
    (2, 2)
    """
    if value == 0:
        return most
    magnitude = Decimal(repr(value) if isinstance(value, float) else value).adjusted()  # ⌊log₁₀ |value|⌋, exactly
    return max(0, min(most, significant - 1 - magnitude))


def format_number(value: float, facts: NumberFacts, fraction_digits: int, *, grouping: bool = True) -> str:
    """Write `value` rounded half-even to at most `fraction_digits` digits, as Babel would.

    >>> format_number(1234567.891, PLAIN, 2)
    '1,234,567.89'
    >>> format_number(0.5, NumberFacts(decimal=",", group="."), 2)
    '0,5'
    >>> format_number(2.0, PLAIN, 2)
    '2'
    """
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    negative = number.is_signed()
    quantum = Decimal(1).scaleb(-fraction_digits)
    rounded = abs(number).quantize(quantum, rounding=ROUND_HALF_EVEN, context=_WIDE)
    whole, _, fraction = f"{rounded:f}".partition(".")
    fraction = fraction.rstrip("0")
    if grouping:
        whole = _group(whole, facts)
    text = whole + (facts.decimal + fraction if fraction else "")
    if facts.digits != PLAIN.digits:
        text = text.translate(str.maketrans(PLAIN.digits, facts.digits))
    # Babel keeps the sign of a value that rounds to zero ("-0"); so do we, to agree with it.
    return facts.minus + text if negative else text


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def format_scientific(value: float, facts: NumberFacts, fraction_digits: int) -> str:
    """Write `value` as a mantissa times a power of ten, the way papers print FLOP counts.

    The mantissa is written with the locale's symbols; the exponent in superscript digits,
    which every script on the site reads the same way.

    >>> format_scientific(3.143e23, PLAIN, 2)
    '3.14 × 10²³'
    >>> format_scientific(1.2e-5, NumberFacts(decimal=","), 2)
    '1,2 × 10⁻⁵'
    >>> format_scientific(0.0, PLAIN, 2)
    '0'
    """
    if value == 0:
        return format_number(0.0, facts, fraction_digits)
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    exponent = number.adjusted()
    mantissa = number.scaleb(-exponent)
    if abs(mantissa.quantize(Decimal(1).scaleb(-fraction_digits), rounding=ROUND_HALF_EVEN, context=_WIDE)) >= 10:
        exponent += 1  # 9.996e23 rounds to 10.00 × 10²³: write 1 × 10²⁴ instead
        mantissa = number.scaleb(-exponent)
    written = format_number(float(mantissa), facts, fraction_digits, grouping=False)
    return f"{written} × 10{str(exponent).translate(_SUPERSCRIPTS)}"


@dataclass(frozen=True)
class Currency:
    """A currency prices can be entered in: its ISO 4217 code and the decimals its amounts are written with."""

    code: str
    digits: int


CURRENCIES: tuple[Currency, ...] = (
    Currency("USD", 2),
    Currency("EUR", 2),
    Currency("GBP", 2),
    Currency("JPY", 0),
    Currency("CNY", 2),
    Currency("TWD", 2),
    Currency("KRW", 0),
    Currency("INR", 2),
    Currency("BRL", 2),
    Currency("CAD", 2),
)
"""ISO 4217 minor units as CLDR writes amounts (TWD cash has none, but prices are quoted in cents); a test holds
them to Babel's `get_currency_precision`. Amounts are never converted: the code names what the reader entered."""


def format_money(value: float, currency: Currency, facts: NumberFacts) -> str:
    r"""Write an amount in the locale's currency pattern with the ISO code, to 4 significant digits.

    Never fewer decimals than the currency's own (so cents show), as many more as a small amount needs (a price
    per token), and an amount too small for eight decimals in scientific notation, never as zero.

    >>> format_money(1234.5, CURRENCIES[0], PLAIN), format_money(0.00025, CURRENCIES[0], PLAIN)
    ('USD\xa01,234.50', 'USD\xa00.00025')
    >>> format_money(4.2e-9, CURRENCIES[0], PLAIN)
    'USD\xa04.2 × 10⁻⁹'
    >>> german = NumberFacts(decimal=",", group=".", money=("", "\xa0¤", "-", "\xa0¤"))
    >>> format_money(-1234.5, CURRENCIES[3], german), format_money(12.3456, CURRENCIES[1], german)
    ('-1.234\xa0JPY', '12,35\xa0EUR')
    """
    digits = max(currency.digits, readable_fraction_digits(value, 8))
    number = format_number(abs(value), facts, digits)
    whole, _, fraction = number.partition(facts.decimal)
    if currency.digits and len(fraction) < currency.digits:  # cents are written even when zero: 1,234.50
        fraction = fraction.ljust(currency.digits, facts.digits[0])
        number = whole + facts.decimal + fraction
    rounds_to_zero = not any(ch in number for ch in facts.digits[1:])
    if rounds_to_zero and value:
        number, rounds_to_zero = format_scientific(abs(value), facts, SIGNIFICANT_DIGITS - 1), False
    prefix, suffix = facts.money[2:] if value < 0 and not rounds_to_zero else facts.money[:2]
    return (prefix + number + suffix).replace("¤", currency.code)


def _group(whole: str, facts: NumberFacts) -> str:
    size = facts.primary_group
    parts: list[str] = []
    while len(whole) > size:
        parts.insert(0, whole[-size:])
        whole = whole[:-size]
        size = facts.secondary_group
    return facts.group.join([whole, *parts])


_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# What format_scientific writes (3.14 × 10²³), and the same typed on a keyboard (3.14 x 10^23, 10^-5).
_POWER_OF_TEN = re.compile(
    r"(?:(?P<mantissa>.*?)\s*[×xX*·⋅]\s*)?10(?:\^\s*(?P<typed>[+\-\u2212]?\d{1,4})|(?P<raised>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4}))"
)
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SPACES = frozenset({" ", "\u00a0", "\u202f", "\u2009"})
_MINUS_SIGNS = frozenset({"\u2212", "\u2012", "\u2013", "\ufe63", "\uff0d"})
_BIDI_MARKS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u2066\u2067\u2068\u2069"))
_ARABIC_DECIMAL, _ARABIC_GROUP = "\u066b", "\u066c"  # typed on Arabic keyboards, in any locale


def parse_number(text: str, facts: NumberFacts) -> Decimal | None:
    """Read what a reader of the locale typed, or return None if it is not a number.

    A point is always a decimal mark; so is the locale's own decimal symbol, and
    the Arabic decimal separator. The locale's group symbol (and the Arabic one)
    is accepted only between groups of three digits. Full-width and native
    digits are read as digits. A power of ten is read as the site writes it
    (3.14 × 10²³) or as a keyboard types it (3.14 x 10^23, 10^-5); any other
    superscript is refused, never read as a digit. Hexadecimal, underscores,
    NaN and infinities are not numbers here.

    >>> parse_number("1,234.5", PLAIN)
    Decimal('1234.5')
    >>> parse_number("0,5", NumberFacts(decimal=",", group="."))
    Decimal('0.5')
    >>> parse_number("\\uff14", PLAIN)
    Decimal('4')
    >>> parse_number("1_000", PLAIN) is None
    True
    >>> parse_number("3,14 × 10²³", NumberFacts(decimal=",", group="."))
    Decimal('3.14E+23')
    >>> parse_number("10²³", PLAIN), parse_number("2²", PLAIN)
    (Decimal('1E+23'), None)
    >>> parse_number("\\u0661\\u066c\\u0662\\u0663\\u0664\\u066b\\u0665", PLAIN)
    Decimal('1234.5')
    """
    if len(text) > 100:
        return None
    text = text.translate(_BIDI_MARKS).strip()
    power = _POWER_OF_TEN.fullmatch(text)
    if power:
        return _scaled(power["mantissa"], power["typed"] or power["raised"], facts)
    if any(ch in _FROM_SUPERSCRIPT for ch in map(ord, text)):
        return None  # NFKC would read 10²³ as 1023
    chars = [_ascii_char(ch) for ch in unicodedata.normalize("NFKC", text)]
    group = facts.group if facts.group not in (".", facts.decimal) else ""
    if group in _SPACES:
        group = " "
    written = "".join(chars).replace(facts.decimal, ".").replace(_ARABIC_DECIMAL, ".")
    candidate = _drop_groups(written, _ARABIC_GROUP) if _ARABIC_GROUP in written else written
    if candidate is not None and group:
        candidate = _drop_groups(candidate, group)
    if candidate is None or not _NUMBER.fullmatch(candidate):
        return None
    try:
        number = Decimal(candidate)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid literals
        return None
    return number if number.is_finite() else None


def _scaled(mantissa: str | None, exponent: str, facts: NumberFacts) -> Decimal | None:
    """Read `mantissa` × 10^`exponent`, the exponent written in superscript or ASCII digits."""
    if mantissa is not None and not mantissa:
        return None  # "× 10²³" with nothing before it
    base = parse_number(mantissa, facts) if mantissa is not None else Decimal(1)
    power = int(exponent.translate(_FROM_SUPERSCRIPT).replace("\u2212", "-"))
    return base.scaleb(power) if base is not None else None


def _ascii_char(ch: str) -> str:
    if ch in _SPACES:
        return " "
    if ch in _MINUS_SIGNS:
        return "-"
    if not ch.isascii() and ch.isdecimal():
        return str(unicodedata.decimal(ch))
    return ch


def _drop_groups(text: str, group: str) -> str | None:
    """Remove group separators that sit between groups of three digits; reject others."""
    if group not in text:
        return text
    sign = text[0] if text[:1] in "+-" else ""
    whole, dot, rest = text[len(sign) :].partition(".")
    head, *groups = whole.split(group)
    if not (1 <= len(head) <= 3 and head.isdigit()) or not all(len(g) == 3 and g.isdigit() for g in groups):
        return None
    if group in rest:
        return None
    return sign + head + "".join(groups) + dot + rest
