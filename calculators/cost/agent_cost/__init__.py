"""Agent cost: what one run of a tool-using agent costs when every step resends the whole context.

An agent calls the model in a loop: the model asks for a tool, the tool's result is appended, the model is
called again with everything so far. The APIs are stateless (Anthropic's tool-use guide sends the earlier
messages and the tool result back with each request; OpenAI's function-calling guide appends the call and its
output to the input list and calls again), so step i sends the starting context B plus everything the
steps before it appended, Δ = o + r tokens a step (the model's output o and the tool's result r):

    I_i = B + (i - 1) Δ,   total input = n B + Δ n (n - 1) / 2,   total output = n o

priced per million tokens (`vocabulary/growth.py`, with the prompt-caching conventions). A vendor's built-in web
search tool bills each search besides the tokens its results add, per 1,000 searches ($10 at Anthropic and OpenAI,
their pricing pages): S searches a run add S × f / 1,000.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, StepChart, StepCost, messages_of
from calculators.vocabulary import cost, growth

N_, NP_ = messages_of(__name__)

_RUN = N_("The agent's run")

BASE_TOKENS = InputSpec(
    name="base_tokens",
    kind=Kind.INTEGER,
    group=_RUN,
    label=N_("Starting context"),
    help=N_(
        "What the first step sends, in tokens: the system prompt, the tool definitions and the task. Every "
        "later step sends it again.",
    ),
    default="2000",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(10000000),
    fraction_digits=0,
)
STEPS = InputSpec(
    name="steps",
    kind=Kind.INTEGER,
    group=_RUN,
    label=N_("Steps"),
    help=N_("How many times the agent calls the model in one run: one call per tool round trip."),
    default="10",
    unit=N_("steps"),
    minimum=Decimal(1),
    maximum=Decimal(10000),
    fraction_digits=0,
)
TOOL_RESULT_TOKENS = replace(
    BASE_TOKENS,
    name="tool_result_tokens",
    label=N_("Tool result per step"),
    help=N_(
        "The tokens a tool's result adds to the context each step (a file read, search results, a command's "
        "output), sent as input from the next step on.",
    ),
    default="300",
)
OUTPUT_TOKENS = replace(
    cost.OUTPUT_TOKENS,
    group=_RUN,
    default="200",
    help=N_(
        "The tokens the model writes each step (its reasoning and the tool call), billed as output, then resent "
        "as input in every later step.",
    ),
)


WEB_SEARCHES = InputSpec(
    name="web_searches",
    kind=Kind.INTEGER,
    group=_RUN,
    label=N_("Web searches per run"),
    help=N_(
        "How many times a run uses the vendor's built-in web search tool, which bills each search besides the "
        "tokens its results add (count those in the tool result). 0 for an agent without it.",
    ),
    default="0",
    unit=N_("searches"),
    minimum=Decimal(0),
    maximum=Decimal(1000000),
    fraction_digits=0,
    advanced=True,
)
WEB_SEARCH_PRICE = InputSpec(
    name="web_search_price",
    kind=Kind.DECIMAL,
    group=cost.PRICES,
    label=N_("Web search price"),
    help=N_("What the vendor charges per 1,000 web searches: 10 at Anthropic and OpenAI, 14 at Google."),
    default="10",
    unit=N_("per 1,000 searches"),
    minimum=Decimal(0),
    maximum=Decimal(1000000),
    fraction_digits=4,
    advanced=True,
    preset="price.web_search_per_k",
)


def _shape(values: Mapping[str, float]) -> tuple[float, float, float, int]:
    """Return the loop's shape: tokens at step 1, tokens added a step, output a step, steps."""
    added = values["output_tokens"] + values["tool_result_tokens"]
    return values["base_tokens"], added, values["output_tokens"], int(values["steps"])


def step_costs(values: Mapping[str, float]) -> list[StepCost]:
    """Return every step of the run, by the definition (the chart's bars and table)."""
    return growth.steps(*_shape(values), values)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the run's cost, its first and last step's, and what twice the steps would cost.

    The formula sheet's case: a 2,000-token start, 200 output and 300 tool-result tokens a step, 10 steps, at 3 and
    15 per million without caching: 42,500 input and 2,000 output tokens, 0.1275 + 0.03 = 0.1575.

    >>> prices = {"caching": 0, "input_price": 3, "cached_input_price": 0.3, "cache_write_price": 3.75}
    >>> run = {"base_tokens": 2000, "output_tokens": 200, "tool_result_tokens": 300, "steps": 10}
    >>> searches = {"web_searches": 0, "web_search_price": 10}
    >>> result = compute({**run, **prices, **searches, "output_price": 15, "currency": 0})
    >>> result["total_input_tokens"], round(result["total_cost"], 6), round(result["last_step_cost"], 6)
    (42500.0, 0.1575, 0.0225)

    Four web searches at 10 per 1,000 add 0.04:

    >>> round(compute({**run, **prices, **searches, "web_searches": 4, "output_price": 15})["total_cost"], 6)
    0.1975
    """
    first, added, output, count = _shape(values)
    run = growth.totals(first, added, output, count, values)
    doubled = growth.totals(first, added, output, 2 * count, values)
    first_step, last_step = growth.steps(first, added, output, 1, values)[0], _last(first, added, output, count, values)
    first_cost = first_step.input_cost + first_step.output_cost
    last_cost = last_step.input_cost + last_step.output_cost
    # Searches come with the steps: a run twice as long searches twice as often.
    searches = values["web_searches"] * values["web_search_price"] / 1000
    return {
        "total_cost": run.cost + searches,
        "search_cost": searches,
        "total_input_tokens": run.input_tokens,
        "cached_tokens": run.cached_tokens,
        "total_output_tokens": count * output,
        "last_step_cost": last_cost,
        "last_step_tokens": last_step.input_tokens,
        "first_step_cost": first_cost,
        "step_growth": last_cost / first_cost if first_cost else 0.0,
        "doubled_cost": doubled.cost + 2 * searches,
        "doubled_ratio": (doubled.cost + 2 * searches) / (run.cost + searches) if run.cost + searches else 0.0,
        "doubled_steps": 2.0 * count,
    }


def _last(first: float, added: float, output: float, count: int, values: Mapping[str, float]) -> StepCost:
    """Return the last step alone: a two-step loop whose start is the last step's predecessor."""
    if count == 1:
        return growth.steps(first, added, output, 1, values)[0]
    return growth.steps(first + (count - 2) * added, added, output, 2, values)[1]


CALCULATOR = Calculator(
    title=N_("Agent cost"),
    summary=N_(
        "Price one run of a tool-using agent whose context grows every step: each call resends everything "
        "before it, so the cost grows with the square of the steps. With or without prompt caching.",
    ),
    inputs=(
        BASE_TOKENS,
        STEPS,
        OUTPUT_TOKENS,
        TOOL_RESULT_TOKENS,
        WEB_SEARCHES,
        replace(cost.INPUT_PRICE, default="3"),
        replace(cost.OUTPUT_PRICE, default="15"),
        growth.CACHING,
        replace(cost.CACHED_INPUT_PRICE, default="0.3", advanced=True),
        replace(cost.CACHE_WRITE_PRICE, default="3.75", advanced=True),
        *(replace(spec, advanced=True) for spec in (*cost.LONG_CONTEXT_INPUTS, cost.LONG_CONTEXT_CACHE_WRITE_PRICE)),
        WEB_SEARCH_PRICE,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="total_cost",
            label=N_("Cost of one run"),
            # Translators: {steps} is a number of steps; {total_input_tokens}, {cached_tokens} and
            # {total_output_tokens} are token counts; {web_searches} a number of searches; {total_cost} and
            # {search_cost} are amounts of money with their currency code;
            # {caching_label} names the caching convention chosen (a phrase of the "Prompt caching" menu).
            sentence=N_(
                "A run of {steps} steps sends {total_input_tokens} input tokens, {cached_tokens} of them cache "
                "hits, and gets {total_output_tokens} output tokens back: it costs {total_cost}, {search_cost} of "
                "it for {web_searches} web searches. Prompt caching: {caching_label}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="last_step_cost",
            label=N_("Cost of the last step"),
            # Translators: {last_step_tokens} is a token count; {last_step_cost} and {first_step_cost} are amounts
            # of money; {step_growth} is a formatted number (how many times the first step's cost).
            sentence=N_(
                "The last step sends {last_step_tokens} input tokens and costs {last_step_cost}, {step_growth} "
                "times the first step's {first_step_cost}: every step resends all the steps before it.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="doubled_cost",
            label=N_("Cost of a run twice as long"),
            # Translators: {doubled_steps} is a number of steps; {doubled_cost} an amount of money; {doubled_ratio}
            # a formatted number (how many times the cost of the run above).
            sentence=N_(
                "{doubled_steps} steps would cost {doubled_cost}, {doubled_ratio} times as much: the resent history "
                "grows with the square of the steps, so the ratio tends to four as runs get longer.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"T_{in} = n\,B + \Delta\,\frac{n(n-1)}{2},\quad \Delta = o + r",
        r"C = \frac{T_{in}\,p_{in} + n\,o\,p_{out}}{10^6} + \frac{S\,f}{1000}",
    ),
    money=("first_step_cost", "search_cost"),
    related=("context-cost-growth", "token-cost", "function-calling-overhead"),
    chart=StepChart(
        steps=step_costs,
        step=N_("Step"),
        # Translators: describes the chart of each step's cost: {first} and {last} are amounts of money, {count}
        # the number of the last step.
        title=N_("Cost of each step: {first} for the first, {last} for step {count}."),
        note=N_("Dashed line: the first step's cost, what every step would cost if nothing were resent."),
    ),
)
