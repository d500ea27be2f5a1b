"""Right-to-left prose: each run of numbers and Latin words in an article's text isolated, as the results are.

The results' sentences come from the core already isolated (`calculators.report`); an article is HTML that
Jinja renders from translated `{% trans %}` blocks, so here the same runs ("20.35 GB", "Llama 3.1 8B") are found
in its text and wrapped in LRI … PDI at build time, for right-to-left locales only. Only text changes: tags and
attributes are copied as they are, and MathML, code blocks and scripts are left alone.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right

from markupsafe import Markup, escape

from calculators.report import LTR_RUN

__all__ = ["isolate_prose"]

_TAG = re.compile(r"(<!--.*?-->|<[^>]*>)", re.DOTALL)
_TAG_NAME = re.compile(r"</?([A-Za-z][\w-]*)")
_INLINE = frozenset({"a", "abbr", "b", "code", "em", "i", "kbd", "q", "s", "small", "span", "strong", "sub", "sup"})
"""Elements a run goes through: "P<sub>base</sub>" is one run, as the bidirectional algorithm reads it."""
_LEFT_ALONE = frozenset({"math", "pre", "script", "style", "svg", "textarea", "bdi"})
_PRIMES = str.maketrans("\u2032\u2033", "xx")  # d-prime<sub>c</sub> is one name: primes read as letters, in place


def isolate_prose(body: str, direction: str) -> Markup:
    """Wrap each run of numbers and Latin words of `body`'s text in LRI … PDI when `direction` is "rtl".

    >>> str(isolate_prose('<p dir="auto">يتسع لـ 80 GB من <a href="/x">P<sub>base</sub></a>.</p>', "rtl"))
    '<p dir="auto">يتسع لـ \\u206680 GB\\u2069 من <a href="/x">\\u2066P<sub>base\\u2069</sub></a>.</p>'
    >>> str(isolate_prose("<p>80 GB &amp; <math><mn>2</mn></math></p>", "ltr"))
    '<p>80 GB &amp; <math><mn>2</mn></math></p>'
    """
    if direction != "rtl":
        return Markup(body)
    parts = _TAG.split(str(body))  # text, tag, text, tag, …: the even items are text
    texts: dict[int, str] = {}
    flat: list[str] = []
    starts: list[tuple[int, int]] = []  # (offset in the flat text, index in parts) of each text node
    offset, hidden = 0, 0
    for index, part in enumerate(parts):
        if index % 2:
            name = _TAG_NAME.match(part)
            tag = name.group(1).lower() if name else ""
            if tag in _LEFT_ALONE and not part.endswith("/>"):
                hidden += -1 if part.startswith("</") else 1
            if tag not in _INLINE:  # a block, a line break, a comment: no run goes past it
                flat.append("\n")
                offset += 1
        elif part and not hidden:
            texts[index] = html.unescape(part)
            starts.append((offset, index))
            flat.append(texts[index])
            offset += len(texts[index])
    marks: dict[int, list[tuple[int, str]]] = {}
    for match in re.finditer(LTR_RUN, "".join(flat).translate(_PRIMES)):
        for position, mark in ((match.start(), "\u2066"), (match.end(), "\u2069")):
            # The mark goes beside the run's own first or last character, in that character's text node.
            character = position if mark == "\u2066" else position - 1
            start, index = starts[bisect_right(starts, (character, len(parts))) - 1]
            marks.setdefault(index, []).append((position - start, mark))
    for index, inserted in marks.items():
        text = texts[index]
        for at, mark in sorted(inserted, reverse=True):
            text = text[:at] + mark + text[at:]
        parts[index] = str(escape(text))
    return Markup("".join(parts))
