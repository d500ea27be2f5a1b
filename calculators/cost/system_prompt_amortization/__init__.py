"""System-prompt amortization: what a system prompt sent with every request costs, with and without prompt caching.

Without a cache every request pays for the system prompt's S tokens at the input price p. With a cache, the first of
the N requests that reuse it within the cache's lifetime writes it, and the other N - 1 read it:

    uncached = S × p / 10⁶ per request
    cached   = S × (p_write + (N - 1) × p_read) / N / 10⁶ per request

The vendors differ in the write. Anthropic's caching is explicit and a write costs a premium: 1.25 times the input
price for the five-minute cache, 2 times for the one-hour cache, while a hit costs 0.1 times (pricing page,
https://platform.claude.com/docs/en/about-claude/pricing: Claude Opus 4.1, $15 base input, $18.75 five-minute writes,
$30 one-hour writes, $1.50 cache hits per million tokens). OpenAI's caching is automatic, with no write fee: the
first request pays the input price (https://platform.openai.com/docs/guides/prompt-caching).

Neither caches a short prompt: OpenAI caches prompts of 1,024 tokens or more, and Anthropic's guide
(https://platform.claude.com/docs/en/build-with-claude/prompt-caching) sets a minimum cacheable length of 1,024 to
4,096 tokens by model; a shorter prompt is processed without caching even when marked. Below it, cached = uncached.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

EXPLICIT, AUTOMATIC = 0, 1

SYSTEM_PROMPT_TOKENS = InputSpec(
    name="system_prompt_tokens",
    kind=Kind.INTEGER,
    group=cost.USAGE,
    label=N_("System prompt"),
    help=N_(
        "The tokens every request repeats at its start: instructions, examples, tool definitions. Only an exact, "
        "identical prefix can be read from the cache.",
    ),
    default="3000",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
REQUESTS_PER_WRITE = InputSpec(
    name="requests_per_write",
    kind=Kind.DECIMAL,
    group=cost.USAGE,
    label=N_("Requests per cache write"),
    help=N_(
        "How many requests share one cached copy before it expires: the first writes it, the others read it. "
        "Roughly the requests that arrive within the cache's lifetime (five minutes or an hour); 1 when traffic "
        "is too sparse to keep the cache warm.",
    ),
    default="50",
    unit=N_("requests"),
    minimum=Decimal(1),
    maximum=Decimal(1000000000),
    fraction_digits=2,
)
MIN_CACHEABLE_TOKENS = replace(
    SYSTEM_PROMPT_TOKENS,
    name="min_cacheable_tokens",
    label=N_("Shortest prompt cached"),
    help=N_(
        "The vendor's minimum cacheable length: a shorter prompt is sent uncached even when marked for caching. "
        "1,024 tokens for OpenAI and for Claude Sonnet 4.5, Opus 4.1 and Sonnet 4; 2,048 for Claude Sonnet 4.6 "
        "and Haiku 3.5; 4,096 for Claude Opus 4.5 and Haiku 4.5.",
    ),
    default="1024",
    maximum=Decimal(1000000),
    advanced=True,
    optional=True,
)
CACHING = InputSpec(
    name="caching",
    kind=Kind.CHOICE,
    group=cost.PRICES,
    label=N_("Caching convention"),
    help=N_(
        "Explicit caching (Anthropic) bills a write at the cache write price, a premium over the input price. "
        "Automatic caching (OpenAI) has no write fee: the first request pays the input price, and the cache "
        "write price is not used.",
    ),
    default="explicit",
    choices=(
        Choice("explicit", N_("explicit, with a write premium"), number=str(EXPLICIT)),
        Choice("automatic", N_("automatic, no write fee"), number=str(AUTOMATIC)),
    ),
    fraction_digits=0,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the system prompt's cost per request and per month, uncached and cached, and what caching saves.

    3,000 tokens at 3 per million, a five-minute write at 3.75 and reads at 0.30, 50 requests per write:
    0.009 a request uncached, (0.01125 + 49 × 0.0009) / 50 = 0.001107 cached.

    >>> prices = {"input_price": 3, "cache_write_price": 3.75, "cached_input_price": 0.3}
    >>> result = compute({"system_prompt_tokens": 3000, "requests_per_write": 50, "caching": EXPLICIT,
    ...                   "requests_per_day": 1000, "month_hours": 720, "min_cacheable_tokens": 1024, **prices})
    >>> round(result["uncached_request_cost"], 6), round(result["cached_request_cost"], 6)
    (0.009, 0.001107)
    """
    tokens = values["system_prompt_tokens"]
    reads = values["requests_per_write"] - 1
    write_price = values["cache_write_price"] if values["caching"] == EXPLICIT else values["input_price"]
    uncached = cost.per_million(tokens, values["input_price"])
    cached = cost.per_million(tokens, write_price + reads * values["cached_input_price"]) / values["requests_per_write"]
    if tokens < values["min_cacheable_tokens"]:
        cached = uncached  # below the vendor's minimum the prompt is never cached: no write, no read, no saving
    requests = values["requests_per_day"] * cost.days_per_month(values)
    savings = (uncached - cached) * requests
    # Caching pays when N × p > p_write + (N - 1) × p_read, that is N > (p_write - p_read) / (p - p_read).
    break_even = (write_price - values["cached_input_price"]) / (values["input_price"] - values["cached_input_price"])
    return {
        "cached_monthly_cost": cached * requests,
        "uncached_monthly_cost": uncached * requests,
        "uncached_request_cost": uncached,
        "cached_request_cost": cached,
        "monthly_savings": savings,
        "savings_percent": 100 * (uncached - cached) / uncached if uncached else 0.0,
        "break_even_requests": max(break_even, 1.0),
    }


CALCULATOR = Calculator(
    title=N_("System prompt amortization"),
    summary=N_(
        "What a system prompt repeated in every request costs per request and per month, with and without prompt "
        "caching, under explicit caching with a write premium or automatic caching with none.",
    ),
    inputs=(
        SYSTEM_PROMPT_TOKENS,
        cost.REQUESTS_PER_DAY,
        REQUESTS_PER_WRITE,
        CACHING,
        MIN_CACHEABLE_TOKENS,
        replace(cost.INPUT_PRICE, default="3"),
        replace(cost.CACHE_WRITE_PRICE, default="3.75"),
        replace(cost.CACHED_INPUT_PRICE, default="0.3"),
        cost.MONTH_LENGTH,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="cached_monthly_cost",
            label=N_("System prompt per month, cached"),
            # Translators: {cached_monthly_cost} and {cached_request_cost} are amounts of money with their currency
            # code; {requests_per_write} a number of requests; {caching_label} names the caching convention;
            # {month_hours_label} names the month's length.
            sentence=N_(
                "Cached ({caching_label}) with {requests_per_write} requests per cache write, the system prompt costs "
                "{cached_request_cost} a request and {cached_monthly_cost} a month of {month_hours_label}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="uncached_monthly_cost",
            label=N_("System prompt per month, uncached"),
            # Translators: {system_prompt_tokens} is a token count; {requests_per_day} a number of requests; the
            # other fields are amounts of money with their currency code.
            sentence=N_(
                "Sent without a cache, its {system_prompt_tokens} tokens cost {uncached_request_cost} a request: "
                "{uncached_monthly_cost} a month at {requests_per_day} requests a day.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="monthly_savings",
            label=N_("Saved by caching per month"),
            # Translators: {monthly_savings} is an amount of money with its currency code; {savings_percent} a
            # percentage (the % sign follows); {break_even_requests} a number of requests.
            sentence=N_(
                "Caching saves {monthly_savings} a month on the system prompt ({savings_percent}%); a "
                "negative figure means the writes cost more than the reads save. It pays once more than "
                "{break_even_requests} requests share each write.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"C_{cached} = \frac{S\,(p_{write} + (N - 1)\,p_{read})}{N \cdot 10^6}, \quad C_{uncached} = \frac{S\,p}{10^6}",
    ),
    money=("uncached_request_cost", "cached_request_cost"),
    related=("token-cost", "function-calling-overhead"),
    rules=(
        Rule(
            "cached_input_price",
            lambda values: values["cached_input_price"] < values["input_price"],
            # Translators: {cached_input_price} and {input_price} are prices as the reader typed them.
            N_(
                "A cache read ({cached_input_price}) costs less than an uncached input token: enter less than "
                "{input_price}.",
            ),
        ),
    ),
)
