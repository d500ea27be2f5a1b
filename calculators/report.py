"""The edge of the core: an evaluation turned into the words and numbers a reader sees.

This module is the one code path for result text. The build calls it to
prerender every page, and the browser worker calls it on every edit, with the
same compiled catalog and the same CLDR facts, so the two cannot disagree.
The translations and the locale's number facts are passed in; nothing here
looks up a "current" language.
"""

from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from html import escape
from types import MappingProxyType
from typing import Any, Protocol

from calculators.drawing.chart import ChartSegment, ChartText, draw_memory_chart, gpus_to_hold, smallest_fitting_gpu
from calculators.drawing.curve import CurveWriter, draw_curve_chart
from calculators.drawing.steps import StepWriter, draw_step_chart
from calculators.drawing.table import draw_code, draw_table
from calculators.kernel.evaluation import LARGEST_RESULT, Evaluation, Problem, evaluate, known_results
from calculators.kernel.numbers import (
    CURRENCIES,
    PLAIN,
    NumberFacts,
    format_money,
    format_number,
    format_scientific,
    readable_fraction_digits,
)
from calculators.kernel.spec import (
    MEMORY_UNITS,
    N_,
    NP_,
    PRICE_FACTS,
    Calculator,
    CurveChart,
    GpuTable,
    InputSpec,
    Kind,
    MemoryChart,
    MenuPrice,
    Message,
    OutputSpec,
    PluralMessage,
    Settings,
    StepChart,
    TableChart,
    Writer,
)
from calculators.vocabulary.checkpoint import combine, read_header
from calculators.vocabulary.model_config import (
    ConfigReading,
    assumptions_for,
    config_values,
    covers,
    fill_values,
    read_model_config,
    unknown_family_for,
)

__all__ = [
    "ENTER_VALUES",
    "ENTER_VALUES_FOR_ALL",
    "HUB_PROBLEMS",
    "LTR_RUN",
    "NOT_KNOWN",
    "NUMBER_WITH_UNIT",
    "OUT_OF_RANGE",
    "ConfigReport",
    "FieldMessage",
    "LocaleKit",
    "MenuGpu",
    "MenuPrice",
    "Report",
    "ResultText",
    "Translations",
    "hub_problem",
    "make_report",
    "menu_gpus",
    "menu_prices",
    "price_facts",
    "read_checkpoint",
    "read_config",
]


class Translations(Protocol):
    """The part of `gettext.GNUTranslations` the edge uses."""

    def pgettext(self, context: str, message: str, /) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


@dataclass(frozen=True)
class LocaleKit:
    """Everything locale-specific the edge needs: a catalog and number facts."""

    translations: Translations
    numbers: NumberFacts


@dataclass(frozen=True)
class ResultText:
    """One result as shown: its number, its unit and its sentence."""

    name: str
    value: str
    unit: str
    sentence: str


@dataclass(frozen=True)
class FieldMessage:
    """What is wrong with one input, in the reader's language."""

    name: str
    message: str


@dataclass(frozen=True)
class Report:
    """All the result text of a page: results when `ok`, otherwise a status, field messages and what still holds.

    When not `ok`, a result that does not depend on the invalid inputs is written as usual; the others have an
    empty value, unit and sentence (the page keeps its last valid ones, greyed).
    """

    ok: bool
    status: str
    results: tuple[ResultText, ...]
    errors: tuple[FieldMessage, ...]
    chart: str = ""
    """The memory chart as SVG markup, for calculators that declare one, when every part of it can be computed."""

    def to_json(self) -> str:
        """Return the report as JSON, the form the browser worker hands to the page."""
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)


# Translators: shown in place of the results while any input is invalid or empty.
ENTER_VALUES = N_("validation", "Enter valid values to see the results.")
# Translators: shown above the results while an input is invalid, when the results that do not depend on it are shown.
ENTER_VALUES_FOR_ALL = N_("validation", "Enter valid values to see every result.")
# Translators: the value of a result the inputs cannot tell (a speed that needs a compute peak the GPU's vendor does
# not publish); its sentence says what is missing.
NOT_KNOWN = N_("result", "Not known")
# Translators: shown in place of the results when a result would be absurdly large.
OUT_OF_RANGE = N_("validation", "These values give a result too large to be meaningful. Check the inputs.")
_PROBLEM_TEXT = MappingProxyType(
    {
        "required": N_("validation", "Enter a value."),
        # Translators: {example} is a number written the way this language writes it, e.g. 0.5.
        "not_a_number": N_("validation", "Enter a number, for example {example}."),
        "not_whole": N_("validation", "Enter a whole number."),
        # Translators: {limit} is the smallest allowed number.
        "too_small": N_("validation", "Enter {limit} or more."),
        # Translators: {limit} is a number the value must be greater than.
        "too_small_exclusive": N_("validation", "Enter a number greater than {limit}."),
        # Translators: {limit} is the largest allowed number.
        "too_large": N_("validation", "Enter {limit} or less."),
        "unknown_choice": N_("validation", "Choose one of the listed options."),
        # Translators: beside an input whose value a calculation cannot use (1e-400, or one that makes a result absurd).
        "out_of_range": N_("validation", "This value is out of range for the calculation."),
        # Translators: beside a list of numbers (a vector); {index} counts the items from 1, {text} is the item as
        # typed. Numbers in such a list always take a point as the decimal mark.
        "not_a_vector_item": N_(
            "validation",
            "Item {index}, “{text}”, is not a number. Separate the numbers with commas, spaces or new lines, and "
            "write decimals with a point: 0.25.",
        ),
        # Translators: beside a list of numbers (a vector); {index} counts the items from 1, {text} is the item as
        # typed, a number too large or too close to zero for a computer's floating-point numbers (1e400, 1e-400).
        "vector_item_out_of_range": N_(
            "validation", "Item {index}, “{text}”, is too large or too close to zero to compute with."
        ),
        # Translators: beside a list of numbers (a vector), in languages that write a decimal comma; {index} counts
        # the items from 1, {text} is the item as typed, such as 0,5. In such a list a comma separates two numbers.
        "decimal_comma": N_(
            "validation",
            "Item {index}, “{text}”, has a decimal comma, but in this list a comma separates two numbers. Write "
            "decimals with a point: 0.25.",
        ),
        # Translators: beside a list of numbers (a vector); {limit} is the most numbers it may hold.
        "too_many": N_("validation", "Enter at most {limit} numbers."),
    }
)


@dataclass(frozen=True)
class MenuGpu:
    """One GPU of a page's menu: its name, and the input values choosing it fills."""

    name: str
    values: Mapping[str, float]


def menu_gpus(options: str) -> tuple[MenuGpu, ...]:
    """Read a page's GPU menu, a JSON list of {"name", "values"} whose values are the texts the menu fills.

    >>> menu_gpus('[{"name": "H100", "values": {"gpu_memory_gb": "80"}}]')
    (MenuGpu(name='H100', values={'gpu_memory_gb': 80.0}),)
    """
    return tuple(
        MenuGpu(str(entry["name"]), {name: float(text) for name, text in entry["values"].items()})
        for entry in json.loads(options)
    )


def menu_prices(calculator: Calculator, feed: str) -> tuple[MenuPrice, ...]:
    """Read the site's price feed (the text of prices.json, version 1, as site_builder/build/feed.py writes it):
    every language model, its prices put on `calculator`'s inputs as its price menu puts them.

    >>> from calculators import find
    >>> feed = '{"entries": [{"name": "M", "kind": "llm", "prices": {"input_per_m": 2, "output_per_m": 8}}]}'
    >>> (model,) = menu_prices(find("llm-monthly-cost"), feed)
    >>> model.values["input_price"], model.values["output_price"], model.values["long_context_above"]
    (2.0, 8.0, 0.0)
    """
    models = []
    for entry in json.loads(feed).get("entries", ()):
        if entry.get("kind") != "llm":
            continue
        facts = price_facts(entry)
        values = {spec.name: facts[spec.preset] for spec in calculator.inputs if spec.preset in facts}
        models.append(MenuPrice(str(entry["name"]), values, int(entry.get("context_tokens", 0))))
    return tuple(models)


def price_facts(entry: Mapping[str, Any]) -> dict[str, float]:
    """A feed entry's `PRICE_FACTS`, as its preset fills them: a language model without a long-context tier has
    one at 0 (none), one without a flex or priority tier bills it at 100 % of its prices, and every list price is
    in US dollars (currency 0)."""
    facts = {f"price.{name}": float(value) for name, value in entry["prices"].items()}
    if entry["kind"] == "llm":
        tier = entry.get("long_context", {})
        facts["price.long_context_above"] = float(tier.get("above_input_tokens", 0))
        for name in ("input_per_m", "cached_input_per_m", "cache_write_per_m", "output_per_m"):
            facts[f"price.long_context_{name}"] = float(tier.get(name, 0))
        for name in ("flex_percent", "priority_percent"):  # no such tier: a request bills at the standard prices
            facts[f"price.{name}"] = float(entry["prices"].get(name) or 100)
        facts["price.web_search_per_k"] = float(entry["prices"].get("web_search_per_k", 0))
    facts["price.currency"] = 0.0
    return {name: value for name, value in facts.items() if name in PRICE_FACTS}


def make_report(
    calculator: Calculator,
    raw: Mapping[str, object],
    kit: LocaleKit,
    gpus: Sequence[MenuGpu] = (),
    prices: Sequence[MenuPrice] = (),
) -> Report:
    """Evaluate `raw` with `calculator` and write every result and problem for `kit`'s locale; `gpus` are the
    page's GPU menu, which a calculator's `gpu_table` computes on, and `prices` the site's language models, which
    its `price_table` does."""
    evaluation = evaluate(calculator, raw, kit.numbers)
    if not evaluation.ok:
        return _problem_report(calculator, evaluation, kit)
    results, chart = _result_texts(calculator, evaluation, kit)
    if calculator.gpu_table and gpus:
        chart += _gpu_table(calculator.gpu_table, evaluation, gpus, kit)
    if calculator.price_table and prices:
        # In US dollars, whatever the reader's prices are in: every list price of the site is.
        table = calculator.price_table
        chart += table.draw(table, evaluation.values, prices, _writer(evaluation, kit, currency=0))
    if calculator.settings:
        chart += _settings(calculator.settings, evaluation, kit)
    return Report(ok=True, status="", results=results, errors=(), chart=chart)


# Translators: the header of a table's first column, which names a GPU of the page's menu.
_GPU_COLUMN = N_("chart", "GPU")


def _gpu_table(table: GpuTable, evaluation: Evaluation, gpus: Sequence[MenuGpu], kit: LocaleKit) -> str:
    """Draw `table`: the calculator on every GPU of the menu, in the reader's language."""
    rows = sorted(
        ((gpu.name, table.row({**evaluation.values, **gpu.values})) for gpu in gpus),
        key=lambda named: table.order(named[1]),
    )
    figures = [
        [name, *(_written(row[c.key], kit.numbers, c.fraction_digits, readable=True) for c in table.columns)]
        for name, row in rows
    ]
    headers = [_translate(_GPU_COLUMN, {}, kit), *(_translate(column.header, {}, kit) for column in table.columns)]
    note = escape(_translate(table.note, {}, kit))
    return draw_table(_translate(table.title, {}, kit), headers, figures) + f'<p class="chart-note">{note}</p>'


_COPY = N_("chart", "Copy")
# Translators: what a copy button says once its text is on the clipboard.
_COPIED = N_("chart", "Copied")


def _settings(settings: Settings, evaluation: Evaluation, kit: LocaleKit) -> str:
    """Draw the texts to paste into each tool, with their copy buttons, in the reader's language."""
    copy, copied = _translate(_COPY, {}, kit), _translate(_COPIED, {}, kit)
    blocks = "".join(
        draw_code(_fill(settings.title, _translate(settings.title, {}, kit), {"tool": tool}), text, copy, copied)
        for tool, text in settings.write(evaluation.values).items()
    )
    return blocks + f'<p class="chart-note">{escape(_translate(settings.note, {}, kit))}</p>'


def _result_texts(calculator: Calculator, evaluation: Evaluation, kit: LocaleKit) -> tuple[tuple[ResultText, ...], str]:
    """Write every result of a computed evaluation, and its chart."""
    numbers = _formatted_numbers(calculator, evaluation, kit.numbers)
    labels = _choice_labels(calculator, evaluation, kit)
    words = {**numbers, **{f"{name}_label": label for name, label in labels.items()}}
    counts = {**evaluation.values, **evaluation.results}
    untold = frozenset(name for name, value in evaluation.results.items() if math.isnan(value))
    results = tuple(_result_text(spec, words, labels, counts, kit, untold) for spec in calculator.outputs)
    if isinstance(calculator.chart, StepChart):
        chart = _step_chart(calculator.chart, evaluation, kit)
    elif isinstance(calculator.chart, TableChart):
        chart = _chart(calculator.chart.memory, evaluation, labels, kit)
        chart += calculator.chart.draw({**evaluation.values, **evaluation.results}, _writer(evaluation, kit))
    elif isinstance(calculator.chart, CurveChart):
        chart = _curve_chart(calculator.chart, evaluation, kit)
    else:
        chart = _chart(calculator.chart, evaluation, labels, kit) if calculator.chart else ""
    return results, chart


def _result_text(
    spec: OutputSpec,
    words: Mapping[str, str],
    labels: Mapping[str, str],
    counts: Mapping[str, float],
    kit: LocaleKit,
    untold: frozenset[str],
) -> ResultText:
    """One result as written: its value, unit and sentence.

    A result the inputs cannot tell (NaN, in `untold`) reads "Not known", with no unit; it, and a result whose sentence
    reads one, gets its `unknown` sentence (`_within_range` lets no other result be NaN or read one).
    """
    message = spec.unknown if spec.unknown is not None and spec.reads & untold else spec.sentence
    sentence = _isolate_runs(_fill(message, _translate(message, counts, kit), words), kit.numbers.direction)
    if spec.name in untold:
        return ResultText(spec.name, _translate(NOT_KNOWN, {}, kit), "", sentence)
    unit = labels[spec.unit_choice] if spec.unit_choice else _translate(spec.unit, counts, kit) if spec.unit else ""
    return ResultText(spec.name, words[spec.name], unit, sentence)


# Translators: one line of the memory chart's legend: {part} is a component such as "Weights", {value} {unit} its size.
_CHART_LEGEND = N_("chart", "{part}: {value} {unit}")
# Translators: the memory chart's last legend line; {value} {unit} is the sum of the components.
_CHART_TOTAL = N_("chart", "Total: {value} {unit}")
_CHART_TITLE = N_("chart", "Memory by component, against common GPU sizes")
# Translators: {size} is a GPU memory size such as 24 or 80; keep "GB", the size the cards are sold as.
_CHART_FITS = N_("chart", "Fits on a single {size} GB GPU.")
# Translators: {count} is how many GPUs of {size} GB (the largest common size, 141) hold the total, at least 2.
_CHART_SPLIT = NP_(
    "chart",
    "More than a single {size} GB GPU holds: {count} × {size} GB GPU holds it, split evenly.",
    "More than a single {size} GB GPU holds: {count} × {size} GB GPUs hold it, split evenly.",
    count="count",
)
_CHART_NOTE = N_(
    "chart",
    "Dashed marks: GPUs sold as 24 to 141 GB, up to the first that holds the total, drawn at the GiB they report. "
    "A GPU holds it when it takes at most four fifths of its memory, the margin Fujii et al. found safe.",
)
# Translators: under the memory chart when no single GPU holds the total.
_CHART_NOTE_SPLIT = N_(
    "chart",
    "Dashed marks: multiples of a 141 GB GPU, drawn at the 141 GiB it reports. Each GPU takes at most four fifths "
    "of its memory, the margin Fujii et al. found safe.",
)


def _chart(chart: MemoryChart, evaluation: Evaluation, labels: Mapping[str, str], kit: LocaleKit) -> str:
    """Draw a calculator's memory chart for this evaluation, in the reader's language."""
    unit = labels[chart.unit_choice]
    unit_bytes = evaluation.values[chart.unit_choice]
    legend = _translate(_CHART_LEGEND, {}, kit)

    def written(value: float) -> str:
        return _written(value, kit.numbers, 2, readable=True)

    segments = [
        ChartSegment(
            value=evaluation.results[part.name],
            legend=_fill(
                _CHART_LEGEND,
                legend,
                {
                    "part": _translate(part.label, {}, kit),
                    "value": written(evaluation.results[part.name]),
                    "unit": unit,
                },
            ),
        )
        for part in chart.parts
    ]
    total = sum(segment.value for segment in segments)
    size = smallest_fitting_gpu(total, unit_bytes)
    if size is not None:
        fit = _fill(_CHART_FITS, _translate(_CHART_FITS, {}, kit), {"size": written(size)})
    else:
        count, largest = gpus_to_hold(total, unit_bytes)
        split = _translate(_CHART_SPLIT, {"count": count}, kit)
        fit = _fill(_CHART_SPLIT, split, {"count": written(count), "size": written(largest)})
    words = ChartText(
        title=_translate(_CHART_TITLE, {}, kit),
        total=_fill(_CHART_TOTAL, _translate(_CHART_TOTAL, {}, kit), {"value": written(total), "unit": unit}),
        fit=fit,
        note=_translate(_CHART_NOTE if size is not None else _CHART_NOTE_SPLIT, {}, kit),
        gb=_translate(MEMORY_UNITS[0].label, {}, kit),
    )
    direction = kit.numbers.direction
    texts = (words.title, words.total, words.fit, words.note)
    title, total_text, fit_text, note = (_keep_together(text, direction) for text in texts)
    segments = [ChartSegment(s.value, _keep_together(s.legend, direction)) for s in segments]
    words = ChartText(title=title, total=total_text, fit=fit_text, note=note, gb=words.gb)
    return draw_memory_chart(segments, unit_bytes, words)


def _step_chart(chart: StepChart, evaluation: Evaluation, kit: LocaleKit) -> str:
    """Draw a calculator's step chart (`drawing/steps.py`) for this evaluation, in the reader's language."""
    currency = CURRENCIES[int(evaluation.values["currency"])]

    def text(message: Message | PluralMessage, words: Mapping[str, str], counts: Mapping[str, float]) -> str:
        return _fill(message, _translate(message, counts, kit), words)

    return draw_step_chart(
        chart,
        evaluation.values,
        StepWriter(
            text=text,
            keep=lambda text: _keep_together(text, kit.numbers.direction),
            count=lambda value: _written(value, kit.numbers, 0),
            money=lambda value: format_money(value, currency, kit.numbers),
        ),
    )


def _writer(evaluation: Evaluation, kit: LocaleKit, currency: int | None = None) -> Writer:
    """How a drawn chart writes its words and figures in the reader's language (its money in `currency`, an index of
    `CURRENCIES`, or else in the page's)."""
    chosen = CURRENCIES[int(evaluation.values.get("currency", 0)) if currency is None else currency]
    return Writer(
        text=lambda message, words, counts: _fill(message, _translate(message, counts, kit), words),
        keep=lambda text: _keep_together(text, kit.numbers.direction),
        number=lambda value, digits: _written(value, kit.numbers, digits, readable=True),
        money=lambda value: format_money(value, chosen, kit.numbers),
        table=draw_table,
    )


def _curve_chart(chart: CurveChart, evaluation: Evaluation, kit: LocaleKit) -> str:
    """Draw a calculator's curve chart (`drawing/curve.py`) for this evaluation, in the reader's language."""
    return draw_curve_chart(
        chart,
        evaluation.values,
        CurveWriter(
            text=lambda message, words: _fill(message, _translate(message, {}, kit), words),
            keep=lambda text: _keep_together(text, kit.numbers.direction),
            number=lambda value: _written(value, kit.numbers, 0, readable=True),
        ),
    )


@dataclass(frozen=True)
class ConfigReport:
    """A pasted config.json, read: the input texts it fills and one message saying what happened."""

    ok: bool
    values: Mapping[str, str]
    message: str

    def to_json(self) -> str:
        """Return the outcome as JSON, the form the browser worker hands to the page."""
        return json.dumps(
            {"ok": self.ok, "values": dict(self.values), "message": self.message}, ensure_ascii=False, sort_keys=True
        )


# Translators: after pasting a config.json; {count} is how many inputs were filled.
_CONFIG_FILLED = NP_(
    "config",
    "Filled {count} input from the configuration.",
    "Filled {count} inputs from the configuration.",
    count="count",
)
# Translators: {keys} lists config.json keys (code names, keep them as they are) that were absent.
_CONFIG_ASSUMED = N_("config", "Not in it, so the usual default was taken: {keys}.")
# Translators: {model_type} is a config.json model_type (a code name, keep it as it is), such as "falcon".
_CONFIG_UNKNOWN_FAMILY = N_(
    "config",
    "This calculator does not know the model family {model_type}, so it counted it as a Llama-style model "
    "(RMSNorm, a gated MLP of three matrices, no biases): compare the total with the checkpoint's.",
)
_CONFIG_LATENT = N_(
    "config",
    "This model uses multi-head latent attention (as DeepSeek-V3 does), which this calculator's formula does not "
    "describe, so nothing was filled.",
)
_CONFIG_PROBLEMS = MappingProxyType(
    {
        # Translators: {line} and {column} locate the first error in the pasted text.
        "not_json": N_("config", "This is not valid JSON: check line {line}, column {column}."),
        "not_object": N_("config", "Paste the whole config.json file: one JSON object in braces."),
        # Translators: {keys} lists config.json keys (code names, keep them as they are).
        "missing": N_("config", "This configuration lacks facts every model needs: {keys}."),
        # Translators: {keys} lists config.json keys (code names, keep them as they are).
        "not_number": N_("config", "These keys should hold whole numbers: {keys}."),
        # Translators: {keys} lists config.json keys (code names, keep them as they are).
        "too_large": N_("config", "These keys hold numbers far larger than any model has: {keys}."),
        "too_big": N_("config", "This text is longer or more deeply nested than any config.json, so it was not read."),
    }
)


def read_config(calculator: Calculator, text: str, kit: LocaleKit) -> ConfigReport:
    """Read a pasted config.json for `calculator` and say, in `kit`'s language, what it filled or what is wrong."""
    reading = read_model_config(text)
    if reading.problem:
        message = _CONFIG_PROBLEMS[reading.problem]
        words = {
            "keys": ", ".join(reading.keys),
            "line": format_number(reading.line, kit.numbers, 0),
            "column": format_number(reading.column, kit.numbers, 0),
        }
        return ConfigReport(ok=False, values={}, message=_fill(message, _translate(message, {}, kit), words))
    if not covers(calculator, reading.facts):
        return ConfigReport(ok=False, values={}, message=_translate(_CONFIG_LATENT, {}, kit))
    values = config_values(calculator, reading)
    quantized, quantization_note = _quantization(calculator, reading, kit)
    values.update(quantized)
    count = {"count": float(len(values))}
    text_out = _fill(_CONFIG_FILLED, _translate(_CONFIG_FILLED, count, kit), {"count": str(len(values))})
    assumed = assumptions_for(calculator, reading)
    if assumed:
        note = _fill(_CONFIG_ASSUMED, _translate(_CONFIG_ASSUMED, {}, kit), {"keys": ", ".join(assumed)})
        text_out = f"{text_out} {note}"
    unknown = unknown_family_for(calculator, reading)
    if unknown:
        note = _fill(_CONFIG_UNKNOWN_FAMILY, _translate(_CONFIG_UNKNOWN_FAMILY, {}, kit), {"model_type": unknown})
        text_out = f"{text_out} {note}"
    if quantization_note:
        text_out = f"{text_out} {quantization_note}"
    return ConfigReport(ok=True, values=values, message=_isolate_runs(text_out, kit.numbers.direction))


# Translators: {method} is a quant_method of config.json (a code name, keep it), {bits} a formatted number of bits.
_CONFIG_QUANTIZED = N_(
    "config",
    "Its quantization_config ({method}) stores {bits} bits per weight on average, scales and the layers it leaves "
    "unquantized included: this page takes that for the weights.",
)
# Translators: {method} is a quant_method of config.json (a code name, keep it as it is).
_CONFIG_QUANTIZED_UNKNOWN = N_(
    "config",
    "Its quantization_config ({method}) is not a layout this page knows: enter the bits its files store per weight.",
)


def _quantization(calculator: Calculator, reading: ConfigReading, kit: LocaleKit) -> tuple[dict[str, str], str]:
    """The inputs a quantized checkpoint's config fills (bits per weight, or the planner's weights format) and what
    the page says of it; nothing where the page takes neither or the config is not quantized."""
    quantization = reading.quantization
    names = {spec.name: spec for spec in calculator.inputs}
    if quantization is None or not {"bits_per_weight", "weight_format"} & set(names):
        return {}, ""
    words = {"method": quantization.method}
    if not quantization.bits:
        return {}, _fill(_CONFIG_QUANTIZED_UNKNOWN, _translate(_CONFIG_QUANTIZED_UNKNOWN, {}, kit), words)
    values: dict[str, str] = {}
    if "bits_per_weight" in names:
        values["bits_per_weight"] = format_number(reading.stored_bits, PLAIN, 4, grouping=False)
    chosen = names.get("weight_format")
    choice = (
        next((c for c in chosen.choices if float(c.numeric) == quantization.weight_format), None) if chosen else None
    )
    if choice is not None:
        values["weight_format"] = choice.value
    words["bits"] = format_number(reading.stored_bits, kit.numbers, 2)
    return values, _fill(_CONFIG_QUANTIZED, _translate(_CONFIG_QUANTIZED, {}, kit), words)


# Translators: after reading a model's files; {files} is how many safetensors files, {parameters} a formatted count.
_CHECKPOINT_COUNTED = NP_(
    "config",
    "Its safetensors file holds {parameters} parameters: that count is used here.",
    "Its {files} safetensors files hold {parameters} parameters: that count is used here.",
    count="files",
)
# Translators: {stored} is a formatted number of gigabytes (10⁹ bytes), {bits} a formatted number of bits.
_CHECKPOINT_QUANTIZED = N_(
    "config",
    "Its safetensors files hold packed or quantized tensors, {stored} GB as stored: {bits} bits per weight on "
    "average, which this page takes for the weights.",
)
# Translators: {stored} is a formatted number of gigabytes (10⁹ bytes).
_CHECKPOINT_PACKED = N_(
    "config",
    "Its safetensors files hold packed or quantized tensors, {stored} GB as stored, so the parameters were counted "
    "from the configuration.",
)
_CHECKPOINT_NONE = N_("config", "It has no safetensors files, so the parameters were counted from the configuration.")
HUB_PROBLEMS: Mapping[str, Message] = MappingProxyType(
    {
        "bad_id": N_("config", "Type a model id as the Hub writes it: an organisation, a slash and a name."),
        "offline": N_("config", "The Hub could not be reached: check the connection and try again."),
        "missing": N_("config", "The Hub has no public model by this id: check its spelling."),
        "gated": N_(
            "config",
            "This model is gated: its files open only to signed-in users who accepted its terms. Paste its "
            "config.json instead.",
        ),
        "no_config": N_("config", "This repository has no config.json, so there is nothing to read."),
        "no_revision": N_("config", "This model has no such revision: check the branch, tag or commit."),
        # Translators: {seconds} is a formatted number of seconds.
        "rate_limited": N_("config", "The Hub asks to wait {seconds} seconds before the next request."),
        # Translators: {status} is an HTTP status code, such as 500.
        "hub_error": N_("config", "The Hub answered with an error (HTTP {status}): try again later."),
        "not_safetensors": N_("config", "A safetensors file of this model could not be read."),
    }
)
"""What the page's script and the command line say when a model cannot be read from the Hub, by problem code."""


def read_checkpoint(calculator: Calculator, config: str, headers: Sequence[str], kit: LocaleKit) -> ConfigReport:
    """Read a model's config.json and the headers of its safetensors files for `calculator`, as `read_config` does,
    and take the parameter count from the checkpoint where it states one (every tensor a plain float): it counts
    what the configuration's formula leaves out, such as a multimodal model's vision tower."""
    report = read_config(calculator, config, kit)
    if not report.ok or not any(spec.preset == "model.params_billion" for spec in calculator.inputs):
        return report
    tensors = combine(read_header(header) for header in headers)
    values = dict(report.values)
    if tensors.problem:
        note = _translate(HUB_PROBLEMS["not_safetensors"], {}, kit)
    elif not headers:
        note = _translate(_CHECKPOINT_NONE, {}, kit)
    elif tensors.unpacked:
        values.update(fill_values(calculator, {"model.params_billion": tensors.parameters / 1e9}))
        note = _fill(
            _CHECKPOINT_COUNTED,
            _translate(_CHECKPOINT_COUNTED, {"files": float(len(headers))}, kit),
            {
                "files": format_number(len(headers), kit.numbers, 0),
                "parameters": format_number(tensors.parameters, kit.numbers, 0),
            },
        )
    else:
        stored = format_number(tensors.stored_bytes / 1e9, kit.numbers, 2)
        bits = _stored_bits(calculator, values, tensors.stored_bytes)
        if bits:
            values["bits_per_weight"] = format_number(bits, PLAIN, 4, grouping=False)
            words = {"stored": stored, "bits": format_number(bits, kit.numbers, 2)}
            note = _fill(_CHECKPOINT_QUANTIZED, _translate(_CHECKPOINT_QUANTIZED, {}, kit), words)
        else:
            note = _fill(_CHECKPOINT_PACKED, _translate(_CHECKPOINT_PACKED, {}, kit), {"stored": stored})
    message = _isolate_runs(f"{report.message} {note}", kit.numbers.direction)
    return ConfigReport(ok=True, values=values, message=message)


def _stored_bits(calculator: Calculator, values: Mapping[str, str], stored_bytes: int) -> float:
    """The bits a quantized checkpoint stores per weight of the parameter count its configuration filled in `values`
    (scales and the layers left in 16 bits included), so that the page's weights take what the files hold; 0 where
    the page has no bits-per-weight input or the figure falls outside it (files that do not match the config)."""
    spec = next((spec for spec in calculator.inputs if spec.name == "bits_per_weight"), None)
    count = next((values.get(spec.name) for spec in calculator.inputs if spec.preset == "model.params_billion"), None)
    if spec is None or not count or not float(count):
        return 0.0
    bits = round(8 * stored_bytes / (float(count) * 1e9), 4)
    low, high = spec.minimum, spec.maximum
    return bits if (low is None or bits > low) and (high is None or bits <= high) else 0.0


def hub_problem(code: str, number: int, kit: LocaleKit) -> str:
    """Say in `kit`'s language why a model could not be read from the Hub (`HUB_PROBLEMS`); `number` is the seconds
    to wait (rate_limited) or the HTTP status (hub_error)."""
    message = HUB_PROBLEMS.get(code, HUB_PROBLEMS["hub_error"])
    words = {"seconds": format_number(number, kit.numbers, 0), "status": str(number)}
    text = _fill(message, _translate(message, {}, kit), words)
    return _isolate_runs(text, kit.numbers.direction)


def _problem_report(calculator: Calculator, evaluation: Evaluation, kit: LocaleKit) -> Report:
    errors = tuple(
        FieldMessage(
            problem.name,
            _isolate_runs(_problem_message(calculator, problem, evaluation.values, kit), kit.numbers.direction),
        )
        for problem in evaluation.problems
        if problem.name
    )
    whole = any(not problem.name for problem in evaluation.problems)
    # What the invalid inputs provably do not change is written as usual: each result whose value and words
    # (a sentence may name an input or another result) read none of them; a memory chart, when its parts are
    # known. The step and curve charts run the formula again over a range, so they wait for valid inputs.
    known = known_results(calculator, evaluation)
    blank = tuple(ResultText(spec.name, "", "", "") for spec in calculator.outputs)
    results, chart = blank, ""
    if known is not None:
        written, drawn = _result_texts(calculator, Evaluation(values=known.values, results=known.results), kit)
        results = tuple(
            text if not _words_read(calculator, spec) & known.unknown else empty
            for spec, text, empty in zip(calculator.outputs, written, blank, strict=True)
        )
        if isinstance(calculator.chart, MemoryChart):
            parts = {part.name for part in calculator.chart.parts} | {calculator.chart.unit_choice}
            chart = "" if parts & known.unknown else drawn
    some = any(result.value for result in results)
    status = _translate(OUT_OF_RANGE if whole else ENTER_VALUES_FOR_ALL if some else ENTER_VALUES, {}, kit)
    return Report(ok=False, status=status, results=results, errors=errors, chart=chart)


def _words_read(calculator: Calculator, spec: OutputSpec) -> set[str]:
    """The inputs and results a written result reads: its value, its sentence's fields, counts, unit and currency."""
    names = set(spec.reads)
    declared = {
        **{input_spec.name: input_spec.currency for input_spec in calculator.inputs},
        **{output.name: output.currency for output in calculator.outputs},
    }
    currencies = {declared.get(name) or ("currency" if name in calculator.money else None) for name in names}
    return names | {currency for currency in currencies if currency}


def _problem_message(calculator: Calculator, problem: Problem, values: Mapping[str, float], kit: LocaleKit) -> str:
    spec = calculator.input(problem.name)
    if problem.code == "rule":  # every input was read, so each can be written into the rule's message
        rule = next(r.message for r in calculator.rules if r.name == problem.name and not r.holds(values))
        inputs = {s.name: _written(values[s.name], kit.numbers, s.fraction_digits) for s in calculator.inputs}
        return _fill(rule, _translate(rule, {}, kit), inputs)
    key = "too_small_exclusive" if problem.code == "too_small" and problem.exclusive else problem.code
    message = _PROBLEM_TEXT[key]
    words = {
        "limit": _limit(float(problem.limit), spec, kit.numbers) if problem.limit is not None else "",
        "example": _example(spec, kit.numbers),
        "index": format_number(problem.index, kit.numbers, 0),
        "text": problem.text,
    }
    return _fill(message, _translate(message, {}, kit), words)


def _limit(limit: float, spec: InputSpec, facts: NumberFacts) -> str:
    """Write a bound as the reader reads it: 10³⁰ rather than thirty-one digits."""
    if abs(limit) >= LARGEST_RESULT:
        return format_scientific(limit, facts, 2)
    return format_number(limit, facts, spec.fraction_digits)


def _example(spec: InputSpec, facts: NumberFacts) -> str:
    """Show a number the field accepts: its default, in the locale's digits (or as typed, if scientific)."""
    if spec.kind in (Kind.CHOICE, Kind.VECTOR):
        return ""
    if "e" in spec.default.lower():
        return spec.default
    return format_number(float(spec.default), facts, spec.fraction_digits, grouping=False)


def _formatted_numbers(calculator: Calculator, evaluation: Evaluation, facts: NumberFacts) -> dict[str, str]:
    values = evaluation.values

    def money(value: float, currency: str) -> str:
        return format_money(value, CURRENCIES[int(values[currency])], facts)

    numbers = {
        spec.name: money(values[spec.name], spec.currency)
        if spec.currency
        else _written(values[spec.name], facts, spec.fraction_digits)
        for spec in calculator.inputs
    }
    outputs = {spec.name: spec for spec in calculator.outputs}
    for name, value in evaluation.results.items():
        # A result no output declares (a chart's part, a figure a sentence converts): to 4 significant digits.
        spec = outputs.get(name)
        if math.isnan(value):  # not known: no sentence that is written reads it (`_result_text`)
            continue
        if spec is None and name in calculator.money:
            numbers[name] = money(value, "currency")
        elif spec is None:
            numbers.setdefault(name, _written(value, facts, 9, readable=True))
        elif spec.currency:
            numbers[name] = money(value, spec.currency)
        else:
            numbers[name] = _written(
                value, facts, spec.fraction_digits, scientific=spec.scientific, readable=not spec.exact
            )
    return numbers


def _written(
    value: float, facts: NumberFacts, fraction_digits: int, *, scientific: bool = False, readable: bool = False
) -> str:
    """Write a value at its precision (`readable`: to 4 significant digits too), never a number that is not zero as "0".

    >>> from calculators.kernel.numbers import PLAIN
    >>> _written(1e-7, PLAIN, 2), _written(0.004, PLAIN, 2), _written(0.0, PLAIN, 2), _written(2.5, PLAIN, 2)
    ('1 × 10⁻⁷', '0.004', '0', '2.5')
    >>> _written(671.0264192, PLAIN, 9, readable=True), _written(1120.4, PLAIN, 2, readable=True)
    ('671', '1,120')
    """
    if scientific:
        return format_scientific(value, facts, fraction_digits)
    if readable:
        fraction_digits = readable_fraction_digits(value, fraction_digits)
    if value == 0 or abs(value) >= 0.5 * 10**-fraction_digits:
        return format_number(value, facts, fraction_digits)
    if abs(value) >= 1e-6:  # two significant digits, still as a decimal
        return format_number(value, facts, 1 - math.floor(math.log10(abs(value))))
    return format_scientific(value, facts, 1)


# A number as the site writes it (group and decimal symbols of every locale, Arabic ones too, × 10ⁿ), then a word.
_DIGIT = r"[0-9\u0660-\u0669\u06f0-\u06f9]"  # spelled out, so the pattern means the same in JavaScript
# A power is part of its number: "10⁹", "2³⁰" (an isolate that closed before it would show "⁹10" right to left).
_NUMBER = (
    rf"[-\u2212]?{_DIGIT}(?:(?:{_DIGIT}|[.,\u066b\u066c\u00a0\u202f])*{_DIGIT})?[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*"
    r"(?: × 10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)?%?"
)
_LATIN = r"[A-Za-z][\w.+/-]*\w|[A-Za-z]"
_TOKEN = rf"(?:{_NUMBER}(?:[A-Za-z]\w*)?|{_LATIN})"  # 16.06, 8B, GiB, tokens/s, Llama-3.1
_RUN = re.compile(rf"{_TOKEN}(?:[ \u00a0](?:[×÷=+\u2212-] )?{_TOKEN})*")
LTR_RUN = _RUN.pattern
"""A run of numbers and Latin words that a right-to-left text isolates (`_isolate_runs`; the build's articles too)."""
_NUMBER_THEN_WORD = re.compile(rf"({_NUMBER}) (?=\w)")
# The word ends at a space or at the first Chinese, Japanese or Korean character after its first (those scripts
# put no space between words: a span to the next space would hold the rest of the sentence on one line).
_CJK = r"\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
NUMBER_WITH_UNIT = rf"{_NUMBER}[ \u00a0][^\s.,;:!?()×÷=+\u2212\u2066-\u2069][^\s.,;:!?()\u2066-\u2069{_CJK}]*"
"""A number and the word after it (mostly its unit), which a line should not part: "1,120 GB", "128 samples".

The page keeps each such pair of a result's sentence on one line (site_builder.build.rendering.keep_together when
it prerenders, app.js with this same pattern live), leaving the sentence's text as it is.
"""


def _keep_together(text: str, direction: str) -> str:
    r"""Bind each number to the word after it (a no-break space), and in a right-to-left text isolate it too.

    >>> _keep_together("Total: 16.06 GB", "ltr")
    'Total: 16.06\xa0GB'
    """
    return _isolate_runs(_NUMBER_THEN_WORD.sub("\\1\u00a0", text), direction)


def _isolate_runs(text: str, direction: str) -> str:
    r"""In a right-to-left text, wrap each run of numbers and Latin words ("20.35 GB", "Llama 3.1 8B") in LRI … PDI.

    The bidirectional algorithm would otherwise order such runs by their neighbours: "20.35 GB: 16.06 GB" in
    an Arabic sentence shows as "GB: 16.06 GB 20.35". A run holds only digits and Latin letters, so it is
    isolated as left to right (LRI), not by its first strong letter (FSI): a run of digits alone, such as
    "70 × 10⁹", has none, and Chromium then orders it right to left as "10⁹ × 70". Only right-to-left
    texts get the marks; elsewhere they change nothing a reader sees and would only follow the text into
    copies, logs and exact tests.

    >>> _isolate_runs("الإجمالي: 20.35 GB من Llama 3.1 8B", "rtl")
    'الإجمالي: ⁦20.35 GB⁩ من ⁦Llama 3.1 8B⁩'
    >>> _isolate_runs("Total: 20.35 GB", "ltr")
    'Total: 20.35 GB'
    """
    if direction != "rtl":
        return text
    return _RUN.sub(lambda match: f"\u2066{match.group(0)}\u2069", text)


def _choice_labels(calculator: Calculator, evaluation: Evaluation, kit: LocaleKit) -> dict[str, str]:
    """Name each choice input's chosen option in the reader's language (a unit, say)."""
    labels = {}
    for spec in calculator.inputs:
        chosen = next((c for c in spec.choices if float(c.numeric) == evaluation.values.get(spec.name)), None)
        if chosen is not None:
            labels[spec.name] = _translate(chosen.label, {}, kit)
    return labels


def _translate(message: Message | PluralMessage, counts: Mapping[str, float], kit: LocaleKit) -> str:
    if isinstance(message, Message):
        return kit.translations.pgettext(message.context, message.text)
    count = round(counts[message.count])
    return kit.translations.npgettext(message.context, message.singular, message.plural, count)


def _fill(message: Message | PluralMessage, translated: str, words: Mapping[str, str]) -> str:
    """Put `words` into a translated text; a translation with other fields than plain names falls back to the source.

    The build refuses such catalogs; this guards a catalog handed to the library directly
    (a format spec such as {limit:>50000000} would write 50 MB).
    """
    source = message.text if isinstance(message, Message) else message.plural
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(translated)]
    except ValueError:  # a stray brace
        return source.format_map(words)
    if any(name is not None and (name not in words or spec or conversion) for name, spec, conversion in fields):
        return source.format_map(words)
    return translated.format_map(words)
