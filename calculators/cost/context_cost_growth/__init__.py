"""Context cost growth: what a multi-turn chat costs when every turn resends the conversation so far.

A chat API keeps no history between requests: each turn sends the system prompt, every earlier user message
and reply, and the new message (Anthropic's context-window guide: each user message and reply accumulates in
the context, earlier turns kept whole; OpenAI's conversation-state guide: earlier messages are passed again
with each request). With a system prompt S, user messages of u tokens and replies of a tokens, turn t sends

    I_t = S + u + (t - 1)(u + a),   T turns: T (S + u) + (u + a) T (T - 1) / 2 input tokens, T a output tokens

priced per million tokens (`vocabulary/growth.py`, with the prompt-caching conventions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, StepChart, StepCost, messages_of
from calculators.vocabulary import cost, growth

N_, NP_ = messages_of(__name__)

_CHAT = N_("The conversation")

SYSTEM_TOKENS = InputSpec(
    name="system_tokens",
    kind=Kind.INTEGER,
    group=_CHAT,
    label=N_("System prompt"),
    help=N_("The tokens of the instructions sent before the conversation, with every turn."),
    default="500",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(10000000),
    fraction_digits=0,
)
USER_TOKENS = replace(
    SYSTEM_TOKENS,
    name="user_tokens",
    label=N_("User message per turn"),
    help=N_("The tokens of each message the user sends, on average."),
    default="100",
)
REPLY_TOKENS = replace(
    cost.OUTPUT_TOKENS,
    group=_CHAT,
    default="300",
    help=N_(
        "The tokens of each reply, on average: billed as output, then resent as input in every later turn.",
    ),
)
TURNS = InputSpec(
    name="turns",
    kind=Kind.INTEGER,
    group=_CHAT,
    label=N_("Turns"),
    help=N_("How many messages the user sends in the conversation, each answered by one reply."),
    default="10",
    unit=N_("turns"),
    minimum=Decimal(1),
    maximum=Decimal(10000),
    fraction_digits=0,
)


def _shape(values: Mapping[str, float]) -> tuple[float, float, float, int]:
    """Return the chat's shape: tokens at turn 1, tokens added a turn, output a turn, turns."""
    first = values["system_tokens"] + values["user_tokens"]
    added = values["user_tokens"] + values["output_tokens"]
    return first, added, values["output_tokens"], int(values["turns"])


def turn_costs(values: Mapping[str, float]) -> list[StepCost]:
    """Return every turn of the conversation, by the definition (the chart's bars and table)."""
    return growth.steps(*_shape(values), values)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the conversation's cost, what the history adds, and what twice the turns would cost.

    The formula sheet's case: a 500-token system prompt, 100-token messages and 300-token replies, 10 turns send
    24,000 input tokens (6,000 if each turn were sent alone) and receive 3,000; at 3 and 15 per million without
    caching, 0.072 + 0.045 = 0.117.

    >>> prices = {"caching": 0, "input_price": 3, "cached_input_price": 0.3, "cache_write_price": 3.75}
    >>> chat = {"system_tokens": 500, "user_tokens": 100, "output_tokens": 300, "turns": 10}
    >>> result = compute({**chat, **prices, "output_price": 15, "currency": 0})
    >>> result["total_input_tokens"], result["independent_tokens"], round(result["total_cost"], 6)
    (24000.0, 6000.0, 0.117)
    """
    first, added, output, count = _shape(values)
    run = growth.totals(first, added, output, count, values)
    alone = growth.totals(first, 0.0, output, count, {**values, "caching": growth.NO_CACHE})
    doubled = growth.totals(first, added, output, 2 * count, values)
    last = run.input_tokens - growth.totals(first, added, output, count - 1, values).input_tokens
    history = run.input_tokens - alone.input_tokens
    return {
        "total_cost": run.cost,
        "total_input_tokens": run.input_tokens,
        "cached_tokens": run.cached_tokens,
        "total_output_tokens": count * output,
        "last_turn_tokens": last,
        "history_share": 100 * history / run.input_tokens if run.input_tokens else 0.0,
        "independent_tokens": alone.input_tokens,
        "independent_cost": alone.cost,
        "doubled_cost": doubled.cost,
        "doubled_ratio": doubled.cost / run.cost if run.cost else 0.0,
        "doubled_turns": 2.0 * count,
    }


CALCULATOR = Calculator(
    title=N_("Context cost growth"),
    summary=N_(
        "See how a chat's cost grows as every turn resends the conversation so far: the input grows with the "
        "square of the turns. With or without prompt caching, turn by turn.",
    ),
    inputs=(
        SYSTEM_TOKENS,
        USER_TOKENS,
        REPLY_TOKENS,
        TURNS,
        replace(cost.INPUT_PRICE, default="3"),
        replace(cost.OUTPUT_PRICE, default="15"),
        growth.CACHING,
        replace(cost.CACHED_INPUT_PRICE, default="0.3", advanced=True),
        replace(cost.CACHE_WRITE_PRICE, default="3.75", advanced=True),
        *(replace(spec, advanced=True) for spec in (*cost.LONG_CONTEXT_INPUTS, cost.LONG_CONTEXT_CACHE_WRITE_PRICE)),
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="total_cost",
            label=N_("Cost of the conversation"),
            # Translators: {turns} is a number of turns; {total_input_tokens}, {cached_tokens} and
            # {total_output_tokens} are token counts; {total_cost} is an amount of money with its currency code;
            # {caching_label} names the caching convention chosen (a phrase of the "Prompt caching" menu).
            sentence=N_(
                "{turns} turns send {total_input_tokens} input tokens in all, {cached_tokens} of them cache hits, "
                "and receive {total_output_tokens} output tokens: the conversation costs {total_cost}. Prompt "
                "caching: {caching_label}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="history_share",
            label=N_("Input that is resent history"),
            unit=N_("%"),
            # Translators: {history_share} is a formatted percentage (the % sign follows the placeholder);
            # {independent_tokens} and {last_turn_tokens} are token counts, {independent_cost} an amount of money.
            sentence=N_(
                "Share of the input that is earlier turns sent again: {history_share}%. Sent alone, without the "
                "history, the turns would send {independent_tokens} input tokens and cost {independent_cost}; the "
                "last turn alone sends {last_turn_tokens}.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="doubled_cost",
            label=N_("Cost of twice as many turns"),
            # Translators: {doubled_turns} is a number of turns; {doubled_cost} an amount of money; {doubled_ratio}
            # a formatted number (how many times the cost of the conversation above).
            sentence=N_(
                "{doubled_turns} turns would cost {doubled_cost}, {doubled_ratio} times as much: the resent history "
                "grows with the square of the turns, so the ratio tends to four as conversations get longer.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"T_{in} = T\,(S + u) + (u + a)\,\frac{T(T-1)}{2}",
        r"C = \frac{T_{in}\,p_{in} + T\,a\,p_{out}}{10^6}",
    ),
    money=("independent_cost",),
    related=("agent-cost", "context-window-fit", "token-cost"),
    chart=StepChart(
        steps=turn_costs,
        step=N_("Turn"),
        # Translators: describes the chart of each turn's cost: {first} and {last} are amounts of money, {count}
        # the number of the last turn.
        title=N_("Cost of each turn: {first} for the first, {last} for turn {count}."),
        note=N_("Dashed line: the first turn's cost, what every turn would cost without the history."),
    ),
)
