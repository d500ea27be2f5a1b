"""One Jinja environment per locale: i18n extension, autoescape, the locale passed explicitly."""

from __future__ import annotations

import gettext
import inspect
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import babel
import latex2mathml.converter
from babel.dates import format_date
from jinja2 import (
    BaseLoader,
    BytecodeCache,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateNotFound,
    TemplateSyntaxError,
    meta,
)
from jinja2.bccache import Bucket
from markupsafe import Markup, escape

from calculators import Calculator, Message, NumberFacts, format_number
from calculators.kernel.numbers import CURRENCIES, format_money
from languages.locales import Locale
from site_builder import folders

from .bidi import isolate_prose
from .catalogs import is_markup
from .errors import BuildError
from .extraction import with_context

__all__ = [
    "TEMPLATES",
    "ArticleLoader",
    "MathCache",
    "MemoryBytecodeCache",
    "article_name",
    "article_path",
    "faq_entries",
    "make_environment",
    "math_markup",
    "template_users",
]

TEMPLATES = folders.TEMPLATES


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates shared by the locales' environments: each template compiles once per build."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill `bucket` from the cache when its source has not changed."""
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a compiled template."""
        self._code[bucket.key] = bucket.bytecode_to_string()


def article_path(calculator: Calculator) -> Path:
    """Return the article of `calculator`: `article.html` beside the module that defines its formula."""
    return Path(inspect.getfile(calculator.compute)).with_name("article.html")


def article_name(calculator: Calculator) -> str:
    """Return the template name a calculator's article is loaded under."""
    return f"articles/{calculator.slug}.html"


class ArticleLoader(BaseLoader):
    """Loads each calculator's article from its own folder, as `articles/<slug>.html`."""

    def __init__(self, calculators: Sequence[Calculator]) -> None:
        # Each template name: the article file and the slug its messages are looked up under.
        self.articles: Mapping[str, tuple[Path, str]] = {
            article_name(c): (article_path(c), c.slug) for c in calculators
        }

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """Return the article's source, its file name (for error locations) and an up-to-date check.

        Its `{% trans %}` blocks that name no context are its calculator's, as extraction reads them.
        """
        path, slug = self.articles.get(template, (None, ""))
        if path is None or not path.is_file():
            raise TemplateNotFound(template)
        modified = path.stat().st_mtime_ns
        source = with_context(path.read_text(encoding="utf-8"), slug)
        return source, str(path), lambda: path.stat().st_mtime_ns == modified


def math_markup(latex: str) -> Markup:
    """Render LaTeX as block MathML at build time, keeping the source as an annotation for copying."""
    mathml = latex2mathml.converter.convert(latex, display="block")
    head, _, rest = mathml.partition(">")
    inner = rest.removesuffix("</math>")
    annotation = f'<annotation encoding="application/x-tex">{escape(latex)}</annotation>'
    return Markup(f"{head}><semantics>{inner}{annotation}</semantics></math>")


class MathCache:
    """LaTeX rendered to MathML once per build (or dev-server session), for whichever locale asks first.

    The same formulas appear on every locale's page and in every article: converting them is the
    costliest filter of a build, and its result depends on the LaTeX alone.
    """

    def __init__(self) -> None:
        self._markup: dict[str, Markup] = {}

    def __call__(self, latex: str) -> Markup:
        """Return `math_markup(latex)`, converting it only the first time."""
        if latex not in self._markup:
            self._markup[latex] = math_markup(latex)
        return self._markup[latex]


def make_environment(
    locale: Locale,
    translations: gettext.GNUTranslations,
    facts: NumberFacts,
    templates: Path = TEMPLATES,
    bytecode_cache: BytecodeCache | None = None,
    calculators: Sequence[Calculator] = (),
    mathml: Callable[[str], Markup] = math_markup,
) -> Environment:
    """Return the environment that renders every page of `locale`: shared templates, then the calculators' articles."""
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(templates), ArticleLoader(calculators)]),
        bytecode_cache=bytecode_cache,
        autoescape=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(**_escaping_gettext(translations), newstyle=True)  # type: ignore[attr-defined]

    def translate(message: Message) -> str:
        return translations.pgettext(message.context, message.text)

    def number(value: float, fraction_digits: int = 2) -> str:
        return format_number(value, facts, fraction_digits)

    def long_date(iso: str) -> str:
        return format_date(date.fromisoformat(iso), format="long", locale=locale.cldr)

    def dollars(value: float) -> str:
        return format_money(value, CURRENCIES[0], facts)  # every list price on the site is in US dollars

    def bidi_isolated(body: str) -> Markup:
        return isolate_prose(body, locale.direction)

    # What CLDR puts between a number and its percent sign: nothing in English or Chinese, a no-break space in
    # French or German ("57.1%", "57,1 %").
    pattern = babel.Locale.parse(locale.cldr).percent_formats[None].pattern
    percent_gap = "\xa0" if re.search(r"[\s\xa0\u202f]%", pattern) else ""

    def unit_gap(unit: str) -> str:
        return percent_gap if unit == "%" else "\xa0"

    env.globals.update(t=translate, number=number, dollars=dollars, locale=locale, faq_entries=faq_entries)
    env.globals.update(percent_gap=percent_gap, unit_gap=unit_gap)
    env.filters.update(mathml=mathml, long_date=long_date, bidi_isolated=bidi_isolated)
    return env


def _escaping_gettext(translations: gettext.GNUTranslations) -> dict[str, Callable[..., Markup]]:
    """Return the gettext, ngettext, pgettext and npgettext templates call, each giving markup.

    Jinja marks every translation safe under autoescape. Here only a translation whose source
    is markup stays HTML (its catalog was checked to hold the source's tags only, see
    `catalogs.markup_problem`); a prose source's translation is escaped, so no translation can
    add an element or leave an attribute. Jinja then fills the variables in, escaping them.
    """
    markup: dict[str, bool] = {}

    def shown(translated: str, *sources: str) -> Markup:
        for source in sources:
            if source not in markup:
                markup[source] = is_markup(source)
        return Markup(translated) if any(markup[source] for source in sources) else escape(translated)

    def gettext(message: str) -> Markup:
        return shown(translations.gettext(message), message)

    def ngettext(singular: str, plural: str, n: int) -> Markup:
        return shown(translations.ngettext(singular, plural, n), singular, plural)

    def pgettext(context: str, message: str) -> Markup:
        return shown(translations.pgettext(context, message), message)

    def npgettext(context: str, singular: str, plural: str, n: int) -> Markup:
        return shown(translations.npgettext(context, singular, plural, n), singular, plural)

    return {"gettext": gettext, "ngettext": ngettext, "pgettext": pgettext, "npgettext": npgettext}


class _FaqReader(HTMLParser):
    """Collect (question, answer) text from `<details><summary>Q</summary>A…</details>` blocks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[list[str]] = []
        self.part: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "details":
            self.entries.append(["", ""])
            self.part = 1
        elif tag == "summary" and self.entries:
            self.part = 0

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary":
            self.part = 1
        elif tag == "details":
            self.part = None

    def handle_data(self, data: str) -> None:
        if self.part is not None and self.entries:
            self.entries[-1][self.part] += data


def faq_entries(html: str) -> list[dict[str, object]]:
    """Turn a rendered FAQ block into schema.org `Question` items for its FAQPage data."""
    reader = _FaqReader()
    reader.feed(str(html))
    return [
        {
            "@type": "Question",
            "name": " ".join(question.split()),
            "acceptedAnswer": {"@type": "Answer", "text": " ".join(answer.split())},
        }
        for question, answer in reader.entries
    ]


def template_users(environment: Environment, edited: Collection[str]) -> Callable[[str], bool]:
    """Return a test of whether a template is one of `edited` or extends or includes one, at any depth."""
    edited_names = frozenset(edited)
    closures: dict[str, frozenset[str]] = {}

    def closure(name: str) -> frozenset[str]:
        if name not in closures:
            closures[name] = frozenset({name})  # a cycle stops here instead of recursing forever
            source, filename, _ = (
                environment.loader.get_source(environment, name) if environment.loader else ("", None, None)
            )
            try:
                parsed = environment.parse(source, name, filename)
            except TemplateSyntaxError as error:  # an edit half made: named at the template's own line
                raise BuildError(filename or name, error.lineno, error.message or "") from error
            referenced = meta.find_referenced_templates(parsed)
            closures[name] = frozenset({name}).union(*(closure(r) for r in referenced if r is not None))
        return closures[name]

    return lambda name: bool(closure(name) & edited_names)
