"""What a translator can break, and cannot: markup and placeholders are checked where catalogs compile.

Each catalog here is a few messages in a temporary `.po` file, compiled by `read_catalog` as the
build, `serve` and the browser worker's catalogs are; the pages' side renders inline templates.
"""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest
from markupsafe import Markup

from calculators import LocaleKit, find, make_report
from calculators.kernel.numbers import PLAIN
from languages.locales import LOCALES
from site_builder.build.catalogs import browser_catalogs, read_catalog
from site_builder.build.environment import make_environment

GERMAN = next(locale for locale in LOCALES if locale.tag == "de")
HEADER = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
)
TEMPLATE = "site_builder/templates/calculator.html"
CORE = "calculators/report.py"
LINK = 'See <a href="%(paper)s">the paper</a>, <code>x</code>.'
CITED = 'Read <a href="https://arxiv.org/abs/2205.05198">the paper</a>.'


def _po(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _catalog(tmp_path: Path, *entries: tuple[str, str, str, str]) -> Path:
    """Write a German catalog of (location, context, source, translation) entries."""
    blocks = [HEADER]
    for location, context, source, translation in entries:
        context_line = f"msgctxt {_po(context)}\n" if context else ""
        blocks.append(f"#: {location}\n{context_line}msgid {_po(source)}\nmsgstr {_po(translation)}\n")
    path = tmp_path / "messages.po"
    path.write_text("\n".join(blocks), encoding="utf-8")
    return path


def _problems(tmp_path: Path, location: str, source: str, translation: str) -> list[str]:
    _, problems = read_catalog(_catalog(tmp_path, (location, "", source, translation)), GERMAN, source=False)
    return [problem.reason for problem in problems]


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        # A German translation that redirected German readers elsewhere.
        ("Breadcrumbs", 'Brotkrumen<meta http-equiv="refresh" content="0; url=https://example.org/">'),
        ("Breadcrumbs", "<b>Brotkrumen</b>"),
        ("Breadcrumbs", "Brotkrumen <!-- hidden -->"),
        (LINK, 'Siehe <a href="%(paper)s">den Artikel</a>, <code>x</code>, <a href="https://example.org/">hier</a>.'),
        (CITED, 'Lesen Sie <a href="https://example.org/">den Artikel</a>.'),
        (LINK, 'Siehe <a href="%(paper)s" onclick="steal()">den Artikel</a>, <code>x</code>.'),
        (LINK, 'Siehe <code>x</code>, <a href="%(paper)s">den Artikel</a>.'),  # the tags out of order
        (LINK, 'Siehe <a href="%(paper)s">den Artikel</a>, x.'),  # one dropped
        (LINK, 'Siehe <a href="%(paper)s">den Artikel</a>, <code>x</code> <img src=x onerror="a()"'),  # unclosed
        (LINK, 'Siehe <a href="%(paper)s">den Artikel</a>, <code>x</code>.</p><p>'),
        ("Breadcrumbs", "Brot&amp;Krumen"),  # prose is escaped: the reference would show as written
    ],
)
def test_a_translation_cannot_change_the_markup(tmp_path: Path, source: str, translation: str) -> None:
    reasons = _problems(tmp_path, TEMPLATE, source, translation)
    assert len(reasons) == 1 and ("markup differs" in reasons[0] or "character reference" in reasons[0])


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        ("Breadcrumbs", "Brotkrumen < Pfad"),
        ("Breadcrumbs", 'Krumen "Brot" & Pfad'),
        (LINK, 'Siehe <a href="%(paper)s">den Artikel</a> (<code>x</code>, 3 < 4 &amp; mehr).'),
    ],
)
def test_text_around_the_sources_tags_is_the_translators(tmp_path: Path, source: str, translation: str) -> None:
    assert _problems(tmp_path, TEMPLATE, source, translation) == []


@pytest.mark.parametrize(
    ("location", "source", "translation", "reason"),
    [
        (CORE, "Enter {limit} or more.", "Geben Sie {limit:>50000000} oder mehr ein.", "not a plain {name}"),
        (CORE, "Enter {limit} or more.", "Geben Sie {0} oder mehr ein.", "not a plain {name}"),
        (CORE, "Enter {limit} or more.", "Geben Sie {limit!r} oder mehr ein.", "not a plain {name}"),
        (CORE, "Enter {limit} or more.", "Geben Sie {limit.real} oder mehr ein.", "not a plain {name}"),
        (CORE, "Enter {limit} or more.", "Geben Sie {limit oder mehr ein.", "stray brace"),
        (CORE, "Enter a value.", "Geben Sie einen { Wert ein.", "stray brace"),
        (CORE, "Enter a value.", "Geben Sie {value} ein.", "placeholders differ"),
        (CORE, "Enter {limit} or more.", "Geben Sie {grenze} oder mehr ein.", "placeholders differ"),
        (TEMPLATE, "Feedback: %(title)s", "Rückmeldung zu 100 %: %(title)s", "a lone %"),
        (TEMPLATE, "Feedback: %(title)s", "Rückmeldung: %(title)50000s", "a lone %"),
        (TEMPLATE, "Feedback: %(title)s", "Rückmeldung: %s", "a lone %"),
        (TEMPLATE, "Feedback: %(title)s", "Rückmeldung: %(title)d", "placeholders differ"),
        (TEMPLATE, "Breadcrumbs", "100 % Brotkrumen", "a lone %"),
        (TEMPLATE, "Generated on %(date)s", "Erstellt am %(datum)s", "placeholders differ"),
    ],
)
def test_placeholders_match_the_source_exactly(
    tmp_path: Path, location: str, source: str, translation: str, reason: str
) -> None:
    reasons = _problems(tmp_path, location, source, translation)
    assert len(reasons) == 1 and reason in reasons[0]


@pytest.mark.parametrize(
    ("location", "source", "translation"),
    [
        (CORE, "The overhead is {share}%.", "Der Zuschlag beträgt {share} %."),  # the core formats with braces only
        (CORE, "Enter a value.", "Geben Sie einen Wert ein (100 %)."),
        (TEMPLATE, "Feedback: %(title)s", "Rückmeldung zu 100 %%: %(title)s"),
        (TEMPLATE, "Generated on %(date)s", "Erstellt am %(date)s"),
    ],
)
def test_a_percent_sign_is_text_where_nothing_percent_formats(
    tmp_path: Path, location: str, source: str, translation: str
) -> None:
    assert _problems(tmp_path, location, source, translation) == []


def test_a_fault_names_the_catalog_and_line_and_falls_back_to_english(tmp_path: Path) -> None:
    path = _catalog(
        tmp_path,
        (TEMPLATE, "", "Home", "Startseite"),
        (TEMPLATE, "", "Breadcrumbs", 'Brotkrumen<meta http-equiv="refresh" content="0; url=https://example.org/">'),
    )
    mo, problems = read_catalog(path, GERMAN, source=False)
    (problem,) = problems
    line = path.read_text(encoding="utf-8").splitlines().index('msgid "Breadcrumbs"') + 1
    assert (problem.path, problem.line, problem.message) == (path, line, "Breadcrumbs")
    assert str(problem).startswith(f"{path}:{line}: markup differs")
    translations = gettext.GNUTranslations(io.BytesIO(mo))
    assert (translations.gettext("Home"), translations.gettext("Breadcrumbs")) == ("Startseite", "Breadcrumbs")


def test_the_core_formats_only_checked_translations(tmp_path: Path) -> None:
    # A "too small" message 50 MB long: the worker's catalog is cut from the checked one, so it gets English.
    message = ("validation", "Enter a number greater than {limit}.")
    path = _catalog(tmp_path, (CORE, *message, "Eine Zahl über {limit:>50000000}."))
    mo, problems = read_catalog(path, GERMAN, source=False)
    assert len(problems) == 1
    calculator = find("llm-training-vram")
    worker_mo = browser_catalogs(mo, {calculator.slug: frozenset({message})})
    kit = LocaleKit(gettext.GNUTranslations(io.BytesIO(worker_mo[calculator.slug])), PLAIN)
    report = make_report(calculator, {**calculator.defaults(), "params_billion": "-1"}, kit)
    assert [error.message for error in report.errors] == ["Enter a number greater than 0."]


def _render(tmp_path: Path, template: str, *entries: tuple[str, str, str, str], **context: object) -> str:
    mo, _ = read_catalog(_catalog(tmp_path, *entries), GERMAN, source=False)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "page.html").write_text(template, encoding="utf-8")
    env = make_environment(GERMAN, gettext.GNUTranslations(io.BytesIO(mo)), PLAIN, templates)
    return env.get_template("page.html").render(**context)


def test_prose_is_escaped_and_checked_markup_is_kept(tmp_path: Path) -> None:
    page = _render(
        tmp_path,
        "<nav aria-label=\"{{ _('Breadcrumbs') }}\"></nav>"
        '<p>{% trans paper=url %}See <a href="{{ paper }}">the paper</a>, <code>x</code>.{% endtrans %}</p>'
        "<p>{{ pgettext('article', 'Q & A') }}</p>",
        (TEMPLATE, "", "Breadcrumbs", 'Brot" onmouseover="steal()'),
        (TEMPLATE, "", LINK, 'Siehe <a href="%(paper)s">den Artikel</a>, <code>x</code> & mehr.'),
        (TEMPLATE, "article", "Q & A", 'Fragen & "Antworten" <3'),
        url='https://example.org/?a=1&b="2"',
    )
    assert '<nav aria-label="Brot&#34; onmouseover=&#34;steal()"></nav>' in page
    link = '<a href="https://example.org/?a=1&amp;b=&#34;2&#34;">den Artikel</a>'
    assert f"<p>Siehe {link}, <code>x</code> & mehr.</p>" in page
    assert "<p>Fragen &amp; &#34;Antworten&#34; &lt;3</p>" in page


def test_a_broken_translation_leaves_the_page_in_english(tmp_path: Path) -> None:
    # Before the check, a lone % raised at render time, blamed the template and stopped `serve`.
    page = _render(
        tmp_path,
        "<p>{% trans title=name %}Feedback: {{ title }}{% endtrans %}</p><p>{{ _('Home') }}</p>",
        (TEMPLATE, "", "Feedback: %(title)s", "Rückmeldung zu 100 %: %(title)s"),
        (TEMPLATE, "", "Home", "Startseite"),
        name=Markup("<i>GPU</i> count"),
    )
    assert page == "<p>Feedback: <i>GPU</i> count</p><p>Startseite</p>"
