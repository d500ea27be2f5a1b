"""Structured-output overhead: what answering in JSON (or another schema) costs over a plain answer.

No vendor publishes a per-token overhead for structured output: it depends on the schema, the key names and the
answer. This calculator therefore takes the reader's own measurement, the output tokens of the same answers in both
forms as the API's usage block reports them, and prices the difference, with the schema's input tokens on top:

    output overhead = (T_structured - T_plain) / T_plain
    extra cost = ((T_structured - T_plain) × p_out + T_schema × p_in) / 10⁶ per request

Prices per million tokens as the vendors print them (Anthropic's pricing page,
https://platform.claude.com/docs/en/about-claude/pricing). When the schema is enforced through a forced tool call,
the schema's input tokens include the tool-use system prompt Anthropic prints for tool_choice any or tool
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview#pricing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

MEASURED = N_("Your measurement")

PLAIN_TOKENS = InputSpec(
    name="plain_output_tokens",
    kind=Kind.INTEGER,
    group=MEASURED,
    label=N_("Output tokens of a plain answer"),
    help=N_(
        "The output tokens of typical answers in free text, averaged over a sample of requests: the usage block "
        "of each API response reports them.",
    ),
    default="120",
    unit=N_("tokens"),
    minimum=Decimal(1),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
STRUCTURED_TOKENS = replace(
    PLAIN_TOKENS,
    name="structured_output_tokens",
    label=N_("Output tokens of a structured answer"),
    help=N_(
        "The output tokens of the same answers in the structured form (JSON with your schema), measured the same "
        "way. Keys, quotes and brackets are tokens too.",
    ),
    default="165",
    minimum=Decimal(0),
)
SCHEMA_TOKENS = replace(
    PLAIN_TOKENS,
    name="schema_tokens",
    label=N_("Schema tokens sent with each request"),
    help=N_(
        "Input tokens the schema adds to each request: the schema itself and any instructions about the format; "
        "with a forced tool call, the vendor's tool-use system prompt too. 0 when the format adds no input.",
    ),
    default="200",
    minimum=Decimal(0),
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the output overhead in per cent and the extra cost per request and per month.

    A plain answer of 120 tokens and a JSON answer of 165: 45 more tokens, 37.5% more output.

    >>> result = compute({"plain_output_tokens": 120, "structured_output_tokens": 165, "schema_tokens": 0,
    ...                   "input_price": 3, "output_price": 15, "requests_per_day": 1000, "month_hours": 720})
    >>> result["output_overhead"], result["extra_output_tokens"], round(result["request_cost"], 6)
    (37.5, 45, 0.000675)
    """
    extra_output = values["structured_output_tokens"] - values["plain_output_tokens"]
    extra_output_cost = cost.per_million(extra_output, values["output_price"])
    schema_cost = cost.per_million(values["schema_tokens"], values["input_price"])
    request_cost = extra_output_cost + schema_cost
    return {
        "output_overhead": 100 * extra_output / values["plain_output_tokens"],
        "extra_output_tokens": extra_output,
        "extra_output_cost": extra_output_cost,
        "schema_cost": schema_cost,
        "request_cost": request_cost,
        "monthly_cost": request_cost * values["requests_per_day"] * cost.days_per_month(values),
    }


CALCULATOR = Calculator(
    title=N_("Structured output overhead"),
    summary=N_(
        "What answering in JSON costs over a plain answer, from the output tokens you measure in both forms and "
        "the schema's input tokens: the overhead in per cent, per request and per month.",
    ),
    inputs=(
        PLAIN_TOKENS,
        STRUCTURED_TOKENS,
        SCHEMA_TOKENS,
        cost.REQUESTS_PER_DAY,
        replace(cost.INPUT_PRICE, default="3"),
        replace(cost.OUTPUT_PRICE, default="15"),
        cost.MONTH_LENGTH,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="output_overhead",
            label=N_("Output overhead"),
            unit=N_("%"),
            # Translators: {output_overhead} is a percentage (the % sign follows); the other fields are token counts.
            sentence=N_(
                "A structured answer of {structured_output_tokens} tokens in place of a plain one of "
                "{plain_output_tokens} has {extra_output_tokens} tokens more: {output_overhead}% more output.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="request_cost",
            label=N_("Extra cost per request"),
            # Translators: every field is an amount of money with its currency code, except {schema_tokens}, a
            # token count.
            sentence=N_(
                "Each request costs {request_cost} more: {extra_output_cost} for the longer answer and "
                "{schema_cost} for the {schema_tokens} schema tokens.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="monthly_cost",
            label=N_("Extra cost per month"),
            # Translators: {monthly_cost} is an amount of money with its currency code; {requests_per_day} a number
            # of requests; {month_hours_label} names the month's length.
            sentence=N_(
                "At {requests_per_day} requests a day, the structured format costs {monthly_cost} more a month of "
                "{month_hours_label}. A negative figure means it saves.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"o = \frac{T_{struct} - T_{plain}}{T_{plain}}, \quad "
        r"\Delta C = \frac{(T_{struct} - T_{plain})\,p_{out} + T_{schema}\,p_{in}}{10^6}",
    ),
    money=("extra_output_cost", "schema_cost"),
    related=("function-calling-overhead", "token-cost"),
)
