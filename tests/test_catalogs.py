"""The catalogs: well-formed, complete, placeholders intact, and in step with the sources."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from calculators.kernel.spec import Message, PluralMessage
from languages.catalog import catalog_path
from languages.locales import LOCALES, Locale
from site_builder.build import PROJECT
from site_builder.build.catalogs import PLACEHOLDER, message_problem, placeholder_problem

SOURCE_LOCALE = LOCALES[0]
TRANSLATED = [locale for locale in LOCALES if locale != SOURCE_LOCALE]


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, abort_invalid=True)


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.tag)
def test_catalog_passes_babel_checks(locale: Locale) -> None:
    catalog = _read(catalog_path(PROJECT, locale), locale.catalog)
    problems = [(message.id, [str(e) for e in errors]) for message, errors in catalog.check()]
    assert problems == []


@pytest.mark.parametrize("locale", TRANSLATED, ids=lambda locale: locale.tag)
def test_catalog_is_complete_with_intact_placeholders_and_markup(locale: Locale) -> None:
    catalog = _read(catalog_path(PROJECT, locale), locale.catalog)
    problems = [(message.lineno, message_problem(message)) for message in catalog if message.id]
    assert [problem for problem in problems if problem[1]] == []


def test_template_is_in_step_with_the_sources(tmp_path: Path) -> None:
    fresh = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "extract", "-F", "babel.cfg", "-k", "N_:1c,2", "-k", "NP_:1c,2,3", "-c", "Translators:",
         "--add-location=file", "--no-wrap", "-o", str(fresh), "."],
        cwd=PROJECT, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )  # fmt: skip
    committed = {(m.context, m.id) for m in _read(PROJECT / "locales" / "messages.pot") if m.id}
    extracted = {(m.context, m.id) for m in _read(fresh) if m.id}
    assert extracted == committed, "run scripts/update-catalogs"
    for locale in LOCALES:
        in_catalog = {(m.context, m.id) for m in _read(catalog_path(PROJECT, locale), locale.catalog) if m.id}
        assert in_catalog == committed, f"{locale.tag}: run scripts/update-catalogs"


def test_every_calculator_message_has_its_slug_as_context() -> None:
    from calculators import CALCULATORS

    template = _read(PROJECT / "locales" / "messages.pot")
    contexts = {m.context for m in template if m.id}
    for calculator in CALCULATORS:
        assert calculator.slug in contexts


def _messages(value: object) -> Iterator[Message | PluralMessage]:
    """Every message a declaration holds, at any depth of its dataclasses and tuples."""
    if isinstance(value, Message | PluralMessage):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _messages(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from _messages(item)


def test_every_message_a_calculator_declares_is_in_the_template() -> None:
    # A message built from a variable (N_(context, label) in a helper) is never extracted, so the page
    # would show it in English in every language; each must be in the template as declared.
    from calculators import CALCULATORS

    template = _read(PROJECT / "locales" / "messages.pot")
    extracted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    missing = [
        (calculator.slug, message)
        for calculator in CALCULATORS
        for message in _messages(calculator)
        if (message.context, message.text if isinstance(message, Message) else message.singular) not in extracted
    ]
    assert missing == []


def test_core_messages_carry_a_context() -> None:
    # Babel can only extract a context written as a literal; a variable silently drops it,
    # and the page then falls back to English. Every message from calculators/ needs one.
    template = _read(PROJECT / "locales" / "messages.pot")
    for message in template:
        if message.id and any(path.startswith("calculators/") for path, _ in message.locations):
            assert message.context, message.id


@pytest.mark.parametrize(
    ("sources", "translations", "ok"),
    [
        (("{n} GB",), ("{n} Go",), True),
        (("{n} GB",), ("Go",), False),
        (("{n} GB",), ("{n} {m} Go",), False),
        (("%(num)d sample", "%(num)d samples"), ("عينة واحدة", "عينتان", "%(num)d عينات"), True),
        (("%(num)d sample", "%(num)d samples"), ("%(num)d", "%(count)d"), False),
    ],
)
def test_placeholder_rules(sources: tuple[str, ...], translations: tuple[str, ...], ok: bool) -> None:
    assert (placeholder_problem(sources, translations) is None) is ok


def test_every_placeholder_has_a_translator_comment() -> None:
    template = _read(PROJECT / "locales" / "messages.pot")
    for message in template:
        texts = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.id and PLACEHOLDER.search(texts[-1]):
            assert message.auto_comments, f"no translator comment for {texts[0]!r}"


def test_no_brace_message_reads_as_a_percent_format() -> None:
    # "{share} % of" is "% o" to gettext's python-format check, which then fails every translation that
    # writes "% de" or "% du": a message must not hold "% " before a conversion letter by accident.
    template = _read(PROJECT / "locales" / "messages.pot")
    flagged = [str(m.id) for m in template if m.id and "python-format" in m.flags]
    assert [text for text in flagged if "{" in text] == []
    # The rest are templates' {% trans %} blocks, which mean it: a named %(field)s or an escaped %%.
    assert [text for text in flagged if "%(" not in text and "%%" not in text] == []
