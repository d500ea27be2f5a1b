"""The memory chart: a stacked bar of a calculator's memory components against common GPU sizes.

Drawn here, as markup text, so the prerendered page and the live one show the same picture
from the same numbers. The bar is SVG and runs left to right in every language (a scale, like
the numbers on it). Its legend, the total and whether one GPU holds it follow as HTML text,
which wraps, follows the page's direction and is what screen readers read. Colours come from
CSS classes (light and dark themes, print), never from inline styles, which the site's
Content-Security-Policy would block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

__all__ = ["GPU_SIZES_GB", "ChartSegment", "ChartText", "draw_memory_chart", "smallest_fitting_gpu"]

GPU_SIZES_GB: tuple[int, ...] = (24, 40, 48, 80, 141)
"""Common GPU memory sizes as sold: RTX 4090 / L4, A100 40GB, L40S / A6000, A100 / H100, H200."""

_GIB = 2**30
"""Cards sold as "80 GB" report 80 GiB (81,920 MiB in nvidia-smi), so the marks sit at N GiB."""

_WIDTH = 400
_BAR_TOP = 8
_BAR_HEIGHT = 28
_LABEL_ROWS = (_BAR_TOP + _BAR_HEIGHT + 16, _BAR_TOP + _BAR_HEIGHT + 30)
_LABEL_ROOM = 40  # the width a "141 GB" mark label needs, in viewBox units


@dataclass(frozen=True)
class ChartSegment:
    """One component: its value in the chosen unit and its legend line, translated and filled in."""

    value: float
    legend: str


@dataclass(frozen=True)
class ChartText:
    """The chart's words, already translated and filled in."""

    title: str
    total: str
    fit: str
    note: str
    gb: str


def draw_memory_chart(segments: Sequence[ChartSegment], unit_bytes: float, words: ChartText) -> str:
    """Return the chart's markup: an SVG bar of `segments` with marks at `GPU_SIZES_GB`, then its legend as text.

    The legend and the notes are HTML, not SVG text, so they wrap on narrow screens and follow the
    page's direction; the bar and its scale stay left to right in every language.

    >>> html = draw_memory_chart([ChartSegment(16.06, "Weights: 16.06 GB")], 1e9,
    ...                          ChartText("Memory", "Total: 16.06 GB", "Fits", "Note", "GB"))
    >>> html.startswith('<svg class="memory-chart"') and "Weights: 16.06 GB</li>" in html and ">141 GB<" in html
    True
    """
    marks = [(size, size * _GIB / unit_bytes) for size in GPU_SIZES_GB]
    total = sum(max(segment.value, 0.0) for segment in segments)
    scale = _WIDTH / (max(total, marks[-1][1]) * 1.04)
    height = _LABEL_ROWS[1] + 6
    parts = [
        f'<svg class="memory-chart" viewBox="0 0 {_WIDTH} {height}" role="img" '
        'aria-labelledby="memory-chart-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="memory-chart-title">{escape(words.title)}</title>',
        f'<rect class="chart-track" x="0" y="{_BAR_TOP}" width="{_WIDTH}" height="{_BAR_HEIGHT}"/>',
    ]
    left = 0.0
    for index, segment in enumerate(segments):
        width = max(segment.value, 0.0) * scale
        box = f'x="{left:.2f}" y="{_BAR_TOP}" width="{width:.2f}" height="{_BAR_HEIGHT}"'
        parts.append(f'<rect class="chart-part-{index}" {box}/>')
        left += width
    parts.extend(_marks(marks, scale, words.gb))
    parts.append("</svg>")
    # The figures themselves are text, under the picture, for every reader: the picture's text alternative.
    parts.append('<ul class="chart-legend">')
    for index, segment in enumerate(segments):
        parts.append(f'<li><span class="chart-swatch chart-part-{index}"></span>{escape(segment.legend)}</li>')
    parts.append("</ul>")
    parts.append(f'<p class="chart-total">{escape(words.total)}</p>')
    parts.append(f'<p class="chart-fit">{escape(words.fit)}</p>')
    parts.append(f'<p class="chart-note">{escape(words.note)}</p>')
    return "".join(parts)


def _marks(marks: Sequence[tuple[int, float]], scale: float, gb: str) -> list[str]:
    """Draw a dashed line per GPU size; label it in the first of two rows with room, or leave the line bare."""
    drawn: list[str] = []
    last_label_end: list[float] = [-_LABEL_ROOM, -_LABEL_ROOM]
    for size, value in marks:
        x = value * scale
        drawn.append(f'<line class="chart-mark" x1="{x:.2f}" y1="2" x2="{x:.2f}" y2="{_BAR_TOP + _BAR_HEIGHT + 4}"/>')
        anchor_x = min(max(x, _LABEL_ROOM / 2), _WIDTH - _LABEL_ROOM / 2)
        for row, y in enumerate(_LABEL_ROWS):
            if anchor_x - _LABEL_ROOM / 2 >= last_label_end[row]:
                drawn.append(f'<text class="chart-mark-label" x="{anchor_x:.2f}" y="{y}">{size} {escape(gb)}</text>')
                last_label_end[row] = anchor_x + _LABEL_ROOM / 2
                break
    return drawn


def smallest_fitting_gpu(total: float, unit_bytes: float) -> int | None:
    """Return the smallest of `GPU_SIZES_GB` whose memory holds `total` (in units of `unit_bytes`), if any.

    >>> smallest_fitting_gpu(16.06, 1e9), smallest_fitting_gpu(80.0, 2**30), smallest_fitting_gpu(200.0, 1e9)
    (24, 80, None)
    """
    return next((size for size in GPU_SIZES_GB if total * unit_bytes <= size * _GIB), None)
