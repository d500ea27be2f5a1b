"""Token cost: what requests to a language-model API cost, from their tokens and the prices per million tokens.

Vendors price tokens per million (Anthropic's pricing page, "$ / MTok",
https://platform.claude.com/docs/en/about-claude/pricing; OpenAI's, "per 1M tokens", https://openai.com/api/pricing).
Input tokens read from the prompt cache bill at the cached-input price, the rest at the input price, and every token
the model writes (reasoning tokens included) at the output price:

    cost = (uncached input × p_in + cached input × p_cached + output × p_out) / 10⁶

A request whose input passes a model's long-context threshold bills all its tokens at the long-context prices
(`cost.request_prices`).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

CACHED_TOKENS = InputSpec(
    name="cached_tokens",
    kind=Kind.INTEGER,
    group=cost.USAGE,
    label=N_("Of which read from the cache"),
    help=N_(
        "How many of the input tokens are a prompt-cache hit, billed at the cached input price. 0 without caching.",
    ),
    default="0",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
REQUESTS = InputSpec(
    name="requests",
    kind=Kind.DECIMAL,
    group=cost.USAGE,
    label=N_("Number of requests"),
    help=N_("How many such requests to price: 1 for a single call, or a day's or a month's traffic."),
    default="1000",
    unit=N_("requests"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000000),
    fraction_digits=2,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cost of one request, of all of them, and of their input and output parts.

    2,000 input and 500 output tokens at 2.50 and 10 per million cost 0.005 + 0.005 = 0.01 a request, 10 for 1,000:

    >>> prices = {"input_price": 2.5, "cached_input_price": 1.25, "output_price": 10, "long_context_above": 0}
    >>> result = compute({"input_tokens": 2000, "cached_tokens": 0, "output_tokens": 500, "requests": 1000, **prices})
    >>> round(result["request_cost"], 6), round(result["total_cost"], 6)
    (0.01, 10.0)
    """
    prices = cost.request_prices(values, values["input_tokens"])
    uncached = values["input_tokens"] - values["cached_tokens"]
    input_cost = cost.per_million(uncached, prices.input) + cost.per_million(
        values["cached_tokens"], prices.cached_input
    )
    output_cost = cost.per_million(values["output_tokens"], prices.output)
    request_cost = input_cost + output_cost
    requests = values["requests"]
    return {
        "request_cost": request_cost,
        "total_cost": request_cost * requests,
        "total_input_cost": input_cost * requests,
        "total_output_cost": output_cost * requests,
        "output_share": 100 * output_cost / request_cost if request_cost else 0.0,
        "billed_input_price": prices.input,
        "billed_cached_input_price": prices.cached_input,
        "billed_output_price": prices.output,
    }


CALCULATOR = Calculator(
    title=N_("Token cost"),
    summary=N_(
        "Price API requests from their input, cached and output tokens at the vendor's prices per million "
        "tokens: the cost of one request and of many, with list prices to start from.",
    ),
    inputs=(
        cost.INPUT_TOKENS,
        CACHED_TOKENS,
        cost.OUTPUT_TOKENS,
        REQUESTS,
        cost.INPUT_PRICE,
        cost.CACHED_INPUT_PRICE,
        cost.OUTPUT_PRICE,
        *cost.LONG_CONTEXT_INPUTS,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="request_cost",
            label=N_("Cost per request"),
            # Translators: {request_cost} is an amount of money with its currency code; the other fields are
            # formatted token counts ({input_tokens}, {cached_tokens}, {output_tokens}, {long_context_above}) and
            # prices per million tokens with their currency code.
            sentence=N_(
                "{input_tokens} input tokens ({cached_tokens} of them from the cache) and {output_tokens} output "
                "tokens at {billed_input_price}, {billed_cached_input_price} and {billed_output_price} per million "
                "tokens cost {request_cost} a request. Those are the long-context prices when the input passes "
                "{long_context_above} tokens (0: the model has no such tier).",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="total_cost",
            label=N_("Cost of all requests"),
            # Translators: {requests} is a formatted number of requests; the other fields are amounts of money.
            sentence=N_(
                "{requests} requests cost {total_cost}: {total_input_cost} for input and {total_output_cost} "
                "for output.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="output_share",
            label=N_("Share of the cost from output"),
            unit=N_("%"),
            # Translators: {output_share} is a formatted percentage (the % sign follows the placeholder).
            sentence=N_(
                "Share of the cost from output tokens: {output_share}%. When it is high, shorter answers save more "
                "than a shorter prompt.",
            ),
            fraction_digits=1,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"C = \frac{(T_{in} - T_{cached})\,p_{in} + T_{cached}\,p_{cached} + T_{out}\,p_{out}}{10^6}",
        r"(p_{in}, p_{cached}, p_{out}) = (p^{long}_{in}, p^{long}_{cached}, p^{long}_{out})"
        r" \text{ if } T_{in} > T_{long}",
    ),
    money=(
        "total_input_cost",
        "total_output_cost",
        "billed_input_price",
        "billed_cached_input_price",
        "billed_output_price",
    ),
    related=("system-prompt-amortization", "function-calling-overhead", "tokens-to-words"),
    rules=(
        Rule(
            "cached_tokens",
            lambda values: values["cached_tokens"] <= values["input_tokens"],
            # Translators: {cached_tokens} and {input_tokens} are numbers as the reader typed them.
            N_("The cached tokens ({cached_tokens}) are part of the input: enter at most {input_tokens}."),
        ),
    ),
)
