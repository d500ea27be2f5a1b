"""The memory chart: a stacked bar of a calculator's memory components against common GPU sizes.

Drawn here, as markup text, so the prerendered page and the live one show the same picture
from the same numbers. The bar is SVG and runs left to right in every language (a scale, like
the numbers on it). Its legend, the total and whether one GPU holds it follow as HTML text,
which wraps, follows the page's direction and is what screen readers read. Colours come from
CSS classes (light and dark themes, print), never from inline styles, which the site's
Content-Security-Policy would block.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

__all__ = [
    "FIT_SHARE",
    "GPU_SIZES_GB",
    "ChartSegment",
    "ChartText",
    "draw_memory_chart",
    "gpus_to_hold",
    "smallest_fitting_gpu",
]

GPU_SIZES_GB: tuple[int, ...] = (24, 40, 48, 80, 141)
"""Common GPU memory sizes as sold: RTX 4090 / L4, A100 40GB, L40S / A6000, A100 / H100, H200."""

_GIB = 2**30
"""Cards sold as "80 GB" report 80 GiB (81,920 MiB in nvidia-smi), so the marks sit at N GiB."""

FIT_SHARE = 0.8
"""A GPU holds a total that takes at most this share of its memory: Fujii et al. 2024 (arXiv:2411.06465) found
that none of 454 runs estimated below 80% of a GPU's memory ran out of it; the rest is for what no estimate
counts (fragmentation, the CUDA context, libraries' workspaces)."""

_WIDTH = 320
"""The viewBox width: about the width the chart is shown at on a 390 px phone, so 13 units read as 13 px."""
_BAR_TOP = 8
_BAR_HEIGHT = 28
_ROW_HEIGHT = 16
_LABEL_ROWS = 3
_CHAR_WIDTH = 8.1  # a label character at the 13 px the stylesheet sets, generously (digits are ~7.2)
_LABEL_GAP = 8
_MOST_MARKS = 20  # past this many GPUs, a mark every 2, 5, 10… of them, and always the last


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
    """Return the chart's markup: an SVG bar of `segments` against GPU sizes, then its legend as text.

    The marks are the GPU sizes up to the first that holds the total; past the largest GPU they are
    multiples of it up to as many as hold the total (every one, or every 2, 5, 10… past twenty), the
    first and the last labelled with their count. Every label sits where it has room, in one of three
    rows, at most half its width from its line, so none is lost from 1 GB to 10 TB.
    The legend and the notes are HTML, not SVG text, so they wrap on narrow screens and follow the
    page's direction; the bar and its scale stay left to right in every language.

    >>> html = draw_memory_chart([ChartSegment(16.06, "Weights: 16.06 GB")], 1e9,
    ...                          ChartText("Memory", "Total: 16.06 GB", "Fits", "Note", "GB"))
    >>> html.startswith('<svg class="memory-chart"') and "Weights: 16.06 GB</li>" in html and ">24\xa0GB<" in html
    True
    >>> ">10 × 141\xa0GB<" in draw_memory_chart([ChartSegment(1150, "")], 1e9, ChartText("", "", "", "", "GB"))
    True
    """
    total = sum(max(segment.value, 0.0) for segment in segments)
    marks = _gpu_marks(total, unit_bytes, words.gb)
    scale = _WIDTH / (max(total, marks[-1][0]) * 1.04)
    labels = _place_labels([(value * scale, label) for value, label in marks])
    rows = max((row for _, row, _ in labels), default=0) + 1
    height = _BAR_TOP + _BAR_HEIGHT + 6 + rows * _ROW_HEIGHT
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
    for value, _ in marks:
        x = value * scale
        parts.append(f'<line class="chart-mark" x1="{x:.2f}" y1="2" x2="{x:.2f}" y2="{_BAR_TOP + _BAR_HEIGHT + 4}"/>')
    for anchor, row, label in labels:
        y = _BAR_TOP + _BAR_HEIGHT + (row + 1) * _ROW_HEIGHT
        parts.append(f'<text class="chart-mark-label" x="{anchor:.2f}" y="{y}">{escape(label)}</text>')
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


def _gpu_marks(total: float, unit_bytes: float, gb: str) -> list[tuple[float, str]]:
    """List the marks to draw, each at its value in the chart's unit with its label ("80 GB", "8 × 141 GB")."""
    fits = smallest_fitting_gpu(total, unit_bytes)
    if fits is not None:
        return [(size * _GIB / unit_bytes, f"{size}\xa0{gb}") for size in GPU_SIZES_GB if size <= fits]
    count, size = gpus_to_hold(total, unit_bytes)
    step = _mark_step(count)
    shown = [*range(step, count, step), count]
    # Between the first and the last, the lines speak for themselves (evenly spaced, so many GPUs apart).
    return [(k * size * _GIB / unit_bytes, f"{k} × {size}\xa0{gb}" if k in {shown[0], count} else "") for k in shown]


def _mark_step(count: int) -> int:
    """Return the first of 1, 2, 5, 10, 20, 50… GPUs between marks that draws at most `_MOST_MARKS` of them.

    >>> _mark_step(8), _mark_step(21), _mark_step(21_000), _mark_step(10**12)
    (1, 2, 2000, 50000000000)
    """
    scale = 1
    while True:
        for step in (scale, 2 * scale, 5 * scale):
            if count / step <= _MOST_MARKS:
                return step
        scale *= 10


def _place_labels(marks: Sequence[tuple[float, str]]) -> list[tuple[float, int, str]]:
    """Place each mark's label in the first row where it overlaps no other; the last mark's label first.

    Returns (anchor x, row, label) for the labels that have room (all but in a crowd no real total
    makes); a mark without one keeps its bare line.
    """
    placed: list[tuple[float, int, str]] = []
    taken: list[list[tuple[float, float]]] = [[] for _ in range(_LABEL_ROWS)]
    order = [len(marks) - 1, *range(len(marks) - 1)] if marks else []
    for index in order:
        x, label = marks[index]
        if not label:
            continue
        room = len(label) * _CHAR_WIDTH + _LABEL_GAP
        anchor = min(max(x, room / 2), _WIDTH - room / 2)
        start, end = anchor - room / 2, anchor + room / 2
        for row in range(_LABEL_ROWS):
            if all(end <= a or start >= b for a, b in taken[row]):
                taken[row].append((start, end))
                placed.append((anchor, row, label))
                break
    return sorted(placed)


def gpus_to_hold(total: float, unit_bytes: float) -> tuple[int, int]:
    """Return how many of the largest GPU hold `total` (in units of `unit_bytes`) within `FIT_SHARE`, and its size.

    Memory alone: the count a model must at least be split across, before any overhead of splitting.

    >>> gpus_to_hold(1150, 1e9), gpus_to_hold(112.8, 2**30), gpus_to_hold(10_000, 1e9)
    ((10, 141), (1, 141), (83, 141))
    """
    size = GPU_SIZES_GB[-1]
    return max(1, math.ceil(total * unit_bytes / (FIT_SHARE * size * _GIB) - 1e-9)), size


def smallest_fitting_gpu(total: float, unit_bytes: float) -> int | None:
    """Return the smallest of `GPU_SIZES_GB` that holds `total` (in units of `unit_bytes`) within `FIT_SHARE`, if any.

    >>> smallest_fitting_gpu(16.06, 1e9), smallest_fitting_gpu(64.0, 2**30), smallest_fitting_gpu(200.0, 1e9)
    (24, 80, None)
    """
    return next((size for size in GPU_SIZES_GB if total * unit_bytes <= FIT_SHARE * size * _GIB + 1e-6), None)
