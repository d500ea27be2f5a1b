"""GPU utilization cost: what a useful GPU-hour and a million generated tokens cost when the GPU is busy part-time.

A rented GPU bills every hour it runs, busy or idle, so the price of the hours that do work is the hourly price
divided by the share of hours that are busy, and a GPU that generates r tokens a second when busy generates
r × 3,600 × u tokens an hour on average:

    cost per useful hour = p / u;  cost per million tokens = p / (r × 3,600 × u) × 10⁶
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_USE = N_("Use")
SECONDS_PER_HOUR = 3600

UTILIZATION = InputSpec(
    name="utilization",
    kind=Kind.DECIMAL,
    group=_USE,
    label=N_("Utilization"),
    help=N_("The share of the billed hours the GPU spends doing useful work."),
    default="40",
    unit=units.PERCENT,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100),
    fraction_digits=2,
)
THROUGHPUT = InputSpec(
    name="tokens_per_second",
    kind=Kind.DECIMAL,
    group=_USE,
    label=N_("Tokens per second when busy"),
    help=N_("What the GPU generates each second while it works, all concurrent requests together."),
    default="1000",
    unit=N_("tokens/s"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100000000),
    fraction_digits=2,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cost of a useful hour, of the idle share of the bill, and of a million tokens.

    2.00 an hour at 40% utilization is 5.00 a useful hour; at 50% and 1,000 tokens/s, 1.111 per million tokens:

    >>> compute({"gpu_hour_price": 2, "utilization": 40, "tokens_per_second": 1000})["useful_hour_cost"]
    5.0
    >>> round(compute({"gpu_hour_price": 2, "utilization": 50, "tokens_per_second": 1000})["million_tokens_cost"], 3)
    1.111
    """
    share = values["utilization"] / 100
    price = values["gpu_hour_price"]
    tokens_per_hour = values["tokens_per_second"] * SECONDS_PER_HOUR * share
    return {
        "useful_hour_cost": price / share,
        "idle_cost": price * (1 - share),
        "million_tokens_cost": price / tokens_per_hour * 1e6,
        "tokens_per_hour": tokens_per_hour,
    }


CALCULATOR = Calculator(
    title=N_("GPU utilization cost"),
    summary=N_(
        "What a useful GPU-hour and a million generated tokens really cost when a rented GPU is busy only part "
        "of the time.",
    ),
    inputs=(cost.GPU_HOUR_PRICE, UTILIZATION, THROUGHPUT, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="useful_hour_cost",
            label=N_("Cost per useful hour"),
            # Translators: {gpu_hour_price}, {useful_hour_cost} and {idle_cost} are amounts of money with their
            # currency code; {utilization} is a percentage (the % sign follows it).
            sentence=N_(
                "At {gpu_hour_price} an hour and a utilization of {utilization}%, each useful hour costs "
                "{useful_hour_cost}; {idle_cost} of every billed hour pays for idle time.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="million_tokens_cost",
            label=N_("Cost per million tokens"),
            # Translators: {tokens_per_hour} is a number of tokens; {million_tokens_cost} an amount of money.
            sentence=N_(
                "On average the GPU generates {tokens_per_hour} tokens an hour, so a million tokens cost "
                "{million_tokens_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C_{useful} = \frac{p}{u}, \quad C_{10^6} = \frac{p \cdot 10^6}{r \cdot 3600 \cdot u}",),
    money=("idle_cost",),
    related=("gpu-cloud-cost", "self-host-vs-api", "inference-energy-cost"),
)
