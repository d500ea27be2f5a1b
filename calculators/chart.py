"""The memory chart: a stacked bar of a calculator's memory components against common GPU sizes.

Drawn here, as SVG text, so the prerendered page and the live one show the same picture
from the same numbers. Colours come from CSS classes (light and dark themes, print), never
from inline styles, which the site's Content-Security-Policy would block. Every figure is
also written out as text inside the picture and in its description for screen readers.
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
_LINE = 20


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
    """Return the SVG of `segments` stacked into one bar, with marks at each of `GPU_SIZES_GB`.

    >>> svg = draw_memory_chart([ChartSegment(16.06, "Weights: 16.06 GB")], 1e9,
    ...                         ChartText("Memory", "Total: 16.06 GB", "Fits", "Note", "GB"))
    >>> svg.startswith('<svg class="memory-chart"') and "Weights: 16.06 GB" in svg and ">141 GB<" in svg
    True
    """
    marks = [(size, size * _GIB / unit_bytes) for size in GPU_SIZES_GB]
    total = sum(max(segment.value, 0.0) for segment in segments)
    scale = _WIDTH / (max(total, marks[-1][1]) * 1.04)
    legend_top = _LABEL_ROWS[1] + 22
    height = legend_top + _LINE * (len(segments) + 3)
    parts = [
        f'<svg class="memory-chart" viewBox="0 0 {_WIDTH} {height}" role="img" '
        'aria-labelledby="memory-chart-title memory-chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="memory-chart-title">{escape(words.title)}</title>',
        f'<desc id="memory-chart-desc">{escape(_description(segments, words))}</desc>',
        f'<rect class="chart-track" x="0" y="{_BAR_TOP}" width="{_WIDTH}" height="{_BAR_HEIGHT}"/>',
    ]
    left = 0.0
    for index, segment in enumerate(segments):
        width = max(segment.value, 0.0) * scale
        box = f'x="{left:.2f}" y="{_BAR_TOP}" width="{width:.2f}" height="{_BAR_HEIGHT}"'
        parts.append(f'<rect class="chart-part-{index}" {box}/>')
        left += width
    parts.extend(_marks(marks, scale, words.gb))
    for index, segment in enumerate(segments):
        y = legend_top + index * _LINE
        parts.append(f'<rect class="chart-part-{index}" x="0" y="{y - 11}" width="12" height="12"/>')
        parts.append(f'<text x="18" y="{y}">{escape(segment.legend)}</text>')
    y = legend_top + len(segments) * _LINE
    parts.append(f'<text class="chart-total" x="0" y="{y}">{escape(words.total)}</text>')
    parts.append(f'<text x="0" y="{y + _LINE}">{escape(words.fit)}</text>')
    parts.append(f'<text class="chart-note" x="0" y="{y + 2 * _LINE}">{escape(words.note)}</text>')
    parts.append("</svg>")
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


def _description(segments: Sequence[ChartSegment], words: ChartText) -> str:
    figures = "; ".join(segment.legend for segment in segments)
    return f"{figures}. {words.total}. {words.fit} {words.note}"


def smallest_fitting_gpu(total: float, unit_bytes: float) -> int | None:
    """Return the smallest of `GPU_SIZES_GB` whose memory holds `total` (in units of `unit_bytes`), if any.

    >>> smallest_fitting_gpu(16.06, 1e9), smallest_fitting_gpu(80.0, 2**30), smallest_fitting_gpu(200.0, 1e9)
    (24, 80, None)
    """
    return next((size for size in GPU_SIZES_GB if total * unit_bytes <= size * _GIB), None)
