"""Locale numbers: the core's formatter agrees with Babel; the reader accepts what readers type."""

from __future__ import annotations

import re
from decimal import Decimal

import babel
import pytest
from babel.numbers import format_currency, format_decimal, get_currency_precision
from hypothesis import given
from hypothesis import strategies as st

from calculators import PLAIN, NumberFacts, format_number, parse_number
from calculators.kernel.numbers import CURRENCIES, Currency, format_money, format_scientific
from languages.locales import LOCALES, Locale, number_facts

# The site's locales plus those the site is about to grow into, to keep the facts honest.
CLDR_IDS = sorted({locale.cldr for locale in LOCALES} | {"de", "fr", "es", "pt_BR", "ar", "ja", "ko", "zh_Hans_CN"})
SAMPLES = [0.0, 0.5, 1.0, 2.0, 4.25, 32.0, 112.0, 999.995, 1234.5, 1234567.891, 0.125, 2.675, 1e-7, 98765432.1, -3.5]


def _babel_reference(value: float, cldr: str, fraction_digits: int) -> str:
    locale = babel.Locale.parse(cldr)
    integer_pattern = locale.decimal_formats[None].pattern.split(".")[0].split(";")[0]
    pattern = integer_pattern + ("." + "#" * fraction_digits if fraction_digits else "")
    return format_decimal(value, format=pattern, locale=locale)


@pytest.mark.parametrize("cldr", CLDR_IDS)
@pytest.mark.parametrize("fraction_digits", [0, 2, 4])
def test_format_number_matches_babel(cldr: str, fraction_digits: int) -> None:
    facts = number_facts(Locale(tag=cldr, name=cldr, cldr=cldr))
    for value in SAMPLES:
        assert format_number(value, facts, fraction_digits) == _babel_reference(value, cldr, fraction_digits), value


@given(st.floats(min_value=-1e15, max_value=1e15, allow_nan=False), st.integers(min_value=0, max_value=6))
def test_format_number_matches_babel_on_any_value(value: float, fraction_digits: int) -> None:
    for cldr in ("en", "de", "fr"):
        facts = number_facts(Locale(tag=cldr, name=cldr, cldr=cldr))
        assert format_number(value, facts, fraction_digits) == _babel_reference(value, cldr, fraction_digits)


def test_french_uses_narrow_no_break_space() -> None:
    facts = number_facts(Locale(tag="fr", name="fr", cldr="fr"))
    assert format_number(1234567.5, facts, 2) == "1\u202f234\u202f567,5"


GERMAN = NumberFacts(decimal=",", group=".")
FRENCH = NumberFacts(decimal=",", group="\u202f")


@pytest.mark.parametrize(
    ("text", "facts", "expected"),
    [
        ("4", PLAIN, Decimal(4)),
        (" 0.5 ", PLAIN, Decimal("0.5")),
        ("1,234.5", PLAIN, Decimal("1234.5")),
        ("1,234,567", PLAIN, Decimal(1234567)),
        ("1e3", PLAIN, Decimal(1000)),
        (".5", PLAIN, Decimal("0.5")),
        ("-2", PLAIN, Decimal(-2)),
        ("\u22122", PLAIN, Decimal(-2)),
        ("\uff14", PLAIN, Decimal(4)),  # full-width digit from an IME
        ("\uff10\uff0e\uff15", PLAIN, Decimal("0.5")),
        ("\u0663", PLAIN, Decimal(3)),  # Arabic-Indic three
        ("0,5", GERMAN, Decimal("0.5")),
        ("0.5", GERMAN, Decimal("0.5")),
        ("1\u202f234,5", FRENCH, Decimal("1234.5")),
        ("1 234,5", FRENCH, Decimal("1234.5")),
        ("\u0661\u0662\u066b\u0665", PLAIN, Decimal("12.5")),  # the Arabic decimal separator
        ("\u0661\u066c\u0662\u0663\u0664", PLAIN, Decimal(1234)),  # the Arabic thousands separator
        ("\u061c-\u0663", PLAIN, Decimal(-3)),  # CLDR's Arabic minus carries a letter mark
        ("12\u066b5", GERMAN, Decimal("12.5")),
        ("10²³", PLAIN, Decimal("1e23")),  # as the site writes FLOP counts
        ("3.14 × 10²³", PLAIN, Decimal("3.14e23")),
        ("3,14 × 10²³", GERMAN, Decimal("3.14e23")),
        ("1.2 × 10⁻⁵", PLAIN, Decimal("1.2e-5")),
        ("6x10^23", PLAIN, Decimal("6e23")),
        ("10^-3", PLAIN, Decimal("0.001")),
    ],
)
def test_parse_number_reads(text: str, facts: NumberFacts, expected: Decimal) -> None:
    assert parse_number(text, facts) == expected


@pytest.mark.parametrize(
    "text",
    ["", "abc", "NaN", "nan", "Infinity", "inf", "0x10", "1_000", "1,23", "12,34,567", "1..2", "1.2.3", "--1", "4 4",
     "1e", "e5", "1" * 10_000, "<script>", "0,5",
     "2²", "10²³4", "1²³", "× 10²³", "10^", "10^1.5", "10^99999", "1,234\u066c567"],
)  # fmt: skip
def test_parse_number_rejects(text: str) -> None:
    assert parse_number(text, PLAIN) is None


@pytest.mark.parametrize("cldr", CLDR_IDS)
def test_the_scientific_notation_the_site_writes_reads_back(cldr: str) -> None:
    facts = number_facts(Locale(tag=cldr, name=cldr, cldr=cldr))
    for value in (3.14e23, 1.5e-7, 2e28, 6.02e23):
        written = format_scientific(value, facts, 2)
        assert parse_number(written, facts) == Decimal(repr(value)), written


@given(st.text(max_size=40))
def test_parse_number_never_raises(text: str) -> None:
    result = parse_number(text, PLAIN)
    assert result is None or result.is_finite()


def _babel_money(value: float, code: str, cldr: str) -> str:
    """Babel's standard currency format with the ISO code, plus CLDR's currency spacing, which Babel leaves out."""
    pattern = babel.Locale.parse(cldr).currency_formats["standard"].pattern.replace("¤", "¤¤")
    written = format_currency(
        value, code, format=pattern, locale=cldr, currency_digits=True, numbering_system="default"
    )
    return re.sub(r"(?<=\d)(?=[A-Z]{3})", "\u00a0", re.sub(r"(?<=[A-Z]{3})(?=\d)", "\u00a0", written))


@pytest.mark.parametrize("cldr", CLDR_IDS)
@pytest.mark.parametrize("currency", CURRENCIES, ids=lambda c: c.code)
def test_money_matches_babel_with_the_iso_code(cldr: str, currency: Currency) -> None:
    # Amounts large enough that four significant digits need no more decimals than the currency's own.
    facts = number_facts(Locale(tag=cldr, name=cldr, cldr=cldr))
    for value in (1234.5, 98765.4321, -1500.25, 1_000_000_000.0, 0.0):
        assert format_money(value, currency, facts) == _babel_money(value, currency.code, cldr), value


def test_currency_decimals_are_cldrs() -> None:
    assert all(currency.digits == get_currency_precision(currency.code) for currency in CURRENCIES)


def test_small_amounts_keep_four_significant_digits() -> None:
    # A price per token would read "USD 0.00" at the currency's two decimals.
    english = number_facts(LOCALES[0])
    assert format_money(0.0000025, CURRENCIES[0], english) == "USD\u00a00.0000025"
    assert format_money(0.123456, CURRENCIES[0], english) == "USD\u00a00.1235"
    assert format_money(-0.001, CURRENCIES[0], english) == "-USD\u00a00.001"


def test_the_currency_menu_follows_the_currencies() -> None:
    # A choice's number is the index of its currency: the menu and the table may not drift apart.
    from calculators.vocabulary.cost import CURRENCY

    assert [(c.value, c.numeric) for c in CURRENCY.choices] == [(c.code, str(i)) for i, c in enumerate(CURRENCIES)]


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.tag)
def test_money_that_is_not_zero_is_never_written_as_zero(locale: Locale) -> None:
    # Below 5 × 10⁻⁹ eight decimals round to "USD 0.00": a price per token of a cheap model, say.
    facts = number_facts(locale)
    for value in (4.9e-9, -3e-12, 1e-300, 5e-324):
        written = format_money(value, CURRENCIES[0], facts)
        assert any(digit in written for digit in facts.digits[1:]), written
        negative = format_money(-1.0, CURRENCIES[0], facts)
        assert (value < 0) == written.startswith(negative[: negative.index("1") if "1" in negative else 1]), written
