"""The vocabulary a calculator is declared in: messages, inputs, outputs, the calculator.

Everything here is plain frozen data. Labels are `Message` values marked for
extraction with `N_`/`NP_` and translated at the edge (see `report.py`), so the
core never holds prose in any particular language.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from functools import cached_property

__all__ = [
    "GPU_FACTS",
    "MEMORY_UNITS",
    "MODEL_FACTS",
    "NP_",
    "N_",
    "PRICE_FACTS",
    "Calculator",
    "Category",
    "ChartPart",
    "Choice",
    "Column",
    "Compute",
    "CurveChart",
    "CurvePoint",
    "GpuTable",
    "InputSpec",
    "Kind",
    "MemoryChart",
    "MenuPrice",
    "Message",
    "OutputSpec",
    "PluralMessage",
    "PriceTable",
    "Reduce",
    "Rule",
    "Settings",
    "StepChart",
    "StepCost",
    "TableChart",
    "Writer",
    "messages_of",
    "slug_of",
]


@dataclass(frozen=True)
class Message:
    """A translatable text, with the gettext context it is looked up in."""

    context: str
    text: str


@dataclass(frozen=True)
class PluralMessage:
    """A translatable text with plural forms, chosen by the value named `count`."""

    context: str
    singular: str
    plural: str
    count: str


def N_(context: str, text: str) -> Message:  # noqa: N802 - the gettext convention
    """Mark `text` for extraction; it is translated where it is shown."""
    return Message(context, text)


def NP_(context: str, singular: str, plural: str, *, count: str) -> PluralMessage:  # noqa: N802
    """Mark a plural text for extraction; `count` names the value that picks the form."""
    return PluralMessage(context, singular, plural, count)


def slug_of(module: str) -> str:
    """Return the slug a calculator's folder names: `calculators.cost.token_cost` (or `token_cost`) is token-cost."""
    return module.rsplit(".", 1)[-1].replace("_", "-")


def messages_of(module: str) -> tuple[Callable[[str], Message], Callable[..., PluralMessage]]:
    """Return a calculator module's `N_` and `NP_`, in the gettext context of its slug.

    The module binds them once, `N_, NP_ = messages_of(__name__)`, and its words then need no context
    typed at each message (`N_("Text")`); babel.cfg extracts its folder with the same slug
    (`site_builder/build/extraction.py`).

    >>> N_, NP_ = messages_of("calculators.cost.token_cost")
    >>> N_("Cost per request")
    Message(context='token-cost', text='Cost per request')
    """
    context = slug_of(module)

    def message(text: str) -> Message:
        return Message(context, text)

    def plural(singular: str, plural: str, *, count: str) -> PluralMessage:
        return PluralMessage(context, singular, plural, count)

    return message, plural


class Kind(StrEnum):
    """How an input's text is read."""

    INTEGER = "integer"
    DECIMAL = "decimal"
    CHOICE = "choice"
    VECTOR = "vector"
    """A list of numbers pasted as text (an embedding); `evaluation.read_vector` says how it is read."""


@dataclass(frozen=True)
class Choice:
    """One option of a choice input.

    `value` is what a form or a link submits (a public hook); `number` is what the formula
    receives when the value is a name rather than a number (as "gib" stands for 2³⁰).
    """

    value: str
    label: Message
    number: str | None = None

    @property
    def numeric(self) -> str:
        """Return the number the formula receives for this choice."""
        return self.number if self.number is not None else self.value


@dataclass(frozen=True)
class InputSpec:
    """One input: its public name, how it is read, its bounds and its words."""

    name: str
    kind: Kind
    group: Message
    label: Message
    help: Message
    default: str
    unit: Message | None = None
    minimum: Decimal | None = None
    minimum_exclusive: bool = False
    maximum: Decimal | None = None
    choices: tuple[Choice, ...] = ()
    fraction_digits: int = 6
    advanced: bool = False
    """Shown collapsed under "Advanced options": a refinement most readers can leave at its default."""
    optional: bool = False
    """A missing value takes the default: for inputs added after the calculator shipped, so old links still work."""
    preset: str | None = None
    """The model, GPU or price fact (a key of `MODEL_FACTS`, `GPU_FACTS` or `PRICE_FACTS`) a preset fills in."""
    currency: str | None = None
    """The choice input naming the currency this amount is in (`cost.CURRENCY`): sentences write it as money."""

    def choice_label(self, value: str) -> Message | None:
        """Return the label of the choice submitted as `value`, if there is one."""
        return next((c.label for c in self.choices if c.value == value), None)


@dataclass(frozen=True)
class OutputSpec:
    """One result: its public name, its unit, and the sentence that explains it.

    A result is written to `numbers.SIGNIFICANT_DIGITS` (4) significant digits and at most `fraction_digits`
    decimals, its whole part always in full: 671.0264192 billion reads "671", 37.552297472 "37.55", 1,120.4 GB
    "1,120". An `exact` result (a count the formula gives to the unit, such as a checkpoint's parameters) is
    written with every digit up to `fraction_digits`.
    """

    name: str
    label: Message
    sentence: Message | PluralMessage
    unit: Message | PluralMessage | None = None
    fraction_digits: int = 2
    exact: bool = False
    """Written in full rather than to 4 significant digits: an exact count, not an estimate."""
    unit_choice: str | None = None
    """The choice input whose label is this output's unit (a GB/GiB switch), if any."""
    scientific: bool = False
    """Written as a mantissa times a power of ten (3.14 × 10²³), for FLOP counts and the like."""
    currency: str | None = None
    """The choice input naming the currency of this amount (`cost.CURRENCY`): written as money, "USD 1,234.50"."""
    unknown: Message | None = None
    """The sentence written instead when the inputs cannot tell this result, or a figure its sentence reads: the
    formula returns NaN for it (a GPU whose vendor publishes no compute peak has no time to first token). Only a
    result with one may be NaN; the value then reads "Not known"."""

    @cached_property
    def reads(self) -> frozenset[str]:
        """The names its written text reads: itself, its sentence's and unit's fields and counts, its unit choice and
        currency (a field `x_label` reads the choice `x`). Worked out once: every recalculation asks.

        >>> sorted(OutputSpec("cost", N_("output", "Cost"), N_("output", "{cost} for {count_label} items")).reads)
        ['cost', 'count']
        """
        names = {self.name, *filter(None, (self.unit_choice, self.currency))}
        for message in (self.sentence, self.unit):
            if isinstance(message, PluralMessage):
                names.add(message.count)
            if message is not None:
                texts = (message.text,) if isinstance(message, Message) else (message.singular, message.plural)
                fields = (field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field)
                names.update(field.removesuffix("_label") for field in fields)
        return frozenset(names)


MEMORY_UNITS: tuple[Choice, ...] = (
    Choice("gb", N_("unit", "GB"), number="1000000000"),
    Choice("gib", N_("unit", "GiB"), number="1073741824"),
)
"""The GB/GiB switch of memory figures: the formula receives bytes per unit, links carry "gb" or "gib"."""

MODEL_FACTS: tuple[str, ...] = (
    "model.params_billion",
    "model.active_params_billion",
    "model.layers",
    "model.hidden_size",
    "model.attention_heads",
    "model.kv_heads",
    "model.head_dim",
    "model.ffn_size",
    "model.vocab_size",
    "model.tied_embeddings",
    "model.experts",
    "model.experts_per_token",
    "model.expert_ffn_size",
    "model.shared_experts",
    "model.shared_expert_ffn_size",
    "model.shared_expert_gate",
    "model.dense_layers",
    "model.context_tokens",
    "model.architecture",
    "model.attention_bias",
    "model.router_bias",
    "model.positions",
    "model.extra_layer_params",
    "model.q_lora_rank",
    "model.kv_lora_rank",
    "model.qk_nope_head_dim",
    "model.qk_rope_head_dim",
    "model.v_head_dim",
    "model.module_layout",
    "model.sliding_window",
    "model.sliding_window_share",
    "model.state_layers_share",
    "model.cacheless_layers_share",
    "model.state_beside_attention",
    "model.state_conv_channels",
    "model.state_conv_width",
    "model.recurrent_state",
    "model.state_precision",
)
"""What a model preset (or a pasted config.json) can fill: the architecture facts config.json states.

Every fact is a number. `tied_embeddings`, `attention_bias`, `router_bias` and `shared_expert_gate` are 1 or 0;
`architecture` is 0 for Llama-style, 1 for GPT-2-style and 2 for Phi-style models (`architecture.LLAMA`,
`GPT2`, `PHI`); the MoE and latent-attention facts are 0 where a model has none, and so is
`sliding_window` (the window, or the chunk of chunked attention); `sliding_window_share` is the percentage of layers
that use that window, `state_layers_share` the percentage that keep a fixed-size state instead of a cache (sized by
`state_conv_channels`, `state_conv_width`, `recurrent_state` and `state_precision`, 0 where a model has none, 2 or
4 bytes for the last) and `cacheless_layers_share` the percentage with neither (`attention.cache_of` reads them).
A choice input receives the choice whose number the fact equals. `module_layout` names the linear modules a block
has: 0 separate q, k, v, o and gate, up, down (Llama), 1 a fused q/k/v and a two-matrix MLP (GPT-2's c_attn,
c_fc, c_proj), 2 separate q, k, v and a two-matrix MLP (Phi-2's fc1, fc2), 3 fused qkv_proj and gate_up_proj
(Phi-3).
"""

GPU_FACTS: tuple[str, ...] = (
    "gpu.memory_gb",
    "gpu.bandwidth_gb_s",
    "gpu.bf16_tflops",
    "gpu.usable_gib",
    "gpu.fp8_tflops",
)
"""What a GPU preset fills: memory as sold (GB), memory bandwidth (GB/s), dense BF16 peak (TFLOP/s), the memory a
framework was measured to see (GiB) and the dense FP8 peak (TFLOP/s). 0 where the vendor publishes none (or nobody
measured it): a page offers the GPU only where each input it fills takes 0 (`model_config.covers`)."""

PRICE_FACTS: tuple[str, ...] = (
    "price.currency",
    "price.input_per_m",
    "price.cached_input_per_m",
    "price.cache_write_per_m",
    "price.output_per_m",
    "price.batch_discount",
    "price.embedding_per_m",
    "price.per_million_characters",
    "price.per_minute",
    "price.per_image",
    "price.gpu_hour",
    "price.long_context_above",
    "price.long_context_input_per_m",
    "price.long_context_cached_input_per_m",
    "price.long_context_cache_write_per_m",
    "price.long_context_output_per_m",
    "price.flex_percent",
    "price.priority_percent",
    "price.web_search_per_k",
)
"""What a price preset (site_builder/data/prices.toml, each entry dated and sourced) can fill.

`currency` is the index of the price list's currency in `numbers.CURRENCIES` (0, USD, for every list price on
the site). Token prices are per million tokens; `batch_discount` is a percentage off both input and output;
`per_million_characters` is a speech price, `per_minute` a transcription price, `gpu_hour` the on-demand price of
one GPU for an hour. `long_context_above` is the input tokens per request above which a whole request bills at the
`long_context_*` prices (0: no such tier). `flex_percent` and `priority_percent` are what a request on the
vendor's flex or priority service tier costs, in percent of the standard price (100 where it has no such tier).
`web_search_per_k` is what its built-in web search tool charges per 1,000 searches, beside the tokens.
"""


@dataclass(frozen=True)
class ChartPart:
    """One segment of a memory chart: a result key (in the chosen memory unit) and its label."""

    name: str
    label: Message


@dataclass(frozen=True)
class MemoryChart:
    """A stacked bar of memory components drawn against common GPU capacities.

    `parts` name keys of the calculator's results, each in the unit `unit_choice` selects.
    """

    parts: tuple[ChartPart, ...]
    unit_choice: str = "memory_unit"


@dataclass(frozen=True)
class CurvePoint:
    """One point of a curve chart: a count (a batch size), the total it gives and its share per unit of the count."""

    count: float
    total: float
    each: float


@dataclass(frozen=True)
class CurveChart:
    """A total against a count, such as throughput against batch size: bars and a table (`drawing/curve.py`).

    `points(values)` returns the points in order of count; `title` describes them in one sentence ({largest} is
    the last point's count, {low} and {high} the first and last totals); `columns` head the table's count,
    total and per-unit columns; `note` says what the bars stop at.
    """

    points: Callable[[Mapping[str, float]], Sequence[CurvePoint]]
    title: Message
    note: Message
    columns: tuple[Message, Message, Message]


@dataclass(frozen=True)
class StepCost:
    """One step of a loop that resends its history (an agent's step, a chat's turn): what it sends and costs."""

    input_tokens: float
    input_cost: float
    output_cost: float


@dataclass(frozen=True)
class StepChart:
    """A cost that grows step by step: a bar per step and a table of the figures (`drawing/steps.py` draws it).

    `steps(values)` returns every step in order; `step` heads the table's first column ("Step", "Turn");
    `title` describes the bars in one sentence ({first} and {last} are the first and last step's cost, {count}
    the number of steps); `note` says what the dashed line marks.
    """

    steps: Callable[[Mapping[str, float]], Sequence[StepCost]]
    step: Message
    title: Message
    note: Message


@dataclass(frozen=True)
class Writer:
    """How the edge writes a drawn chart's words and figures in the reader's language.

    `text(message, words, counts)` translates (choosing the plural form by `counts`) and fills in `words`;
    `keep` binds numbers to their words; `number(value, digits)` writes a figure; `money(value)` an amount in
    the page's currency; `table(caption, columns, rows, keys)` draws a table (`drawing.table.draw_table`).
    """

    text: Callable[[Message | PluralMessage, Mapping[str, str], Mapping[str, float]], str]
    keep: Callable[[str], str]
    number: Callable[[float, int], str]
    money: Callable[[float], str]
    table: Callable[[str, Sequence[str], Sequence[Sequence[str]], Sequence[Sequence[float]]], str]


@dataclass(frozen=True)
class TableChart:
    """A memory bar for the chosen setting, then markup the calculator draws itself through a `Writer` (the
    layouts a search found, text to copy): the same Python writes both at build time and live."""

    memory: MemoryChart
    draw: Callable[[Mapping[str, float], Writer], str]


@dataclass(frozen=True)
class Column:
    """One column of a `GpuTable` or `PriceTable`: a key of the rows, its header, and the digits its figures keep
    (an amount of money, `money`, keeps its currency's)."""

    key: str
    header: Message
    fraction_digits: int = 0
    money: bool = False


@dataclass(frozen=True)
class GpuTable:
    """Every GPU of the page's menu in one table, each in place of the reader's: which hold the model, how fast.

    `row(values)` gets the reader's values with one GPU's datasheet figures put in, as choosing it in the menu
    would, and returns that GPU's figures; rows are ordered by `order` of those figures, smallest first.
    """

    title: Message
    note: Message
    columns: tuple[Column, ...]
    row: Compute
    order: Callable[[Mapping[str, float]], tuple[float, ...]]


@dataclass(frozen=True)
class MenuPrice:
    """One language model of the site's price list: its name, the values choosing it fills, its context window."""

    name: str
    values: Mapping[str, float]
    context_tokens: int


@dataclass(frozen=True)
class PriceTable:
    """Every language model of the site's price list in one table, each in place of the reader's prices: what the
    reader's workload would cost with it.

    `row(values)` gets the reader's values with one model's list prices put in, as choosing it in the price menu
    would, and returns that model's figures; rows are ordered by `order` of those figures, smallest first. A model
    whose context window holds fewer tokens than `context(values)` cannot take the request, and is marked.
    """

    title: Message
    note: Message
    columns: tuple[Column, ...]
    row: Compute
    order: Callable[[Mapping[str, float]], tuple[float, ...]]
    context: Callable[[Mapping[str, float]], float]
    draw: Callable[[PriceTable, Mapping[str, float], Sequence[MenuPrice], Writer], str]
    """`vocabulary.price_table.draw_price_table`, which only the pages that compare models import."""


@dataclass(frozen=True)
class Settings:
    """The reader's configuration as text to paste into tools (launch flags, a config file), each with a copy
    button, drawn after the chart: `write(values)` maps each tool's name to its text; `title` names the tool
    ({tool}) and `note` says what the texts assume."""

    title: Message
    note: Message
    write: Callable[[Mapping[str, float]], Mapping[str, str]]


@dataclass(frozen=True)
class Category:
    """A group of calculators; its slug appears in URLs and data attributes, and names its folder."""

    slug: str
    title: Message


Compute = Callable[[Mapping[str, float]], Mapping[str, float]]
Reduce = Callable[[Mapping[str, tuple[float, ...]]], Mapping[str, float]]
"""What a calculator with vector inputs takes from them: the numbers its rules and formula need (a dot product)."""


@dataclass(frozen=True)
class Rule:
    """A condition inputs must meet together, as the software a formula describes checks it.

    When `holds(values)` is false nothing is computed and `message` is shown beside the input
    `name`; its {fields} name inputs, written as the reader typed them.
    """

    name: str
    holds: Callable[[Mapping[str, float]], bool]
    message: Message


@dataclass(frozen=True)
class Calculator:
    """A calculator: what it is called, what it reads, what it returns, and how.

    `formulas` are LaTeX, shown beside the results and in the printed report;
    `updated` is the ISO date its content last changed; `related` lists slugs; `rules` are
    conditions on several inputs at once (each input's own bounds are in its `InputSpec`).
    """

    title: Message
    summary: Message
    inputs: tuple[InputSpec, ...]
    outputs: tuple[OutputSpec, ...]
    compute: Compute
    updated: str
    formulas: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    chart: MemoryChart | StepChart | CurveChart | TableChart | None = None
    gpu_table: GpuTable | None = None
    """Drawn after the chart where the page has a GPU menu: the calculator on every GPU of it."""
    price_table: PriceTable | None = None
    """Drawn after the chart: the calculator on every language model of the site's price list."""
    settings: Settings | None = None
    """Drawn last: the inputs as the tools that run them take them."""
    rules: tuple[Rule, ...] = ()
    money: tuple[str, ...] = ()
    """Results no output declares (a part a sentence names) that are amounts in the input "currency"'s currency."""
    reduce: Reduce | None = None
    """For vector inputs (`Kind.VECTOR`): the numbers taken from the vectors, added to the values before the rules
    and the formula see them. The value of a vector input itself is the count of its numbers."""
    slug: str = field(init=False)
    """Its address (`/<locale>/<slug>/`): its folder's name, `cost/token_cost/` → token-cost."""
    category: str = field(init=False)
    """Its category's slug: the folder its own folder sits in, `cost/token_cost/` → cost."""

    def __post_init__(self) -> None:
        # The folder is the calculator's identity, said once: `calculators/<category>/<name>/` gives both.
        module = self.compute.__module__
        object.__setattr__(self, "slug", slug_of(module))
        object.__setattr__(self, "category", module.split(".")[-2])

    def input(self, name: str) -> InputSpec:
        """Return the input called `name`."""
        return next(spec for spec in self.inputs if spec.name == name)

    def defaults(self) -> dict[str, str]:
        """Return every input's default, as the text a form would hold."""
        return {spec.name: spec.default for spec in self.inputs}
