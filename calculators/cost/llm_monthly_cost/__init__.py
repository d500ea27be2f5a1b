"""LLM monthly cost: what a feature's daily API traffic costs over a month, from its tokens and prices.

One request costs its uncached input, cache hits and output at the prices per million tokens (as on the vendors'
pricing pages, e.g. https://platform.claude.com/docs/en/about-claude/pricing); a month holds the days of the
month length the reader chose (`cost.MONTH_LENGTH`: 730 hours, 30.42 days, or 30 days):

    C_request = ((1 - h) T_in p_in + h T_in p_cached + T_out p_out) / 10⁶
    C_month = C_request × requests per day × hours per month ÷ 24

A request whose input passes a model's long-context threshold bills at the long-context prices
(`cost.request_prices`). A share b of the requests sent through the vendor's batch API costs (1 - d) of the rest,
cache reads included, as the vendors' batch tables print it (Anthropic's pricing page: "prompt caching multipliers
stack with the batch discount"; OpenAI's batch prices halve cached input too):
    C_month × (b (1 - d) + (1 - b) m)
where m is what the service tier the other requests use charges, in percent of the standard price: 100 standard,
the vendor's flex tier (OpenAI's pricing page: half the standard price on the models that have it), or its
priority tier (about twice it). A tier charges one share of every token price, as the vendors print it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, Column, InputSpec, Kind, OutputSpec, PriceTable, messages_of
from calculators.vocabulary import cost
from calculators.vocabulary.price_table import draw_price_table

N_, NP_ = messages_of(__name__)

CACHE_HIT_SHARE = InputSpec(
    name="cache_hit_share",
    kind=Kind.DECIMAL,
    group=cost.USAGE,
    label=N_("Input read from the cache"),
    help=N_(
        "The share of input tokens billed as prompt-cache hits, at the cached input price: a long system prompt "
        "reused across requests, say. 0% without caching.",
    ),
    default="0",
    unit=N_("%"),
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=2,
    advanced=True,
)
BATCH_SHARE = replace(
    CACHE_HIT_SHARE,
    name="batch_share",
    label=N_("Requests sent as batches"),
    help=N_(
        "The share of the requests that can wait up to a day for their answers and go through the vendor's batch "
        "API, at the batch discount below. 0% when every request is answered at once.",
    ),
)
BATCH_DISCOUNT = replace(cost.BATCH_DISCOUNT, advanced=True)
SERVICE_TIER = InputSpec(
    name="service_tier",
    kind=Kind.CHOICE,
    group=cost.USAGE,
    label=N_("Service tier"),
    help=N_(
        "How the requests not sent as batches are served. Flex is slower and may wait for capacity, at a discount; "
        "priority is served first, at a premium; the page prices a model without that tier at its standard prices.",
    ),
    default="standard",
    # The number picks the tier's price below (0: the standard prices).
    choices=(
        Choice("standard", N_("Standard"), number="0"),
        Choice("flex", N_("Flex"), number="1"),
        Choice("priority", N_("Priority"), number="2"),
    ),
    advanced=True,
)
FLEX_PERCENT = InputSpec(
    name="flex_percent",
    kind=Kind.DECIMAL,
    group=cost.PRICES,
    label=N_("Flex tier price"),
    help=N_(
        "What a flex request costs, in percent of the standard prices. OpenAI's models that have the tier charge 50%.",
    ),
    default="50",
    unit=N_("%"),
    minimum=Decimal(0),
    maximum=Decimal(1000),
    fraction_digits=2,
    advanced=True,
    preset="price.flex_percent",
)
PRIORITY_PERCENT = replace(
    FLEX_PERCENT,
    name="priority_percent",
    label=N_("Priority tier price"),
    help=N_(
        "What a priority request costs, in percent of the standard prices. Most of OpenAI's models charge 200%, "
        "Google's 180%.",
    ),
    default="200",
    preset="price.priority_percent",
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cost of a request, a day, a month and twelve months, and the month's input and output parts.

    10,000 requests a day of 1,500 input and 300 output tokens at 0.15 and 0.60 per million cost 4.05 a day,
    121.50 in a 30-day month:

    >>> prices = {"input_price": 0.15, "cached_input_price": 0.075, "output_price": 0.6, "long_context_above": 0}
    >>> usage = {"requests_per_day": 10000, "input_tokens": 1500, "output_tokens": 300, "cache_hit_share": 0}
    >>> batch = {"batch_share": 0, "batch_discount": 50, "service_tier": 0, "flex_percent": 50, "priority_percent": 200}
    >>> result = compute({**prices, **usage, **batch, "month_hours": 720})
    >>> round(result["daily_cost"], 6), round(result["monthly_cost"], 6)
    (4.05, 121.5)

    Half of them through a batch API at 50% off: a quarter less.

    >>> round(compute({**prices, **usage, **batch, "batch_share": 50, "month_hours": 720})["monthly_cost"], 6)
    91.125
    """
    hit = values["cache_hit_share"] / 100
    tokens_in = values["input_tokens"]
    prices = cost.request_prices(values, tokens_in)
    input_cost = cost.per_million((1 - hit) * tokens_in, prices.input) + cost.per_million(
        hit * tokens_in, prices.cached_input
    )
    output_cost = cost.per_million(values["output_tokens"], prices.output)
    # The batch API's discount on the share sent through it, the service tier's price on the rest, on every part.
    batch = values["batch_share"] / 100
    tier = (100, values["flex_percent"], values["priority_percent"])[int(values["service_tier"])] / 100
    kept = batch * (1 - values["batch_discount"] / 100) + (1 - batch) * tier
    input_cost, output_cost = input_cost * kept, output_cost * kept
    days = cost.days_per_month(values)
    monthly_requests = values["requests_per_day"] * days
    return {
        "monthly_cost": (input_cost + output_cost) * monthly_requests,
        "monthly_requests": monthly_requests,
        "monthly_input_cost": input_cost * monthly_requests,
        "monthly_output_cost": output_cost * monthly_requests,
        "request_cost": input_cost + output_cost,
        "daily_cost": (input_cost + output_cost) * values["requests_per_day"],
        "yearly_cost": 12 * (input_cost + output_cost) * monthly_requests,
    }


CALCULATOR = Calculator(
    title=N_("LLM monthly cost"),
    summary=N_(
        "What an LLM feature costs a month from its requests per day, tokens per request and the API's prices, "
        "with the month's length stated: 730 hours or 30 days.",
    ),
    inputs=(
        cost.REQUESTS_PER_DAY,
        cost.INPUT_TOKENS,
        cost.OUTPUT_TOKENS,
        CACHE_HIT_SHARE,
        BATCH_SHARE,
        SERVICE_TIER,
        cost.INPUT_PRICE,
        cost.CACHED_INPUT_PRICE,
        cost.OUTPUT_PRICE,
        *cost.LONG_CONTEXT_INPUTS,
        BATCH_DISCOUNT,
        FLEX_PERCENT,
        PRIORITY_PERCENT,
        cost.MONTH_LENGTH,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="monthly_cost",
            label=N_("Cost per month"),
            # Translators: {requests_per_day} and {monthly_requests} are numbers of requests; {month_hours_label} is
            # the month length the reader chose, e.g. "730 hours (365 days ÷ 12)"; the other fields are amounts
            # of money with their currency code.
            sentence=N_(
                "{requests_per_day} requests a day make {monthly_requests} requests in a month of "
                "{month_hours_label}, which cost {monthly_cost}: {monthly_input_cost} for input and "
                "{monthly_output_cost} for output.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="request_cost",
            label=N_("Cost per request"),
            # Translators: {input_tokens} and {long_context_above} are numbers of tokens; the other fields are
            # amounts of money with their currency code.
            sentence=N_(
                "One request of {input_tokens} input tokens costs {request_cost}, at the long-context prices if that "
                "is more than {long_context_above} tokens (0: the model has no such tier). A day's traffic costs "
                "{daily_cost}, and twelve such months {yearly_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"C_{month} = \frac{(1 - h)\,T_{in}\,p_{in} + h\,T_{in}\,p_{cached} + T_{out}\,p_{out}}{10^6}"
        r" \times R_{day} \times \frac{H_{month}}{24} \times \left(b\,(1 - d) + (1 - b)\,m\right)",
    ),
    money=("monthly_input_cost", "monthly_output_cost", "daily_cost", "yearly_cost"),
    related=("token-cost", "tokens-per-dollar", "prompt-caching-savings", "batch-api-savings"),
    price_table=PriceTable(
        title=N_("Your traffic on every model in the price list, cheapest first"),
        note=N_(
            "Each row puts that model's list prices in place of yours, in US dollars, long-context tier included; "
            "your requests, tokens, cache and batch shares and month stay as you set them, at each model's own batch "
            "discount. Models whose context window holds fewer tokens than one request's input and output together "
            "come last, marked.",
        ),
        columns=(
            Column("monthly_cost", N_("Cost per month"), money=True),
            Column("request_cost", N_("Cost per request"), money=True),
        ),
        row=compute,
        order=lambda row: (row["monthly_cost"],),
        context=lambda values: values["input_tokens"] + values["output_tokens"],
        draw=draw_price_table,
    ),
)
