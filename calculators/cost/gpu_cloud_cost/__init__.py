"""GPU cloud cost: what renting GPUs on demand costs per hour and per month, from the price of one GPU-hour.

Clouds bill GPUs by the hour of each GPU (Lambda's price list is "per GPU per hour") or by the hour of an instance
that holds several (AWS prints both for its Capacity Blocks: p5.48xlarge, 8 × H100, USD 39.33 an instance-hour and
USD 4.916 an accelerator-hour). A price per instance-hour divided by the GPUs in the instance is the price of one
GPU-hour, and:

    cost = GPUs × price per GPU-hour × hours

A month is cost.MONTH_LENGTH (730 hours by default) times the share of the day the GPUs run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_RENTAL = N_("Rental")

GPUS = InputSpec(
    name="gpus",
    kind=Kind.INTEGER,
    group=_RENTAL,
    label=N_("GPUs"),
    help=N_("How many GPUs you rent: 8 for one eight-GPU instance."),
    default="8",
    unit=units.GPUS,
    minimum=Decimal(1),
    maximum=Decimal(10_000_000),
    fraction_digits=0,
)
HOURS_PER_DAY = InputSpec(
    name="hours_per_day",
    kind=Kind.DECIMAL,
    group=_RENTAL,
    label=N_("Hours a day the GPUs run"),
    help=N_("24 for GPUs kept running day and night; fewer if you stop them when they are idle."),
    default="24",
    unit=N_("hours"),
    minimum=Decimal(0),
    maximum=Decimal(24),
    fraction_digits=2,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cost of an hour, of a month and the GPU-hours billed in a month.

    8 GPUs at 2.50 a GPU-hour, day and night through a 730-hour month: 20 an hour, 14,600 a month.

    >>> result = compute({"gpus": 8, "gpu_hour_price": 2.5, "hours_per_day": 24, "month_hours": 730})
    >>> result["hourly_cost"], result["monthly_cost"], result["monthly_gpu_hours"]
    (20.0, 14600.0, 5840.0)
    """
    hourly = values["gpus"] * values["gpu_hour_price"]
    gpu_hours = values["gpus"] * values["month_hours"] * values["hours_per_day"] / cost.HOURS_PER_DAY
    return {
        "hourly_cost": hourly,
        "monthly_cost": gpu_hours * values["gpu_hour_price"],
        "monthly_gpu_hours": gpu_hours,
    }


CALCULATOR = Calculator(
    title=N_("GPU cloud cost"),
    summary=N_(
        "What renting cloud GPUs on demand costs an hour and a month, from the price of one GPU-hour, the number "
        "of GPUs and the hours a day they run.",
    ),
    inputs=(
        GPUS,
        HOURS_PER_DAY,
        cost.GPU_HOUR_PRICE,
        replace(cost.MONTH_LENGTH, group=_RENTAL),
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="hourly_cost",
            label=N_("Cost per hour"),
            # Translators: {gpus} is a number of GPUs, {gpu_hour_price} and {hourly_cost} amounts of money with
            # their currency code.
            sentence=N_("{gpus} GPUs at {gpu_hour_price} a GPU-hour cost {hourly_cost} an hour."),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="monthly_cost",
            label=N_("Cost per month"),
            # Translators: {monthly_gpu_hours} is a number of GPU-hours, {hours_per_day} of hours, {month_hours_label}
            # the month's length as the menu names it; {monthly_cost} is an amount of money with its currency code.
            sentence=N_(
                "Running {hours_per_day} hours a day through a month of {month_hours_label}, they bill "
                "{monthly_gpu_hours} GPU-hours: {monthly_cost} a month, before storage, network egress and taxes.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C_{month} = n_{GPU} \cdot p_{GPU\text{-}h} \cdot H_{month} \cdot \frac{h_{day}}{24}",),
    related=("self-host-vs-api", "gpu-utilization-cost", "training-time-cost", "gpu-count"),
)
