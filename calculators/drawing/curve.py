"""The curve chart: a total against a count (throughput against batch size), as bars and as a table.

Drawn here, as markup text, so the prerendered page and the live one show the same picture from the same
numbers (as `steps.py` draws its bars, in the same slot of the page and with the same classes). The bars are
SVG and run left to right in every language; the caption and the table are HTML, which wraps, follows the
page's direction and is what screen readers read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from calculators.kernel.spec import CurveChart, CurvePoint, Message

__all__ = ["CurveWriter", "doubling_counts", "draw_curve_chart"]

_WIDTH = 320
"""The viewBox width: about the width the chart is shown at on a 390 px phone, so 13 units read as 13 px."""
_TOP = 18
_BARS_HEIGHT = 96
_FOOT = 18
_MOST_BARS = 24
_MOST_ROWS = 8
_CHAR_WIDTH = 8.1


@dataclass(frozen=True)
class CurveWriter:
    """How the edge writes the chart's words: `text(message, words)` translates and fills, `keep` binds numbers
    to their words, `number` writes a figure in the reader's locale."""

    text: Callable[[Message, Mapping[str, str]], str]
    keep: Callable[[str], str]
    number: Callable[[float], str]


def doubling_counts(largest: float) -> list[float]:
    """Return 1, 2, 4, … up to `largest`, and `largest` itself: the batch sizes a curve is drawn at.

    >>> doubling_counts(119), doubling_counts(1), doubling_counts(0)
    ([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 119.0], [1.0], [])
    """
    counts: list[float] = []
    count = 1.0
    while count < largest:
        counts.append(count)
        count *= 2
    return [*counts, float(largest)] if largest >= 1 else []


def _spread(count: int, most: int) -> list[int]:
    """Return at most `most` indexes from 0 to `count` - 1, evenly spread, the first and the last always in."""
    if count <= most:
        return list(range(count))
    return sorted({round((count - 1) * k / (most - 1)) for k in range(most)})


def draw_curve_chart(chart: CurveChart, values: Mapping[str, float], write: CurveWriter) -> str:
    """Return the chart's markup: a caption, the bars as SVG, a note, then a table of the points.

    >>> from calculators.kernel.spec import N_
    >>> chart = CurveChart(lambda v: [CurvePoint(1, 200, 200), CurvePoint(2, 390, 195)],
    ...                    N_("x", "{low} to {high} up to {largest}"), N_("x", "Note"), (N_("x", "b"), N_("x", "t"),
    ...                    N_("x", "e")))
    >>> html = draw_curve_chart(chart, {}, CurveWriter(lambda m, w: m.text.format_map(w), str, lambda v: f"{v:,.0f}"))
    >>> html.startswith('<figcaption class="step-chart-title" id="step-chart-title">200 to 390 up to 2</figcaption>')
    True
    >>> '<tr><th scope="row">2</th><td>390</td><td>195</td></tr>' in html
    True
    """
    points = list(chart.points(values))
    if not points:
        return ""
    words = {
        "largest": write.number(points[-1].count),
        "low": write.number(points[0].total),
        "high": write.number(points[-1].total),
    }
    title = write.keep(write.text(chart.title, words))
    parts = [f'<figcaption class="step-chart-title" id="step-chart-title">{escape(title)}</figcaption>']
    parts.append(_bars(points, write))
    parts.append(f'<p class="chart-note">{escape(write.keep(write.text(chart.note, {})))}</p>')
    head = "".join(f'<th scope="col">{escape(write.text(column, {}))}</th>' for column in chart.columns)
    rows = []
    for index in _spread(len(points), _MOST_ROWS):
        point = points[index]
        cells = "".join(f"<td>{escape(write.number(value))}</td>" for value in (point.total, point.each))
        rows.append(f'<tr><th scope="row">{escape(write.number(point.count))}</th>{cells}</tr>')
    parts.append(f'<table class="step-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    return "".join(parts)


def _bars(points: Sequence[CurvePoint], write: CurveWriter) -> str:
    """Draw a bar per shown point, the tallest total above the right edge, the first and last count below."""
    shown = [points[index] for index in _spread(len(points), _MOST_BARS)]
    tallest = max(point.total for point in shown) or 1.0
    scale = _BARS_HEIGHT / tallest
    slot = _WIDTH / len(shown)
    bottom = _TOP + _BARS_HEIGHT
    height = bottom + _FOOT
    parts = [
        f'<svg class="step-chart" viewBox="0 0 {_WIDTH} {height}" role="img" '
        'aria-labelledby="step-chart-title" xmlns="http://www.w3.org/2000/svg">'
    ]
    for index, point in enumerate(shown):
        bar = max(point.total, 0.0) * scale
        x = index * slot + slot * 0.15
        box = f'x="{x:.2f}" width="{slot * 0.7:.2f}"'
        parts.append(f'<rect class="chart-part-0" {box} y="{bottom - bar:.2f}" height="{bar:.2f}"/>')
    parts.append(f'<line class="chart-axis" x1="0" y1="{bottom}" x2="{_WIDTH}" y2="{bottom}"/>')
    parts.append(f'<text class="chart-mark-label end" x="{_WIDTH}" y="13">{escape(write.number(tallest))}</text>')
    labels = [(0, shown[0])] + ([(len(shown) - 1, shown[-1])] if len(shown) > 1 else [])
    for index, point in labels:
        label = write.number(point.count)
        half = len(label) * _CHAR_WIDTH / 2
        anchor = min(max(index * slot + slot / 2, half), _WIDTH - half)
        parts.append(f'<text class="chart-mark-label" x="{anchor:.2f}" y="{height - 3}">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)
