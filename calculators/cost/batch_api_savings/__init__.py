"""Batch API savings: what sending requests through a vendor's batch API saves over answering them at once.

OpenAI's Batch API FAQ (https://help.openai.com/en/articles/9197833-batch-api-faq) offers each model "at 50% cost
discount vs. the synchronous APIs", with results within 24 hours; Anthropic's Message Batches
(https://docs.anthropic.com/en/docs/build-with-claude/batch-processing) cut costs by 50%, and its
pricing page prints the batch table (Claude Opus 4.1: $7.50 and $37.50 per million tokens against $15 and $75).
With a discount d on input and output prices:

    C_batch = C_standard × (1 - d),    savings = C_standard × d
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

REQUESTS = InputSpec(
    name="requests",
    kind=Kind.DECIMAL,
    group=cost.USAGE,
    label=N_("Requests in the batch"),
    help=N_(
        "How many requests the job sends: a night's classification run, an evaluation set, a backfill.",
    ),
    default="10000",
    unit=N_("requests"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000000),
    fraction_digits=2,
)
DISCOUNT = replace(cost.BATCH_DISCOUNT, advanced=False)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the job's standard and batch costs, the savings and the batch prices per million tokens.

    Claude Opus 4.1 at $15 and $75 per million, half off, bills $7.50 and $37.50 per million in a batch:

    >>> result = compute({"input_tokens": 2000, "output_tokens": 500, "requests": 1000, "input_price": 15,
    ...                   "output_price": 75, "batch_discount": 50})
    >>> result["batch_input_price"], result["batch_output_price"], round(result["savings"], 6)
    (7.5, 37.5, 33.75)
    """
    keep = 1 - values["batch_discount"] / 100
    request_cost = cost.per_million(values["input_tokens"], values["input_price"]) + cost.per_million(
        values["output_tokens"], values["output_price"]
    )
    standard = request_cost * values["requests"]
    return {
        "batch_cost": standard * keep,
        "standard_cost": standard,
        "savings": standard - standard * keep,
        "batch_input_price": values["input_price"] * keep,
        "batch_output_price": values["output_price"] * keep,
    }


CALCULATOR = Calculator(
    title=N_("Batch API savings"),
    summary=N_(
        "What a job costs through a vendor's batch API, answered within a day at half price, against the "
        "same requests answered at once.",
    ),
    inputs=(
        cost.INPUT_TOKENS,
        cost.OUTPUT_TOKENS,
        REQUESTS,
        cost.INPUT_PRICE,
        cost.OUTPUT_PRICE,
        DISCOUNT,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="batch_cost",
            label=N_("Cost through the batch API"),
            # Translators: {requests} is a number of requests; {batch_cost} and {standard_cost} are amounts of
            # money with their currency code.
            sentence=N_(
                "Through the batch API, {requests} requests cost {batch_cost} instead of {standard_cost} at the "
                "standard prices.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="savings",
            label=N_("Savings"),
            # Translators: {savings} is an amount of money; {batch_discount} is a percentage (the % sign follows
            # it); {batch_input_price} and {batch_output_price} are prices with their currency code.
            sentence=N_(
                "The batch saves {savings} ({batch_discount}%): its prices are {batch_input_price} "
                "per million input tokens and {batch_output_price} per million output tokens.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C_{batch} = \frac{T_{in}\,p_{in} + T_{out}\,p_{out}}{10^6} \times N \times (1 - d)",),
    money=("standard_cost", "batch_input_price", "batch_output_price"),
    related=("token-cost", "llm-monthly-cost", "prompt-caching-savings", "tokens-per-dollar"),
)
