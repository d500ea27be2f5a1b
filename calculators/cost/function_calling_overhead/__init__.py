"""Function-calling overhead: the input tokens that tool definitions add to every request, and what they cost.

Two vendors, two published ways to count them:

- Anthropic adds a tool-use system prompt whose size it prints per model and `tool_choice` ("Tool use system prompt
  token count", https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview#pricing), on top of the
  tokens of the `tools` parameter itself (names, descriptions, schemas). The table is kept below as data.
- OpenAI's cookbook counts a function definition from its text pieces plus constant tokens per function, parameter
  and enum value ("How to count tokens with tiktoken", §7, `num_tokens_for_tools`,
  https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb); its
  worked example, one weather tool and two messages, comes to 105 prompt tokens on gpt-4 and gpt-3.5-turbo and 101 on
  gpt-4o and gpt-4o-mini, as the API counted them.

    overhead = framing + definition tokens + tool calls and results sent back
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, Message, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

TOOLS = N_("Tools")


@dataclass(frozen=True)
class ToolPrompt:
    """One row of Anthropic's table: a model and its tool-use system prompt for each kind of `tool_choice`."""

    value: str
    label: Message
    auto_tokens: int
    """`tool_choice` auto or none (with at least one tool)."""
    forced_tokens: int
    """`tool_choice` any or tool: the model must call a tool."""


# Anthropic's table as its tool-use page printed it (stored copy of 2026-07-13); older copies of the page
# printed 346 / 313 for the Claude 4 and 4.5 models: the counts change with the page, so they are data here.
ANTHROPIC_TOOL_PROMPTS: tuple[ToolPrompt, ...] = (
    ToolPrompt("claude-opus-4-8", N_("Claude Opus 4.8"), 290, 410),
    ToolPrompt("claude-opus-4-7", N_("Claude Opus 4.7"), 675, 804),
    ToolPrompt("claude-opus-4-6", N_("Claude Opus 4.6"), 497, 589),
    ToolPrompt("claude-opus-4-5", N_("Claude Opus 4.5"), 496, 588),
    ToolPrompt("claude-opus-4-1", N_("Claude Opus 4.1"), 313, 315),
    ToolPrompt("claude-opus-4", N_("Claude Opus 4"), 313, 315),
    ToolPrompt("claude-sonnet-5", N_("Claude Sonnet 5"), 354, 474),
    ToolPrompt("claude-sonnet-4-6", N_("Claude Sonnet 4.6"), 497, 589),
    ToolPrompt("claude-sonnet-4-5", N_("Claude Sonnet 4.5"), 496, 588),
    ToolPrompt("claude-sonnet-4", N_("Claude Sonnet 4"), 313, 315),
    ToolPrompt("claude-haiku-4-5", N_("Claude Haiku 4.5"), 496, 588),
    ToolPrompt("claude-haiku-3-5", N_("Claude Haiku 3.5"), 264, 355),
)


@dataclass(frozen=True)
class CookbookConstants:
    """The constant tokens of OpenAI's cookbook count (`num_tokens_for_tools`) for one family of models."""

    func_init: int
    prop_init: int
    prop_key: int
    enum_init: int
    enum_item: int
    func_end: int


# gpt-4o and gpt-4o-mini; gpt-3.5-turbo and gpt-4: only the tokens that open a function differ.
OPENAI_GPT_4O = CookbookConstants(func_init=7, prop_init=3, prop_key=3, enum_init=-3, enum_item=3, func_end=12)
OPENAI_GPT_4 = replace(OPENAI_GPT_4O, func_init=10)

ANTHROPIC, OPENAI_4O, OPENAI_4 = 0, 1, 2

CONVENTION = InputSpec(
    name="convention",
    kind=Kind.CHOICE,
    group=TOOLS,
    label=N_("Count tools as"),
    help=N_(
        "Vendors frame tool definitions differently. Anthropic adds a tool-use system prompt of a published size "
        "per model; OpenAI's cookbook adds a few tokens per function, parameter and enum value.",
    ),
    default="anthropic",
    choices=(
        Choice("anthropic", N_("Anthropic: tool-use system prompt"), number=str(ANTHROPIC)),
        Choice(
            "openai-gpt-4o",
            N_("OpenAI cookbook: GPT-4o, GPT-4o mini"),
            number=str(OPENAI_4O),
        ),
        Choice(
            "openai-gpt-4",
            N_("OpenAI cookbook: GPT-4, GPT-3.5 Turbo"),
            number=str(OPENAI_4),
        ),
    ),
    fraction_digits=0,
)
CLAUDE_MODEL = InputSpec(
    name="claude_model",
    kind=Kind.CHOICE,
    group=TOOLS,
    label=N_("Claude model"),
    help=N_(
        "With Anthropic's count: the model whose tool-use system prompt the request carries.",
    ),
    default="claude-sonnet-4-5",
    choices=tuple(Choice(row.value, row.label, number=str(index)) for index, row in enumerate(ANTHROPIC_TOOL_PROMPTS)),
    fraction_digits=0,
)
TOOL_CHOICE = InputSpec(
    name="tool_choice",
    kind=Kind.CHOICE,
    group=TOOLS,
    label=N_("Tool choice"),
    help=N_(
        "With Anthropic's count: auto or none lets the model decide; any or a named tool forces a call, and the "
        "system prompt differs in size.",
    ),
    default="auto",
    choices=(
        Choice("auto", N_("auto or none"), number="0"),
        Choice("forced", N_("any or a named tool"), number="1"),
    ),
    fraction_digits=0,
)


def _count(name: str, label: Message, help_text: Message, default: str, maximum: int = 100000000) -> InputSpec:
    return InputSpec(
        name=name,
        kind=Kind.INTEGER,
        group=TOOLS,
        label=label,
        help=help_text,
        default=default,
        minimum=Decimal(0),
        maximum=Decimal(maximum),
        fraction_digits=0,
    )


TOOL_COUNT = _count(
    "tool_count",
    N_("Tools sent with each request"),
    N_(
        "How many tool (function) definitions each request carries. 0 sends none and adds nothing.",
    ),
    "5",
    100000,
)
DEFINITION_TOKENS = replace(
    _count(
        "definition_tokens",
        N_("Tokens of the definitions"),
        N_(
            "The definitions' own text in tokens, counted with the model's tokenizer. For Anthropic: the tools "
            "parameter with its names, descriptions and input schemas (the token-counting endpoint reports it). "
            "For OpenAI's cookbook: each name:description line, each parameter's name:type:description line and "
            "each enum value.",
        ),
        "1000",
    ),
    unit=N_("tokens"),
)
BARE_TOOLS = _count(
    "tools_without_parameters",
    N_("Of which without parameters"),
    N_(
        "With OpenAI's count: how many of those tools take no parameters (an empty properties object). Their "
        "parameter list is not opened, which saves a few tokens each.",
    ),
    "0",
    100000,
)
PARAMETER_COUNT = _count(
    "parameter_count",
    N_("Parameters, all tools together"),
    N_("With OpenAI's count: the properties of all the tools' parameter schemas together."),
    "15",
    1000000,
)
ENUM_COUNT = _count(
    "enum_count",
    N_("Of which enums"),
    N_(
        "With OpenAI's count: how many of those parameters list their allowed values (an enum).",
    ),
    "2",
    1000000,
)
ENUM_VALUES = _count(
    "enum_values",
    N_("Enum values, all enums together"),
    N_("With OpenAI's count: the allowed values of all those enums together."),
    "6",
    10000000,
)
EXCHANGE_TOKENS = replace(
    _count(
        "exchange_tokens",
        N_("Tool calls and results sent back"),
        N_(
            "Tokens of earlier tool calls and their results that a request sends back as history (tool_use and "
            "tool_result blocks). 0 for a first request.",
        ),
        "0",
    ),
    unit=N_("tokens"),
)
OTHER_INPUT = replace(
    cost.INPUT_TOKENS,
    label=N_("Other input tokens per request"),
    help=N_(
        "The rest of the prompt, without the tools: system prompt, messages and retrieved text.",
    ),
    default="2000",
)
OVERHEAD_PRICE = replace(
    cost.INPUT_PRICE,
    help=N_("What a million input tokens cost: tool definitions are billed as input tokens."),
    default="3",
)


def framing_tokens(values: Mapping[str, float]) -> float:
    """Return the tokens the vendor adds around the definitions' own text.

    Anthropic, Claude Sonnet 4.5 with at least one tool: 496 tokens with tool_choice auto, 588 forced:

    >>> base = {"convention": ANTHROPIC, "claude_model": 8, "tool_count": 1}
    >>> framing_tokens({**base, "tool_choice": 0}), framing_tokens({**base, "tool_choice": 1})
    (496.0, 588.0)

    OpenAI's cookbook, its weather tool (one function, two parameters, one enum of two values) on gpt-4:
    10 to open the function, 3 for its parameters, 3 for each of them, -3 for the enum, 3 for each value, 12 to end:

    >>> framing_tokens({"convention": OPENAI_4, "tool_count": 1, "tools_without_parameters": 0,
    ...                 "parameter_count": 2, "enum_count": 1, "enum_values": 2})
    34.0
    """
    tools = values["tool_count"]
    if tools == 0:
        return 0.0  # no tools: no framing (Anthropic: tool_choice none without tools adds 0)
    if values["convention"] == ANTHROPIC:
        row = ANTHROPIC_TOOL_PROMPTS[int(values["claude_model"])]
        return float(row.forced_tokens if values["tool_choice"] else row.auto_tokens)
    k = OPENAI_GPT_4O if values["convention"] == OPENAI_4O else OPENAI_GPT_4
    # prop_init opens the parameter list of each function that has properties (the cookbook's
    # `if len(function["parameters"]["properties"]) > 0`); a tool without parameters has none.
    with_parameters = min(tools - values["tools_without_parameters"], values["parameter_count"])
    return float(
        tools * k.func_init
        + with_parameters * k.prop_init
        + values["parameter_count"] * k.prop_key
        + values["enum_count"] * k.enum_init
        + values["enum_values"] * k.enum_item
        + k.func_end
    )


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the tool overhead of a request in tokens and money, per request and per month.

    OpenAI's cookbook example on gpt-4: the weather tool's text is 37 tokens (11 + 14 + 8 + 2 + 2 in cl100k_base),
    its framing 34, and the two messages 34: 105 prompt tokens, as the API reported.

    >>> result = compute({"convention": OPENAI_4, "tool_count": 1, "tools_without_parameters": 0,
    ...                   "parameter_count": 2, "enum_count": 1,
    ...                   "enum_values": 2, "definition_tokens": 37, "exchange_tokens": 0, "input_tokens": 34,
    ...                   "input_price": 3, "requests_per_day": 1000, "month_hours": 730})
    >>> result["overhead_tokens"], result["total_input_tokens"]
    (71.0, 105.0)
    """
    tools = values["tool_count"]
    framing = framing_tokens(values)
    definitions = values["definition_tokens"] if tools else 0.0
    overhead = framing + definitions + values["exchange_tokens"]
    total = overhead + values["input_tokens"]
    request_cost = cost.per_million(overhead, values["input_price"])
    return {
        "overhead_tokens": overhead,
        "framing_tokens": framing,
        "counted_definition_tokens": definitions,
        "total_input_tokens": total,
        "overhead_share": 100 * overhead / total if total else 0.0,
        "request_cost": request_cost,
        "monthly_cost": request_cost * values["requests_per_day"] * cost.days_per_month(values),
    }


CALCULATOR = Calculator(
    title=N_("Function-calling token overhead"),
    summary=N_(
        "How many input tokens tool definitions add to every request, counted the way Anthropic or OpenAI counts "
        "them, and what that overhead costs per request and per month.",
    ),
    inputs=(
        CONVENTION,
        CLAUDE_MODEL,
        TOOL_CHOICE,
        TOOL_COUNT,
        BARE_TOOLS,
        DEFINITION_TOKENS,
        PARAMETER_COUNT,
        ENUM_COUNT,
        ENUM_VALUES,
        EXCHANGE_TOKENS,
        OTHER_INPUT,
        cost.REQUESTS_PER_DAY,
        OVERHEAD_PRICE,
        cost.MONTH_LENGTH,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="overhead_tokens",
            label=N_("Tool overhead per request"),
            unit=N_("tokens"),
            # Translators: every field is a formatted token count; {convention_label} is the counting convention's name.
            sentence=N_(
                "Each request carries {overhead_tokens} input tokens for its tools: {framing_tokens} the vendor "
                "adds around them ({convention_label}), {counted_definition_tokens} of definitions and "
                "{exchange_tokens} of tool calls and results.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="total_input_tokens",
            label=N_("Input tokens per request"),
            unit=N_("tokens"),
            # Translators: {total_input_tokens} is a token count; {overhead_share} a percentage (the % sign follows).
            sentence=N_(
                "With the rest of the prompt a request sends {total_input_tokens} input tokens, and the tools make "
                "up {overhead_share}%.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="monthly_cost",
            label=N_("Tool overhead per month"),
            # Translators: {input_price}, {request_cost} and {monthly_cost} are amounts of money with their currency
            # code; {requests_per_day} is a number of requests; {month_hours_label} names the month's length.
            sentence=N_(
                "At {input_price} per million input tokens the tools add {request_cost} to each request: "
                "{monthly_cost} a month at {requests_per_day} requests a day, with a month of {month_hours_label}.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(r"T_{tools} = T_{frame} + T_{def} + T_{calls}, \quad C = \frac{T_{tools}\,p_{in}}{10^6}",),
    money=("request_cost",),
    related=("token-cost", "structured-output-overhead", "agent-cost"),
    rules=(
        Rule(
            "tools_without_parameters",
            lambda values: values["tools_without_parameters"] <= values["tool_count"],
            # Translators: {tools_without_parameters} and {tool_count} are numbers as the reader typed them.
            N_(
                "The tools without parameters ({tools_without_parameters}) are among the tools: enter at most "
                "{tool_count}.",
            ),
        ),
        Rule(
            "parameter_count",
            # Only where tools are sent (none count nothing) and the first rule holds (one message is enough).
            lambda values: (
                values["parameter_count"] == 0
                or values["tools_without_parameters"] != values["tool_count"]
                or values["tool_count"] == 0
            ),
            # Translators: {parameter_count} is a number as the reader typed it.
            N_("The {parameter_count} parameters need a tool that has parameters: every tool is counted without."),
        ),
        Rule(
            "enum_count",
            lambda values: values["enum_count"] <= values["parameter_count"],
            # Translators: {enum_count} and {parameter_count} are numbers as the reader typed them.
            N_(
                "The enums ({enum_count}) are among the parameters: enter at most {parameter_count}.",
            ),
        ),
    ),
)
