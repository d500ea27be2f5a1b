"""Prompt caching savings: what reusing a cached prompt prefix saves, under the convention the reader chooses.

N calls within the cache's lifetime send the same prefix of P tokens. Without caching each pays the input price p.
With caching the first call writes the prefix at w × p and the other N - 1 read it at the cached input price:

    C_none = N P p / 10⁶,    C_cached = (P w p + (N - 1) P p_cached) / 10⁶

Explicit caching (Anthropic's pricing page, https://platform.claude.com/docs/en/about-claude/pricing) charges a
write premium: w = 1.25 for the five-minute cache, 2 for the hour-long one, hits at 0.1 × the input price on most
models (Claude Opus 4.1: $15 base, $18.75 and $30 writes, $1.50 hits). Automatic caching as OpenAI's prompt caching
guide (https://platform.openai.com/docs/guides/prompt-caching) describes it has no write fee: w = 1. Caching pays
from the smallest N with w + (N - 1) r < N, r = p_cached ÷ p.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

PREFIX_TOKENS = InputSpec(
    name="prefix_tokens",
    kind=Kind.INTEGER,
    group=cost.USAGE,
    label=N_("Cached prefix"),
    help=N_(
        "The tokens every call repeats at the start of its prompt, word for word: system prompt, tool "
        "definitions, a long document. Only an identical prefix is a cache hit.",
    ),
    default="10000",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
CALLS = InputSpec(
    name="calls",
    kind=Kind.INTEGER,
    group=cost.USAGE,
    label=N_("Calls within the cache lifetime"),
    help=N_(
        "How many calls send the prefix before the cache expires: the first writes it, the others read it.",
    ),
    default="10",
    unit=N_("calls"),
    minimum=Decimal(1),
    maximum=Decimal(1000000000),
    fraction_digits=0,
)
CACHING = InputSpec(
    name="caching",
    kind=Kind.CHOICE,
    group=cost.PRICES,
    label=N_("Caching convention"),
    help=N_(
        "How the vendor bills the call that writes the cache. Explicit caching (Anthropic) charges 1.25 times "
        "the input price for a five-minute cache and 2 times for an hour; automatic caching as OpenAI's guide "
        "describes it has no write fee. Hits cost the cached input price either way.",
    ),
    default="explicit-5m",
    # The number is the write multiplier w the formula receives.
    choices=(
        Choice(
            "explicit-5m",
            N_("Explicit, 5-minute cache: writes at 1.25 × input"),
            number="1.25",
        ),
        Choice("explicit-1h", N_("Explicit, 1-hour cache: writes at 2 × input"), number="2"),
        Choice("automatic", N_("Automatic: no write fee"), number="1"),
    ),
    fraction_digits=2,
)


def break_even_calls(write: float, read_ratio: float) -> float:
    """Return the fewest calls for which caching costs less than sending the prefix uncached every time.

    Anthropic's multipliers: a five-minute write pays from the second call, an hour-long one from the third:

    >>> break_even_calls(1.25, 0.1), break_even_calls(2.0, 0.1), break_even_calls(1.0, 0.1)
    (2.0, 3.0, 2.0)
    """
    # w + (N - 1) r < N  ⇔  N > (w - r) / (1 - r); the tolerance keeps an exact ratio (1.0) from rounding below.
    return float(math.floor((write - read_ratio) / (1 - read_ratio) + 1e-9) + 1)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the prefix's cost with and without caching, the difference, its share and the break-even calls.

    100,000 tokens reused by 11 calls at 3 per million, five-minute cache, hits at 0.30: 0.675 against 3.30:

    >>> result = compute({"prefix_tokens": 100000, "calls": 11, "caching": 1.25, "input_price": 3,
    ...                   "cached_input_price": 0.3})
    >>> round(result["cached_cost"], 6), round(result["uncached_cost"], 6), round(result["savings_share"], 2)
    (0.675, 3.3, 79.55)
    """
    prefix, calls, price = values["prefix_tokens"], values["calls"], values["input_price"]
    write_cost = cost.per_million(prefix, price) * values["caching"]
    read_cost = cost.per_million(prefix, values["cached_input_price"]) * (calls - 1)
    uncached = cost.per_million(prefix, price) * calls
    cached = write_cost + read_cost
    return {
        "cached_cost": cached,
        "uncached_cost": uncached,
        "write_cost": write_cost,
        "read_cost": read_cost,
        "savings": uncached - cached,
        "savings_share": 100 * (uncached - cached) / uncached if uncached else 0.0,
        "break_even_calls": break_even_calls(values["caching"], values["cached_input_price"] / price),
    }


CALCULATOR = Calculator(
    title=N_("Prompt caching savings"),
    summary=N_(
        "What caching a repeated prompt prefix saves, with explicit caching's write premium (1.25 or 2 times "
        "the input price) or automatic caching's free writes, and the call count from which it pays.",
    ),
    inputs=(PREFIX_TOKENS, CALLS, CACHING, cost.INPUT_PRICE, cost.CACHED_INPUT_PRICE, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="cached_cost",
            label=N_("Prefix cost with caching"),
            # Translators: {caching_label} is the caching convention chosen, e.g. "Explicit, 5-minute cache:
            # writes at 1.25 × input"; {calls} and {prefix_tokens} are numbers; the other fields are amounts of
            # money with their currency code.
            sentence=N_(
                "{caching_label}. Over {calls} calls the {prefix_tokens}-token prefix costs {cached_cost}: "
                "{write_cost} for the write and {read_cost} for the cache hits, against {uncached_cost} "
                "without caching.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="savings",
            label=N_("Savings"),
            # Translators: {savings} is an amount of money; {savings_share} is a percentage (the % sign follows it).
            sentence=N_(
                "Caching saves {savings} ({savings_share}%) on the prefix's uncached cost; a negative figure "
                "means the write costs more than the hits save.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="break_even_calls",
            label=N_("Calls from which caching pays"),
            unit=N_("calls"),
            # Translators: {break_even_calls} is a whole number of calls (2 or more).
            sentence=N_(
                "Caching costs less than no caching once {break_even_calls} or more calls read the prefix "
                "within the cache's lifetime.",
            ),
            fraction_digits=0,
            exact=True,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C_{cached} = \frac{P\,w\,p + (N - 1)\,P\,p_{cached}}{10^6}",),
    money=("uncached_cost", "write_cost", "read_cost"),
    related=("token-cost", "llm-monthly-cost", "batch-api-savings", "system-prompt-amortization"),
    rules=(
        Rule(
            "cached_input_price",
            lambda values: values["cached_input_price"] < values["input_price"],
            # Translators: {input_price} is a price as the reader typed it.
            N_(
                "A cache hit must cost less than an uncached input token: enter less than {input_price}.",
            ),
        ),
    ),
)
