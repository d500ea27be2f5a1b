"""Reading the gettext catalogs under locales/, checking them, and compiling them in memory.

A translation that is missing or fuzzy, whose placeholders differ from its
source's, or whose markup does, is a `CatalogProblem`. The default build leaves
such a message out of the compiled catalog, so the page falls back to English,
and warns; the strict build (CI's) fails on the first one and names them all.
Every compiled catalog comes from here (the pages', `serve`'s and the browser
worker's), so only checked translations reach a page or the core's `format_map`.

Rules, each a translation must keep to be used:
- Placeholders: a source that reads as a `str.format` text (the core's messages, and
  templates' `{date}`) is matched field for field, and every field of the translation
  is a plain `{name}`: no format spec, conversion, index or stray brace. A message a
  template shows is `%`-formatted by Jinja even without variables, so its translation
  holds only the source's `%(name)s` fields and `%%`: no lone `%`, no width.
- Markup: the translation holds exactly the source's tags, each written as in the
  source, in the same order, and no other `<` that could open a tag, so the page's
  elements and attributes are the source's whatever the text. A source with no markup
  is prose: the environment escapes its translation (see `is_markup`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.resources
import io
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import PoFileError, read_po

import calculators
from calculators.kernel.spec import Message as CoreMessage
from calculators.kernel.spec import PluralMessage
from languages.locales import Locale

from .assets import core_sources
from .errors import BuildError

__all__ = [
    "PLACEHOLDER",
    "CatalogCache",
    "CatalogProblem",
    "browser_catalogs",
    "core_modules",
    "is_markup",
    "markup_problem",
    "message_problem",
    "module_messages",
    "module_names",
    "placeholder_problem",
    "read_catalog",
]

PLACEHOLDER = re.compile(r"\{[A-Za-z_]+\}|%\([A-Za-z_]+\)[sd]")
"""A placeholder as the sources write them (what a translator comment must explain)."""


@dataclass(frozen=True)
class CatalogProblem:
    """A message a catalog does not translate usably."""

    path: Path
    line: int
    message: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}: {self.message!r}"


def read_catalog(path: Path, locale: Locale, *, source: bool) -> tuple[bytes, tuple[CatalogProblem, ...]]:
    """Compile the `.po` file at `path` to `.mo` bytes, leaving out unusable translations.

    The source locale's catalog is allowed to be empty (its messages are the source).
    A malformed file raises a BuildError with its line.
    """
    if not path.is_file():
        raise BuildError(path, None, f"no catalog for locale {locale.tag}")
    _check_syntax(path)
    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=locale.catalog, abort_invalid=True)
    except PoFileError as error:
        raise BuildError(path, _line_of(error), str(error)) from error
    except (ValueError, UnicodeDecodeError) as error:
        raise BuildError(path, None, str(error)) from error
    problems: list[CatalogProblem] = []
    for message in catalog:
        if not message.id or (source and not any(_texts(message.string))):
            continue
        reason = message_problem(message, source=source)
        if reason:
            problems.append(CatalogProblem(path, message.lineno or 0, _texts(message.id)[0], reason))
            message.string = ("",) * len(message.string) if isinstance(message.string, tuple) else ""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue(), tuple(problems)


def _texts(value: object) -> tuple[str, ...]:
    """Return a message's id or string as a tuple of texts, plural or not."""
    items = value if isinstance(value, tuple | list) else (value,)
    return tuple(str(item or "") for item in items)


def message_problem(message: Message, *, source: bool = False) -> str | None:
    """Say why a catalog's translation of `message` cannot be used, or return None.

    `source`: the message is in the source locale's catalog, where an empty translation is the rule.
    """
    translations = _texts(message.string)
    if message.fuzzy and not source:
        return "fuzzy"
    if not all(translations):
        return "untranslated"
    sources = _texts(message.id)
    # Jinja %-formats every text a template shows; a message with no known origin is held to both rules.
    shown_by_template = not message.locations or any(path.endswith(".html") for path, _ in message.locations)
    return placeholder_problem(sources, translations, percent=shown_by_template) or markup_problem(
        sources, translations
    )


def placeholder_problem(sources: tuple[str, ...], translations: tuple[str, ...], *, percent: bool = True) -> str | None:
    """Say how a translation's placeholders differ from its source's, or return None.

    `{name}` fields are compared whenever the source reads as a `str.format` text; `%(name)s`
    fields when `percent` (the message is shown by a template, which %-formats it).
    Plural forms other than the last may drop the count (Arabic's "one" and "two"
    say it in words); none may add a placeholder, and the last form keeps them all.
    """
    readers = (_brace_fields, _percent_fields) if percent else (_brace_fields,)
    for read in readers:
        try:
            expected = read(sources[-1])
        except ValueError:
            continue  # the source is not a text of this kind, so nothing formats it that way
        for index, translation in enumerate(translations):
            try:
                found = read(translation)
            except ValueError as error:
                return str(error)
            complete = len(translations) == 1 or index == len(translations) - 1
            if found - expected or (complete and found != expected):
                return f"placeholders differ: {sorted(found)} instead of {sorted(expected)}"
    return None


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PERCENT = re.compile(r"%(?:(%)|\(([A-Za-z_][A-Za-z0-9_]*)\)[sd])?")


def _brace_fields(text: str) -> frozenset[str]:
    """Return the `{name}` fields of a `str.format` text; raise ValueError at anything but a plain name."""
    fields = set()
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as error:
        raise ValueError(f"stray brace ({error}); write {{{{ or }}}} for a brace itself") from error
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not _NAME.fullmatch(name) or spec or conversion:
            written = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            raise ValueError(f"placeholder {written} is not a plain {{name}}")
        fields.add("{" + name + "}")
    return frozenset(fields)


def _percent_fields(text: str) -> frozenset[str]:
    """Return the `%(name)s` fields of a text Jinja %-formats; raise ValueError at a lone `%`."""
    fields = set()
    for match in _PERCENT.finditer(text):
        if match.group(2):
            fields.add(match.group(0))
        elif not match.group(1):
            around = text[match.start() : match.start() + 12]
            raise ValueError(f"a lone % in {around!r}: placeholders are %(name)s, a percent sign is %%")
    return frozenset(fields)


_OPENING = re.compile(r"<[A-Za-z!/?]")
"""Where a browser starts a tag, comment or declaration; any other `<` is text."""
_TAG = re.compile(r"""<!--.*?-->|<[A-Za-z!/?](?:[^>"']|"[^"]*"|'[^']*')*>""", re.DOTALL)
_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")


def _tags(text: str) -> tuple[str, ...]:
    """Return the tags (and comments) of a source's text, each as written."""
    tags = []
    position = 0
    while opening := _OPENING.search(text, position):
        tag = _TAG.match(text, opening.start())
        if tag is None:
            break  # an unclosed tag: what follows is not markup the translation could copy
        tags.append(tag.group())
        position = tag.end()
    return tuple(tags)


def is_markup(source: str) -> bool:
    """Whether a source text is HTML (it has a tag or a character reference) rather than prose.

    A page shows a markup message's translation as HTML, once `markup_problem` has found it holds
    the source's tags only; it escapes a prose message's translation, whatever it holds.
    """
    return bool(_tags(source) or _REFERENCE.search(source))


def markup_problem(sources: tuple[str, ...], translations: tuple[str, ...]) -> str | None:
    """Say how a translation's markup differs from its source's, or return None.

    The translation must read as text, then the source's first tag exactly as written, text, the
    next tag, and so on, with no `<` in its text that could open a tag: then a browser builds
    the same elements, with the same attributes, from the translation as from the source.
    """
    shapes = {_tags(text) for text in sources}
    prose = not any(is_markup(text) for text in sources)
    for translation in translations:
        faults = [_markup_fault(translation, shape) for shape in shapes]
        if all(faults):
            return faults[0]
        if prose and (reference := _REFERENCE.search(translation)):
            return f"character reference {reference.group()} in text that is shown as written: write the character"
    return None


def _markup_fault(translation: str, tags: tuple[str, ...]) -> str | None:
    """Say where `translation` leaves the markup `tags`, or return None."""
    position = 0
    for tag in (*tags, None):
        end = len(translation) if tag is None else translation.find(tag, position)
        if end < 0:
            return f"markup differs from the source's: {tag} is missing"
        stray = _OPENING.search(translation, position, end)
        if stray:
            found = _TAG.match(translation, stray.start())
            written = found.group() if found else translation[stray.start() : stray.start() + 30]
            return f"markup differs from the source's: {written[:80]} is not the source's next tag"
        position = end + len(tag or "")
    return None


_LITERAL = r'"(?:[^"\\]|\\.)*"'
_LINE = re.compile(rf"(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?{_LITERAL}\s*")


def _check_syntax(path: Path) -> None:
    """Reject what Babel's lenient reader would accept silently: a line that is neither comment nor keyword string."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise BuildError(path, None, f"not UTF-8: {error}") from error
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text and not text.startswith("#") and not _LINE.fullmatch(text):
            raise BuildError(path, number, f"malformed line: {text[:60]}")


def _line_of(error: PoFileError) -> int | None:
    match = re.search(r"line (\d+)|on (\d+)", str(error))
    return int(next(g for g in match.groups() if g)) if match else None


class CatalogCache:
    """Compiled catalogs kept between builds of one process (the dev server, the benchmark).

    Keyed by the file's path, size and modification time: an edited catalog compiles again,
    the nine others are reused. A build without a cache compiles every catalog.
    """

    def __init__(self) -> None:
        self._compiled: dict[tuple[Path, int, int], tuple[bytes, tuple[CatalogProblem, ...]]] = {}
        self._cut: dict[tuple[bytes, frozenset[tuple[str, frozenset[tuple[str, str]]]]], dict[str, bytes]] = {}

    def browser_catalogs(self, mo: bytes, keep: Mapping[str, frozenset[tuple[str, str]]]) -> dict[str, bytes]:
        """Return `browser_catalogs(mo, keep)`, cutting again only for a catalog or a calculator that changed.

        Cutting every page's catalog was most of a rebuild after a template edit (600 catalogs written).
        """
        key = (hashlib.sha256(mo).digest(), frozenset(keep.items()))
        if key not in self._cut:
            self._cut[key] = browser_catalogs(mo, keep)
        return self._cut[key]

    def read(self, path: Path, locale: Locale, *, source: bool) -> tuple[bytes, tuple[CatalogProblem, ...]]:
        """Return `read_catalog(path, ...)`, compiling only when the file changed since the last call."""
        if not path.is_file():
            return read_catalog(path, locale, source=source)
        stat = path.stat()
        key = (path, stat.st_size, stat.st_mtime_ns)
        if key not in self._compiled:
            self._compiled[key] = read_catalog(path, locale, source=source)
        return self._compiled[key]


def module_messages(modules: Iterable[str]) -> frozenset[tuple[str, str]]:
    """Return (context, msgid) of every message the given modules of the core can show.

    Found by walking their module-level values (calculators, their inputs and outputs, the edge's
    validation, chart and config words): the messages the browser worker translates. Articles and
    page chrome are rendered at build time only.
    """
    found: set[tuple[str, str]] = set()
    seen: set[int] = set()

    def visit(value: object) -> None:
        if id(value) in seen or isinstance(value, str | bytes | int | float | bool) or value is None:
            return
        seen.add(id(value))
        if isinstance(value, CoreMessage):
            found.add((value.context, value.text))
        elif isinstance(value, PluralMessage):
            found.add((value.context, value.singular))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                visit(getattr(value, field.name))
        elif isinstance(value, Mapping):
            for item in value.values():
                visit(item)
        elif isinstance(value, tuple | list | frozenset | set):
            for item in value:
                visit(item)

    for module in modules:
        for value in vars(importlib.import_module(module)).values():
            visit(value)
    return frozenset(found)


def module_names(sources: Iterable[Path]) -> tuple[str, ...]:
    """Return the dotted module name of each core file (`calculators/kernel/spec.py`: calculators.kernel.spec)."""
    root = Path(calculators.__file__).parent
    names = []
    for path in sources:
        parts = path.relative_to(root.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return tuple(names)


def core_modules() -> tuple[str, ...]:
    """Return the dotted name of every module of the pure core (the files `assets.core_sources` lists)."""
    return module_names(core_sources())


def browser_catalogs(mo: bytes, keep: Mapping[str, frozenset[tuple[str, str]]]) -> dict[str, bytes]:
    """Return, for each name in `keep`, the compiled catalog `mo` cut down to those messages (and its header).

    The full catalog is read once (Babel's .mo reader) and cut many times, one small catalog per page's
    calculator.
    """
    full = read_mo(io.BytesIO(mo))
    cuts = {}
    for name, wanted in keep.items():
        cut = Catalog(locale=full.locale, charset=full.charset)
        cut.mime_headers = full.mime_headers
        for context, text in sorted(wanted):
            message = full.get(text, context or None)
            if message is not None:
                cut[message.id] = message
        buffer = io.BytesIO()
        write_mo(buffer, cut)
        cuts[name] = buffer.getvalue()
    return cuts
