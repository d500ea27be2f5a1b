"""Tokens per dollar: how many tokens a unit of currency, or a budget, buys at a mix of input and output prices.

Vendors print prices per million tokens ("$ / MTok" on Anthropic's pricing page,
https://platform.claude.com/docs/en/about-claude/pricing), so a unit of currency buys 10⁶ ÷ p tokens. A workload
mixes input and output tokens, which cost different prices: with a share f of input tokens the blended price is

    p_blend = f × p_in + (1 - f) × p_out,    tokens per unit = 10⁶ ÷ p_blend

The share is the reader's: three input tokens to one output token (75%) is a common convention, not a standard.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

INPUT_SHARE = InputSpec(
    name="input_share",
    kind=Kind.DECIMAL,
    group=cost.USAGE,
    label=N_("Share of input tokens"),
    help=N_(
        "Of every hundred tokens the workload bills, how many are input. 75% (three input tokens to one "
        "output token) is a common convention for a blended price; 100% prices input alone, 0% prices output alone.",
    ),
    default="75",
    unit=units.PERCENT,
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=2,
)
BUDGET = InputSpec(
    name="budget",
    kind=Kind.DECIMAL,
    group=cost.PRICES,
    label=N_("Budget"),
    help=N_("An amount to spend, in the chosen currency: how many tokens it buys is the second result."),
    default="100",
    minimum=Decimal(0),
    maximum=Decimal(1000000000),
    fraction_digits=2,
    currency=cost.CURRENCY.name,
)


def blended_price(values: Mapping[str, float]) -> float:
    """Return the price of a million tokens in the mix: the input and output prices weighted by their shares."""
    share = values["input_share"] / 100
    return share * values["input_price"] + (1 - share) * values["output_price"]


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the blended price per million tokens, the tokens one unit of currency buys, and the budget's tokens.

    At 2.50 per million input and 10 per million output tokens, three to one, a million tokens cost 4.375:

    >>> result = compute({"input_price": 2.5, "output_price": 10, "input_share": 75, "budget": 100})
    >>> result["blended_price"], round(result["tokens_per_unit"])
    (4.375, 228571)
    """
    price = blended_price(values)
    per_unit = 1e6 / price
    tokens = values["budget"] * per_unit
    share = values["input_share"] / 100
    return {
        "blended_price": price,
        "tokens_per_unit": per_unit,
        "budget_tokens": tokens,
        "budget_input_tokens": tokens * share,
        "budget_output_tokens": tokens * (1 - share),
    }


CALCULATOR = Calculator(
    title=N_("Tokens per dollar"),
    summary=N_(
        "How many tokens a dollar, or any budget, buys at an API's input and output prices, blended by the "
        "share of input tokens in your workload.",
    ),
    inputs=(cost.INPUT_PRICE, cost.OUTPUT_PRICE, INPUT_SHARE, BUDGET, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="tokens_per_unit",
            label=N_("Tokens per unit of currency"),
            unit=N_("tokens"),
            # Translators: {input_share} is a percentage (the % sign follows it); {input_price}, {output_price}
            # and {blended_price} are prices with their currency code; {tokens_per_unit} is a number of tokens.
            sentence=N_(
                "With an input share of {input_share}%, priced at {input_price}, and the rest at {output_price} "
                "per million, a million tokens cost {blended_price} on average: one unit of the currency buys "
                "{tokens_per_unit} tokens.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="budget_tokens",
            label=N_("Tokens the budget buys"),
            unit=N_("tokens"),
            # Translators: {budget} is an amount of money with its currency code; the other fields are numbers
            # of tokens.
            sentence=N_(
                "{budget} buys {budget_tokens} tokens in this mix: {budget_input_tokens} input and "
                "{budget_output_tokens} output tokens.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"N_{1} = \frac{10^6}{f\,p_{in} + (1 - f)\,p_{out}}",),
    money=("blended_price",),
    related=("token-cost", "llm-monthly-cost", "batch-api-savings", "prompt-caching-savings"),
    rules=(
        Rule(
            "input_price",
            lambda values: blended_price(values) > 0,
            N_("Enter a price above 0 for the tokens the mix bills."),
        ),
    ),
)
