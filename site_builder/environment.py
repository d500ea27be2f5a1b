"""One Jinja environment per locale: i18n extension, autoescape, the locale passed explicitly."""

from __future__ import annotations

import gettext
from datetime import date
from pathlib import Path

import latex2mathml.converter
from babel.dates import format_date
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from calculators import Message, NumberFacts, format_number

from .locales import Locale

__all__ = ["TEMPLATES", "make_environment", "math_markup"]

TEMPLATES = Path(__file__).parent / "templates"


def make_environment(locale: Locale, translations: gettext.GNUTranslations, facts: NumberFacts) -> Environment:
    """Return the environment that renders every page of `locale`."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]

    def translate(message: Message) -> str:
        return translations.pgettext(message.context, message.text)

    def number(value: float, fraction_digits: int = 2) -> str:
        return format_number(value, facts, fraction_digits)

    def long_date(iso: str) -> str:
        return format_date(date.fromisoformat(iso), format="long", locale=locale.cldr)

    env.globals.update(t=translate, number=number, locale=locale)
    env.filters.update(mathml=math_markup, long_date=long_date)
    return env


def math_markup(latex: str) -> Markup:
    """Render LaTeX as block MathML at build time, keeping the source as an annotation for copying."""
    mathml = latex2mathml.converter.convert(latex, display="block")
    head, _, rest = mathml.partition(">")
    inner = rest.removesuffix("</math>")
    annotation = f'<annotation encoding="application/x-tex">{escape(latex)}</annotation>'
    return Markup(f"{head}><semantics>{inner}{annotation}</semantics></math>")
