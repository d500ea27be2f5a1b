"""The cost vocabulary every cost calculator shares: currency, month, prices per million tokens, usage.

Declared once, so two cost pages never disagree about the same request: the same token counts, the same
price inputs (each fillable from a dated, sourced price preset), the same month. Their words are in the
gettext context "input", translated once for every calculator.

Some models bill a request at higher prices when its input passes a threshold: OpenAI's GPT-6 pages say that "for
requests with more than 272K input tokens, input and cache rates double and output costs 1.5 times the short-context
rate for the full request" (https://developers.openai.com/api/docs/models/gpt-6.2-sol). The long-context inputs carry
that tier, and `request_prices` chooses a request's prices by its input tokens.

A month is one of two lengths the reader chooses, and every page states which: 730 hours (a year of
8,760 hours divided by 12, the month cloud providers bill GPU-hours by) or 30 days (720 hours). Daily
figures become monthly ones through the same length: requests per day × hours per month ÷ 24.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from calculators.kernel.spec import N_, Choice, InputSpec, Kind, Message

from . import units

__all__ = [
    "BATCH_DISCOUNT",
    "CACHED_INPUT_PRICE",
    "CACHE_WRITE_PRICE",
    "CURRENCY",
    "GPU_HOUR_PRICE",
    "HOURS_PER_DAY",
    "INPUT_PRICE",
    "INPUT_TOKENS",
    "LONG_CONTEXT_ABOVE",
    "LONG_CONTEXT_CACHE_WRITE_PRICE",
    "LONG_CONTEXT_INPUTS",
    "MONTH_LENGTH",
    "OUTPUT_PRICE",
    "OUTPUT_TOKENS",
    "PER_MILLION_TOKENS",
    "PRICES",
    "REQUESTS_PER_DAY",
    "USAGE",
    "TokenPrices",
    "days_per_month",
    "per_million",
    "price_input",
    "request_prices",
]

PRICES = N_("input", "Prices")
USAGE = N_("input", "Usage")

HOURS_PER_DAY = 24
PER_MILLION_TOKENS = N_("input", "per million tokens")

CURRENCY = InputSpec(
    name="currency",
    kind=Kind.CHOICE,
    group=PRICES,
    label=N_("input", "Currency"),
    help=N_(
        "input",
        "The currency the prices are in. Nothing is converted: amounts are written in the currency you choose, "
        "and the list prices of the presets are in US dollars.",
    ),
    default="USD",
    # In the order of numbers.CURRENCIES: a choice's number is its currency's index there (a test holds it).
    choices=(
        Choice("USD", N_("input", "US dollar (USD)"), number="0"),
        Choice("EUR", N_("input", "Euro (EUR)"), number="1"),
        Choice("GBP", N_("input", "British pound (GBP)"), number="2"),
        Choice("JPY", N_("input", "Japanese yen (JPY)"), number="3"),
        Choice("CNY", N_("input", "Chinese yuan (CNY)"), number="4"),
        Choice("TWD", N_("input", "New Taiwan dollar (TWD)"), number="5"),
        Choice("KRW", N_("input", "South Korean won (KRW)"), number="6"),
        Choice("INR", N_("input", "Indian rupee (INR)"), number="7"),
        Choice("BRL", N_("input", "Brazilian real (BRL)"), number="8"),
        Choice("CAD", N_("input", "Canadian dollar (CAD)"), number="9"),
    ),
    fraction_digits=0,
    advanced=True,
    preset="price.currency",
)

MONTH_LENGTH = InputSpec(
    name="month_hours",
    kind=Kind.CHOICE,
    group=USAGE,
    label=N_("input", "A month is"),
    help=N_(
        "input",
        "How long a month lasts in the monthly figures: 730 hours is a year divided by twelve, the month cloud "
        "providers bill by; 30 days is 720 hours.",
    ),
    default="730",
    choices=(
        Choice("730", N_("input", "730 hours (365 days ÷ 12)")),
        Choice("720", N_("input", "30 days (720 hours)")),
    ),
    fraction_digits=0,
    advanced=True,
)


def price_input(
    name: str,
    label: Message,
    help_text: Message,
    default: str,
    *,
    preset: str | None,
    unit: Message = PER_MILLION_TOKENS,
) -> InputSpec:
    """A price per million tokens (or per `unit`), in the chosen currency, fillable from a price preset."""
    return InputSpec(
        name=name,
        kind=Kind.DECIMAL,
        group=PRICES,
        label=label,
        help=help_text,
        default=default,
        unit=unit,
        minimum=Decimal(0),
        maximum=Decimal(1000000),
        fraction_digits=6,
        preset=preset,
        currency=CURRENCY.name,
    )


INPUT_PRICE = price_input(
    "input_price",
    N_("input", "Input price"),
    N_(
        "input",
        "What the API charges for a million tokens sent to the model: the prompt, history and tool definitions.",
    ),
    "2",
    preset="price.input_per_m",
)
CACHED_INPUT_PRICE = price_input(
    "cached_input_price",
    N_("input", "Cached input price"),
    N_(
        "input",
        "What a million input tokens cost when they are read from the provider's prompt cache (a cache hit).",
    ),
    "0.5",
    preset="price.cached_input_per_m",
)
CACHE_WRITE_PRICE = price_input(
    "cache_write_price",
    N_("input", "Cache write price"),
    N_(
        "input",
        "What a million input tokens cost when they are written to the prompt cache. Providers with explicit "
        "caching charge a premium over the input price (1.25 times for Anthropic's five-minute cache); with "
        "automatic caching it is the input price itself.",
    ),
    "2",
    preset="price.cache_write_per_m",
)
OUTPUT_PRICE = price_input(
    "output_price",
    N_("input", "Output price"),
    N_(
        "input",
        "What the API charges for a million tokens the model writes, reasoning tokens included where the "
        "model has them.",
    ),
    "8",
    preset="price.output_per_m",
)
LONG_CONTEXT_ABOVE = InputSpec(
    name="long_context_above",
    kind=Kind.INTEGER,
    group=PRICES,
    label=N_("input", "Long-context prices above"),
    help=N_(
        "input",
        "Some models bill a whole request at higher prices once its input tokens pass a threshold (OpenAI's GPT-6 "
        "models above 272K). Above it, every token of the request costs the long-context prices. 0 for a model "
        "with one price.",
    ),
    default="0",
    unit=N_("input", "input tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
    preset="price.long_context_above",
)
LONG_CONTEXT_INPUTS: tuple[InputSpec, ...] = (
    LONG_CONTEXT_ABOVE,
    price_input(
        "long_context_input_price",
        N_("input", "Long-context input price"),
        N_("input", "The input price of a request above the threshold, for all of its input tokens."),
        "4",
        preset="price.long_context_input_per_m",
    ),
    price_input(
        "long_context_cached_input_price",
        N_("input", "Long-context cached input price"),
        N_("input", "The cached input price of a request above the threshold."),
        "1",
        preset="price.long_context_cached_input_per_m",
    ),
    price_input(
        "long_context_output_price",
        N_("input", "Long-context output price"),
        N_("input", "The output price of a request above the threshold, for all of its output tokens."),
        "12",
        preset="price.long_context_output_per_m",
    ),
)
"""The long-context tier: its threshold in input tokens per request (0: none) and its three prices."""
LONG_CONTEXT_CACHE_WRITE_PRICE = price_input(
    "long_context_cache_write_price",
    N_("input", "Long-context cache write price"),
    N_("input", "The cache write price of a request above the threshold."),
    "4",
    preset="price.long_context_cache_write_per_m",
)
"""The tier's cache write price, for the calculators that write the prompt cache."""


@dataclass(frozen=True)
class TokenPrices:
    """The prices per million tokens one request is billed at."""

    input: float
    cached_input: float
    output: float


def request_prices(values: Mapping[str, float], input_tokens: float) -> TokenPrices:
    """Return the prices of a request of `input_tokens`: the long-context ones above a threshold, else the base ones.

    GPT-6.2 Sol's page: 2 in, 0.10 cached, 10 out; past 272K input tokens twice the input and cache rates and
    1.5 times the output rate, for the full request:

    >>> sol = {"input_price": 2, "cached_input_price": 0.1, "output_price": 10, "long_context_above": 272_000,
    ...        "long_context_input_price": 4, "long_context_cached_input_price": 0.2, "long_context_output_price": 15}
    >>> request_prices(sol, 272_000), request_prices(sol, 272_001)
    (TokenPrices(input=2, cached_input=0.1, output=10), TokenPrices(input=4, cached_input=0.2, output=15))
    """
    threshold = values.get("long_context_above", 0.0)
    if threshold and input_tokens > threshold:
        return TokenPrices(
            values["long_context_input_price"],
            values["long_context_cached_input_price"],
            values["long_context_output_price"],
        )
    return TokenPrices(values["input_price"], values.get("cached_input_price", 0.0), values["output_price"])


BATCH_DISCOUNT = InputSpec(
    name="batch_discount",
    kind=Kind.DECIMAL,
    group=PRICES,
    label=N_("input", "Batch discount"),
    help=N_(
        "input",
        "The share taken off input and output prices for requests sent through the provider's batch API, "
        "answered within a day instead of at once: 50% at OpenAI, Anthropic and Google.",
    ),
    default="50",
    unit=units.PERCENT,
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=2,
    preset="price.batch_discount",
)

INPUT_TOKENS = InputSpec(
    name="input_tokens",
    kind=Kind.INTEGER,
    group=USAGE,
    label=N_("input", "Input tokens per request"),
    help=N_(
        "input",
        "Everything sent with one request, counted in tokens: system prompt, conversation so far, retrieved "
        "text, tool definitions and the user's message.",
    ),
    default="1500",
    unit=N_("input", "tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
OUTPUT_TOKENS = replace(
    INPUT_TOKENS,
    name="output_tokens",
    label=N_("input", "Output tokens per request"),
    help=N_("input", "The tokens the model writes in one answer, reasoning tokens included."),
    default="500",
)
REQUESTS_PER_DAY = InputSpec(
    name="requests_per_day",
    kind=Kind.DECIMAL,
    group=USAGE,
    label=N_("input", "Requests per day"),
    help=N_("input", "How many requests the feature sends on an average day."),
    default="10000",
    unit=N_("input", "requests"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000000),
    fraction_digits=2,
)


def per_million(tokens: float, price: float) -> float:
    """Return what `tokens` cost at `price` per million.

    A million tokens at 2 per million cost 2; a request of 1,500 tokens costs 0.003:

    >>> per_million(1_000_000, 2.0), per_million(1500, 2.0)
    (2.0, 0.003)
    """
    return tokens * price / 1e6


def days_per_month(values: Mapping[str, float]) -> float:
    """Return the days in the month the reader chose (`MONTH_LENGTH`): 730 / 24 ≈ 30.42, or 30.

    >>> days_per_month({"month_hours": 730}), days_per_month({"month_hours": 720})
    (30.416666666666668, 30.0)
    """
    return values["month_hours"] / HOURS_PER_DAY


GPU_HOUR_PRICE = price_input(
    "gpu_hour_price",
    N_("input", "Price of one GPU-hour"),
    N_(
        "input",
        "The on-demand price of one GPU for one hour. Where a cloud prices a whole instance, divide the instance's "
        "hourly price by the GPUs it holds.",
    ),
    "2.5",
    preset="price.gpu_hour",
    unit=N_("input", "per GPU-hour"),
)
