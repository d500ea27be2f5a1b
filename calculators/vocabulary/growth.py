"""A context that grows by the same tokens every step, resent whole each time: an agent's loop, a multi-turn chat.

Language-model APIs keep no conversation between requests: each request carries everything before it (the
system prompt, every earlier message, every tool call and result). So step i of a loop that starts with P
input tokens and adds Δ tokens a step sends

    I_i = P + (i - 1) Δ

input tokens, and n steps send n P + Δ n (n - 1) / 2 in all: the cost grows with the square of the steps.

With prompt caching the part of step i that step i - 1 already sent (its whole input, I_{i-1}) is a cache
hit; only the rest (P at the first step, Δ after it) is new. Vendors bill the new part two ways, and the
reader chooses which (`CACHING`): automatic caching (OpenAI) bills it at the input price, with no fee for
writing the cache; explicit caching (Anthropic, a breakpoint at the end of each request) writes it to the
cache at the cache-write price, 1.25 times the input price for the five-minute cache. Either way the hits
bill at the cached-input price, and the cache is assumed warm from one step to the next.

A model with a long-context tier (`cost.LONG_CONTEXT_INPUTS`) bills a step whose input passes the threshold at the
tier's prices, the whole step: the steps up to the threshold are a run at the base prices, the rest at the tier's.

Summed, n steps with caching send I_n = P + (n - 1) Δ new tokens and (n - 1) P + Δ (n - 1)(n - 2) / 2 cache
hits. `steps` lists every step by the definition and `totals` gives the closed forms; the tests hold each to
the other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from calculators.kernel.spec import N_, Choice, InputSpec, Kind, StepCost

from . import cost

__all__ = ["AUTOMATIC", "CACHING", "EXPLICIT", "NO_CACHE", "Totals", "short_steps", "steps", "totals"]

NO_CACHE, AUTOMATIC, EXPLICIT = 0, 1, 2

CACHING = InputSpec(
    name="caching",
    kind=Kind.CHOICE,
    group=cost.PRICES,
    label=N_("input", "Prompt caching"),
    help=N_(
        "input",
        "Whether each request reads what the one before it sent from the provider's prompt cache, and how the "
        "new tokens are billed: at the input price with automatic caching (OpenAI), at the cache write price "
        "with explicit caching (Anthropic). Cache hits bill at the cached input price.",
    ),
    default="none",
    choices=(
        Choice("none", N_("input", "None"), number=str(NO_CACHE)),
        Choice("automatic", N_("input", "Automatic, no write fee (OpenAI)"), number=str(AUTOMATIC)),
        Choice("explicit", N_("input", "Explicit, cache writes billed (Anthropic)"), number=str(EXPLICIT)),
    ),
    fraction_digits=0,
)


@dataclass(frozen=True)
class Totals:
    """A whole run: the input tokens sent, how many of them were cache hits, and what the input and output cost."""

    input_tokens: float
    cached_tokens: float
    input_cost: float
    output_cost: float

    @property
    def cost(self) -> float:
        """Return the run's cost, input and output together."""
        return self.input_cost + self.output_cost


def _input_cost(new: float, cached: float, values: Mapping[str, float]) -> float:
    """Price a step's (or a run's) new and cached input tokens under the chosen caching convention."""
    caching = values["caching"]
    if caching == NO_CACHE:
        return cost.per_million(new + cached, values["input_price"])
    new_price = values["cache_write_price"] if caching == EXPLICIT else values["input_price"]
    return cost.per_million(new, new_price) + cost.per_million(cached, values["cached_input_price"])


def _long_context(values: Mapping[str, float]) -> Mapping[str, float]:
    """Return `values` with the long-context tier's prices in place of the base ones."""
    return {
        **values,
        "input_price": values["long_context_input_price"],
        "cached_input_price": values["long_context_cached_input_price"],
        "cache_write_price": values["long_context_cache_write_price"],
        "output_price": values["long_context_output_price"],
    }


def short_steps(first: float, added: float, count: float, values: Mapping[str, float]) -> float:
    """Return how many of the first `count` steps send at most the long-context threshold (all, without a tier).

    2,000 tokens to start and 500 more a step, under a threshold of 3,000: steps 1 to 3 send 2,000, 2,500 and
    3,000, step 4 sends 3,500.

    >>> short_steps(2000, 500, 10, {"long_context_above": 3000}), short_steps(2000, 500, 10, {})
    (3, 10)
    """
    threshold = values.get("long_context_above", 0.0)
    if not threshold or first + (count - 1) * added <= threshold:
        return count
    if first > threshold:
        return 0
    return min(count, math.floor((threshold - first) / added) + 1)  # added > 0: the last step passes, the first not


def steps(first: float, added: float, output: float, count: int, values: Mapping[str, float]) -> list[StepCost]:
    """Return every step of the loop by its definition: what it sends, and what its input and output cost.

    `first` input tokens at step 1, `added` more each step after, `output` tokens written each step;
    prices and the caching convention from `values` (the cost inputs). Step 2 of 2,000 + 500 at 3 per million:

    >>> prices = {"caching": 0, "input_price": 3, "cached_input_price": 0.3, "cache_write_price": 3.75}
    >>> [(s.input_tokens, round(s.input_cost, 6)) for s in steps(2000, 500, 200, 2, {**prices, "output_price": 15})]
    [(2000, 0.006), (2500, 0.0075)]
    """
    rows = []
    threshold = values.get("long_context_above", 0.0)
    for number in range(1, count + 1):
        sent = first + (number - 1) * added
        cached = first + (number - 2) * added if number > 1 else 0.0
        prices = _long_context(values) if threshold and sent > threshold else values
        input_cost = _input_cost(sent - cached, cached, prices)
        rows.append(StepCost(sent, input_cost, cost.per_million(output, prices["output_price"])))
    return rows


def totals(first: float, added: float, output: float, count: float, values: Mapping[str, float]) -> Totals:
    """Return the whole run in closed form: n P + Δ n (n - 1) / 2 input tokens, of which cache hits if caching.

    The formula sheet's agent (2,000 tokens to start, 500 more a step, 200 out, 10 steps) at 3 and 15 per million:

    >>> prices = {"caching": 0, "input_price": 3, "cached_input_price": 0.3, "cache_write_price": 3.75}
    >>> run = totals(2000, 500, 200, 10, {**prices, "output_price": 15})
    >>> run.input_tokens, run.cached_tokens, round(run.cost, 6)
    (42500.0, 0.0, 0.1575)
    """
    sent, cached = _tokens(first, added, count, values)
    short = short_steps(first, added, count, values)
    if short == count:
        return Totals(
            input_tokens=sent,
            cached_tokens=cached,
            input_cost=_input_cost(sent - cached, cached, values),
            output_cost=cost.per_million(count * output, values["output_price"]),
        )
    # The steps past the threshold are the whole run less its first `short` steps, billed at the tier's prices.
    short_sent, short_cached = _tokens(first, added, short, values) if short else (0.0, 0.0)
    long = _long_context(values)
    long_cached = cached - short_cached
    return Totals(
        input_tokens=sent,
        cached_tokens=cached,
        input_cost=_input_cost(short_sent - short_cached, short_cached, values)
        + _input_cost(sent - short_sent - long_cached, long_cached, long),
        output_cost=cost.per_million(short * output, values["output_price"])
        + cost.per_million((count - short) * output, long["output_price"]),
    )


def _tokens(first: float, added: float, count: float, values: Mapping[str, float]) -> tuple[float, float]:
    """Return the input tokens `count` steps send in all, and how many of them are cache hits."""
    sent = count * first + added * count * (count - 1) / 2
    cached = (count - 1) * first + added * (count - 1) * (count - 2) / 2 if values["caching"] != NO_CACHE else 0.0
    return sent, cached
