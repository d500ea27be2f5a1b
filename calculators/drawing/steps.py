"""The step chart: what each step of a loop that resends its history costs, as bars and as a table.

An agent's loop and a multi-turn chat send everything before each step again with it, so each step costs
more than the last and the total grows with the square of the steps. The chart shows that growth: a bar per
step (input below, output above), a dashed line at the first step's cost (what every step would cost if
nothing were resent), then a table of a few steps with their tokens, cost and running total.

Drawn here, as markup text, so the prerendered page and the live one show the same picture from the same
numbers (as `chart.py` draws the memory bar, in the same slot of the page). The bars are SVG and run left to
right in every language, like a scale; the caption, legend and table are HTML, which wraps, follows the
page's direction and is what screen readers read. Colours come from CSS classes, never inline styles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from calculators.kernel.spec import N_, Message, PluralMessage, StepChart, StepCost

__all__ = ["StepWriter", "draw_step_chart", "shown_rows", "shown_steps"]

_WIDTH = 320
"""The viewBox width: about the width the chart is shown at on a 390 px phone, so 13 units read as 13 px."""
_TOP = 18  # room for the tallest bar's cost above it
_BARS_HEIGHT = 96
_FOOT = 18  # room for the first and last step's numbers under the bars
_MOST_BARS = 40
_MOST_ROWS = 6
_CHAR_WIDTH = 8.1  # a label character at the 13 px the stylesheet sets, generously

_INPUT = N_("chart", "Input")
_OUTPUT = N_("chart", "Output")
_INPUT_TOKENS = N_("chart", "Input tokens")
_COST = N_("chart", "Cost")
_RUNNING_TOTAL = N_("chart", "Total so far")


@dataclass(frozen=True)
class StepWriter:
    """How the edge writes the chart's words: translated and filled in, counts and amounts in the reader's locale.

    `text(message, words, counts)` translates and fills a message; `keep(text)` binds each number to the word
    after it (and isolates it in a right-to-left page); `count` writes a token count, `money` an amount.
    """

    text: Callable[[Message | PluralMessage, Mapping[str, str], Mapping[str, float]], str]
    keep: Callable[[str], str]
    count: Callable[[float], str]
    money: Callable[[float], str]


def shown_steps(count: int, most: int) -> list[int]:
    """Return at most `most` step numbers from 1 to `count`, evenly spread, the first and the last always in.

    >>> shown_steps(4, 6), shown_steps(10, 6), shown_steps(1000, 6)
    ([1, 2, 3, 4], [1, 2, 4, 6, 8, 10], [1, 200, 400, 600, 800, 1000])
    """
    if count <= most:
        return list(range(1, count + 1))
    return sorted({max(1, round(count * k / (most - 1))) for k in range(most)})


def shown_rows(steps: Sequence[StepCost]) -> list[tuple[int, StepCost, float]]:
    """Return the table's rows: (step number, its cost, the running total up to it), for the steps shown.

    >>> rows = shown_rows([StepCost(10, 1.0, 0.5), StepCost(20, 2.0, 0.5)])
    >>> [(number, total) for number, _, total in rows]
    [(1, 1.5), (2, 4.0)]
    """
    totals = []
    running = 0.0
    for step in steps:
        running += step.input_cost + step.output_cost
        totals.append(running)
    return [(number, steps[number - 1], totals[number - 1]) for number in shown_steps(len(steps), _MOST_ROWS)]


def draw_step_chart(chart: StepChart, values: Mapping[str, float], write: StepWriter) -> str:
    """Return the chart's markup: a caption, the bars as SVG, their legend, then a table of a few steps.

    >>> from calculators.kernel.spec import N_, StepChart, StepCost
    >>> chart = StepChart(lambda v: [StepCost(100 * i, i / 100, 0.01) for i in range(1, 4)], N_("x", "Step"),
    ...                   N_("x", "From {first} to {last} over {count} steps"), N_("x", "Dashed: step 1"))
    >>> write = StepWriter(lambda m, w, c: m.text.format_map(w), str, lambda v: f"{v:,.0f}", lambda v: f"${v:.2f}")
    >>> html = draw_step_chart(chart, {}, write)
    >>> html.startswith('<figcaption class="step-chart-title" id="step-chart-title">From $0.02 to $0.04 over 3 steps')
    True
    >>> '<th scope="row">3</th><td>300</td><td>$0.04</td><td>$0.09</td>' in html
    True
    """
    steps = list(chart.steps(values))
    if not steps:
        return ""
    costs = [step.input_cost + step.output_cost for step in steps]
    words = {"first": write.money(costs[0]), "last": write.money(costs[-1]), "count": write.count(len(steps))}
    title = write.keep(write.text(chart.title, words, {"count": float(len(steps))}))
    parts = [f'<figcaption class="step-chart-title" id="step-chart-title">{escape(title)}</figcaption>']
    parts.append(_bars(steps, costs, write))
    legend = ((0, _INPUT), (1, _OUTPUT))
    parts.append('<ul class="chart-legend">')
    for index, label in legend:
        text = escape(write.text(label, {}, {}))
        parts.append(f'<li><span class="chart-swatch chart-part-{index}"></span>{text}</li>')
    parts.append("</ul>")
    parts.append(f'<p class="chart-note">{escape(write.keep(write.text(chart.note, {}, {})))}</p>')
    parts.append(_table(chart, steps, write))
    return "".join(parts)


def _bars(steps: Sequence[StepCost], costs: Sequence[float], write: StepWriter) -> str:
    """Draw a bar per shown step, input below and output above, and a dashed line at the first step's cost."""
    numbers = shown_steps(len(steps), _MOST_BARS)
    tallest = max(costs) or 1.0
    scale = _BARS_HEIGHT / tallest
    slot = _WIDTH / len(numbers)
    bottom = _TOP + _BARS_HEIGHT
    height = bottom + _FOOT
    parts = [
        f'<svg class="step-chart" viewBox="0 0 {_WIDTH} {height}" role="img" '
        'aria-labelledby="step-chart-title" xmlns="http://www.w3.org/2000/svg">'
    ]
    for index, number in enumerate(numbers):
        step = steps[number - 1]
        x = index * slot + slot * 0.15
        width = slot * 0.7
        below = max(step.input_cost, 0.0) * scale
        above = max(step.output_cost, 0.0) * scale
        box = f'x="{x:.2f}" width="{width:.2f}"'
        parts.append(f'<rect class="chart-part-0" {box} y="{bottom - below:.2f}" height="{below:.2f}"/>')
        parts.append(f'<rect class="chart-part-1" {box} y="{bottom - below - above:.2f}" height="{above:.2f}"/>')
    first = bottom - costs[0] * scale
    parts.append(f'<line class="chart-mark" x1="0" y1="{first:.2f}" x2="{_WIDTH}" y2="{first:.2f}"/>')
    parts.append(f'<line class="chart-axis" x1="0" y1="{bottom}" x2="{_WIDTH}" y2="{bottom}"/>')
    # The tallest bar's cost above the chart's right edge; the first and last step's numbers under their bars.
    parts.append(f'<text class="chart-mark-label end" x="{_WIDTH}" y="13">{escape(write.money(tallest))}</text>')
    labels = [(0, numbers[0])] + ([(len(numbers) - 1, numbers[-1])] if len(numbers) > 1 else [])
    for index, number in labels:
        label = write.count(number)
        half = len(label) * _CHAR_WIDTH / 2
        anchor = min(max(index * slot + slot / 2, half), _WIDTH - half)
        parts.append(f'<text class="chart-mark-label" x="{anchor:.2f}" y="{height - 3}">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _table(chart: StepChart, steps: Sequence[StepCost], write: StepWriter) -> str:
    """Write the table of the shown steps: number, input tokens, cost and running total."""
    headings = (chart.step, _INPUT_TOKENS, _COST, _RUNNING_TOTAL)
    head = "".join(f'<th scope="col">{escape(write.text(heading, {}, {}))}</th>' for heading in headings)
    rows = []
    for number, step, total in shown_rows(steps):
        cells = (write.count(step.input_tokens), write.money(step.input_cost + step.output_cost), write.money(total))
        data = "".join(f"<td>{escape(write.keep(cell))}</td>" for cell in cells)
        rows.append(f'<tr><th scope="row">{escape(write.count(number))}</th>{data}</tr>')
    return f'<table class="step-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
