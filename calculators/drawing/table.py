"""Tables and copyable text inside a chart's figure, as markup: the same from the build and from the browser.

Every text arrives translated; it is escaped here. A table reads in the page's direction; code reads left
to right in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["draw_code", "draw_list", "draw_table"]


def draw_table(
    caption: str, columns: Sequence[str], rows: Sequence[Sequence[str]], keys: Sequence[Sequence[float]] = ()
) -> str:
    """Return a table whose first cell in each row heads it, in a box that scrolls sideways on a narrow screen
    (and so takes the keyboard's focus, named by the caption). With `keys` (each row's number behind each of its
    cells after the first), the page's script lets the reader sort it by any column.

    >>> html = draw_table("Fits", ["Layout", "Step"], [["TP 8", "1.2 s"]])
    >>> '<caption>Fits</caption><thead><tr><th scope="col">Layout</th><th scope="col">Step</th></tr></thead>' in html
    True
    >>> '<tbody><tr><th scope="row">TP 8</th><td>1.2 s</td></tr></tbody>' in html
    True
    >>> '<td data-key="1.25">1.2 s</td>' in draw_table("Fits", ["Layout", "Step"], [["TP 8", "1.2 s"]], [[1.25]])
    True
    """
    head = "".join(f'<th scope="col">{escape(column)}</th>' for column in columns)
    body = "".join(
        f'<tr><th scope="row">{escape(row[0])}</th>'
        + "".join(
            f'<td data-key="{row_keys[index]!r}">{escape(cell)}</td>' if keys else f"<td>{escape(cell)}</td>"
            for index, cell in enumerate(row[1:])
        )
        + "</tr>"
        for row, row_keys in zip(rows, keys or [()] * len(rows), strict=True)
    )
    sortable = " data-sortable" if keys else ""
    return (
        f'<div class="plan-scroll" tabindex="0" role="region" aria-label="{escape(caption)}">'
        f'<table class="step-table plan-table"{sortable}><caption>{escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def draw_list(title: str, items: Sequence[str]) -> str:
    """Return a short titled list (the reasons a search refused layouts), or nothing when it is empty."""
    if not items:
        return ""
    lines = "".join(f"<li>{escape(item)}</li>" for item in items)
    return f'<p class="chart-note">{escape(title)}</p><ul class="chart-note plan-reasons">{lines}</ul>'


def draw_code(title: str, text: str, copy: str, copied: str) -> str:
    """Return a block of text to copy (launch arguments), its title and a copy button.

    >>> html = draw_code("Megatron-LM", "--bf16", "Copy", "Copied")
    >>> '<pre dir="ltr" tabindex="0"><code>--bf16</code></pre>' in html, 'data-copied="Copied">Copy</button>' in html
    (True, True)
    """
    return (
        f'<div class="plan-code"><p class="chart-note">{escape(title)}</p>'
        f'<pre dir="ltr" tabindex="0"><code>{escape(text)}</code></pre>'
        f'<button type="button" data-copy-code data-copied="{escape(copied)}">{escape(copy)}</button></div>'
    )
