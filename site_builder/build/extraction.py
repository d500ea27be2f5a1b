"""Babel extraction for a calculator's folder: its messages take the folder's slug as their gettext context.

A calculator writes `N_("Text")` (its module binds `N_, NP_ = messages_of(__name__)`) and `{% trans %}` in
its article; babel.cfg sends its folder's files here, which add the slug its folder names, the same one
the module and the article loader (`with_context`) use at run time. So the context is said once, by the
folder, and the catalogs keep the `msgctxt` they always had. A message in another context (the shared
`"input"` or `"article"` words) names it, as everywhere else.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.extract import extract_python
from jinja2.ext import babel_extract

from calculators.kernel.spec import slug_of

__all__ = ["extract_article", "extract_calculator", "folder_slug", "with_context"]

_Extracted = tuple[int, str, Any, list[str]]

# A `{% trans %}` tag (with or without variables) whose first word is not a quoted context.
_TRANS_WITHOUT_CONTEXT = re.compile(r"(\{%-?\s*trans)(?=[\s%-])(?!\s+[\"'])")


def folder_slug(path: str) -> str:
    """Return the slug of the calculator whose folder holds `path` (`.../cost/token_cost/article.html`: token-cost)."""
    return slug_of(Path(path).parent.name)


def with_context(source: str, slug: str) -> str:
    """Give every `{% trans %}` of an article that names no context its calculator's slug (lines unchanged).

    >>> with_context('{% trans %}Hi{% endtrans %} {% trans n=1 %}x{% endtrans %} {% trans "article" %}', "a-b")
    '{% trans "a-b" %}Hi{% endtrans %} {% trans "a-b" n=1 %}x{% endtrans %} {% trans "article" %}'
    """
    return _TRANS_WITHOUT_CONTEXT.sub(rf'\1 "{slug}"', source)


# Babel's extraction-method protocol: (file, keywords, comment tags, options) → (line, function, messages, comments).


def extract_calculator(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[_Extracted]:
    """Extract a calculator module's messages as Babel's Python extractor does, adding its slug as context."""
    slug = folder_slug(fileobj.name)
    found: Iterator[_Extracted] = extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[assignment]
    for lineno, funcname, messages, comments in found:
        if funcname in {"N_", "NP_"}:  # in a calculator's module these are always its own (`messages_of`)
            messages = (slug, *(messages if isinstance(messages, tuple) else (messages,)))
        yield lineno, funcname, messages, comments


def extract_article(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[_Extracted]:
    """Extract an article's messages as Jinja's extractor does, its context-less blocks in its calculator's."""
    source = with_context(fileobj.read().decode("utf-8"), folder_slug(fileobj.name))
    for lineno, funcname, messages, comments in babel_extract(
        io.BytesIO(source.encode("utf-8")), keywords, comment_tags, options
    ):
        yield lineno, funcname, messages, list(comments)
