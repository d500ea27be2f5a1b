"""Self-hosting vs API break-even: the monthly token volume at which rented GPUs cost as much as an API.

Rented GPUs bill by the hour whatever they serve (AWS prints the on-demand price of a p5.48xlarge, eight H100,
per instance-hour: https://aws.amazon.com/ec2/pricing/on-demand/), while an API bills by the million tokens, input and
output apart (https://platform.claude.com/docs/en/about-claude/pricing, https://openai.com/api/pricing). With a share
s of the tokens sent as input, the API's blended price is s × p_in + (1 - s) × p_out, and

    self-hosting a month = GPUs × price per GPU-hour × hours in the month + operations overhead
    break-even tokens a month = self-hosting a month ÷ (blended price ÷ 10⁶)

Break-even means nothing if the GPUs cannot serve that many tokens. A GPU reads a prompt's tokens in parallel
(prefill) and writes the answer one token at a time (decode), so it gets through input tokens far faster than output
(Databricks, "Conduct your own LLM endpoint benchmarking":
https://docs.databricks.com/en/machine-learning/foundation-models/prov-throughput-run-benchmark.html). A token mix of
input share s costs s ÷ r_in + (1 - s) ÷ r_out GPU-seconds per token, so one GPU busy a share u of the time averages

    r = u ÷ (s ÷ r_in + (1 - s) ÷ r_out) tokens a second,

the deployment's capacity is GPUs × r × seconds in the month, and the reader's own volume needs ⌈rate ÷ r⌉ GPUs. The
comparison with the API prices the volume on the GPUs it needs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_SELF_HOST = N_("Self-hosting")
SECONDS_PER_HOUR = 3600

GPUS = InputSpec(
    name="gpus",
    kind=Kind.INTEGER,
    group=_SELF_HOST,
    label=N_("GPUs"),
    help=N_("How many GPUs the self-hosted deployment rents, running day and night."),
    default="2",
    unit=units.GPUS,
    minimum=Decimal(1),
    maximum=Decimal(10_000_000),
    fraction_digits=0,
)
GPU_HOUR_PRICE = replace(cost.GPU_HOUR_PRICE, group=_SELF_HOST, default="2")
OVERHEAD = cost.price_input(
    "ops_overhead",
    N_("Operations overhead"),
    N_(
        "What running the deployment costs each month besides the GPUs: engineers' time, monitoring, storage, "
        "network egress. 0 compares the GPU rent alone.",
    ),
    "0",
    preset=None,
    unit=N_("per month"),
)
OVERHEAD = replace(OVERHEAD, group=_SELF_HOST)
THROUGHPUT = InputSpec(
    name="tokens_per_second",
    kind=Kind.DECIMAL,
    group=_SELF_HOST,
    label=N_("Output tokens per second per GPU"),
    help=N_(
        "What one GPU generates each second under your real load, all concurrent requests together. Measure it "
        "with your model, batch size and request lengths: published benchmarks are best cases.",
    ),
    default="1000",
    unit=N_("tokens/s"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100000000),
    fraction_digits=2,
)
INPUT_THROUGHPUT = replace(
    THROUGHPUT,
    name="input_tokens_per_second",
    label=N_("Input tokens per second per GPU"),
    help=N_(
        "How many prompt tokens one GPU reads each second under your real load. A prompt is read in parallel, so "
        "this is many times the output rate; serving benchmarks report it as input throughput.",
    ),
    default="10000",
)
UTILIZATION = InputSpec(
    name="utilization",
    kind=Kind.DECIMAL,
    group=_SELF_HOST,
    label=N_("Utilization"),
    help=N_(
        "The share of the month the GPUs run at that throughput. Traffic comes in peaks and lulls, so a "
        "deployment sized for the peaks averages well below 100.",
    ),
    default="50",
    unit=units.PERCENT,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100),
    fraction_digits=2,
)
INPUT_SHARE = InputSpec(
    name="input_share",
    kind=Kind.DECIMAL,
    group=cost.PRICES,
    label=N_("Input share of the tokens"),
    help=N_(
        "The share of the tokens that are input (prompts, history, documents) rather than output. Chat and "
        "retrieval traffic is mostly input; long answers lower it.",
    ),
    default="75",
    unit=units.PERCENT,
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=2,
)
MONTHLY_TOKENS = InputSpec(
    name="monthly_tokens",
    kind=Kind.DECIMAL,
    group=cost.USAGE,
    label=N_("Your tokens per month"),
    help=N_("The input and output tokens you expect to process in a month, together."),
    default="1000000000",
    unit=N_("tokens"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000000000),
    fraction_digits=0,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the monthly costs, the break-even volume and whether the GPUs can serve the reader's volume.

    2 GPUs at 2.00 an hour through 730 hours cost 2,920 a month; at a blended 1.00 per million tokens the API costs as
    much at 2.92 billion tokens a month, a sustained 1,111 tokens a second:

    >>> prices = {"input_price": 1, "output_price": 1, "input_share": 75, "ops_overhead": 0}
    >>> gpus = {"gpus": 2, "gpu_hour_price": 2, "tokens_per_second": 1000, "input_tokens_per_second": 10000,
    ...         "utilization": 50, "month_hours": 730}
    >>> result = compute({**prices, **gpus, "monthly_tokens": 1e9})
    >>> result["self_host_cost"], result["break_even_tokens"], round(result["break_even_rate"], 1)
    (2920, 2920000000.0, 1111.1)

    Three quarters input at 10,000 tokens/s and a quarter output at 1,000 take 0.75 ÷ 10,000 + 0.25 ÷ 1,000 =
    0.000325 GPU-seconds a token, so a GPU busy half the time averages 0.5 ÷ 0.000325 ≈ 1,538 tokens a second:

    >>> round(result["capacity_rate"] / 2, 1)
    1538.5
    """
    hours = values["month_hours"]
    seconds = hours * SECONDS_PER_HOUR
    gpu_month = values["gpu_hour_price"] * hours
    overhead = values["ops_overhead"]
    self_host = values["gpus"] * gpu_month + overhead
    share = values["input_share"] / 100
    blended = share * values["input_price"] + (1 - share) * values["output_price"]
    break_even = self_host / (blended / 1e6)
    gpu_seconds_per_token = share / values["input_tokens_per_second"] + (1 - share) / values["tokens_per_second"]
    per_gpu_rate = values["utilization"] / 100 / gpu_seconds_per_token
    tokens = values["monthly_tokens"]
    rate = tokens / seconds
    # A deployment has at least one GPU; the tolerance keeps a volume that fills whole GPUs from rounding up.
    needed = max(math.ceil(rate / per_gpu_rate - 1e-9), 1)
    sized = needed * gpu_month + overhead
    api = cost.per_million(tokens, blended)
    return {
        "self_host_cost": self_host,
        "blended_price": blended,
        "break_even_tokens": break_even,
        "break_even_rate": break_even / seconds,
        "capacity_tokens": values["gpus"] * per_gpu_rate * seconds,
        "capacity_rate": values["gpus"] * per_gpu_rate,
        "load_share": 100 * rate / (values["gpus"] * per_gpu_rate),
        "required_rate": rate,
        "gpus_needed": needed,
        "api_cost": api,
        "sized_cost": sized,
        "self_host_saving": max(api - sized, 0.0),
        "api_saving": max(sized - api, 0.0),
    }


CALCULATOR = Calculator(
    title=N_("Self-hosting vs API break-even"),
    summary=N_(
        "The monthly token volume at which renting GPUs costs as much as paying an API per token, whether your "
        "GPUs could serve that volume, and which is cheaper for the tokens you expect.",
    ),
    inputs=(
        GPUS,
        GPU_HOUR_PRICE,
        OVERHEAD,
        THROUGHPUT,
        INPUT_THROUGHPUT,
        UTILIZATION,
        cost.INPUT_PRICE,
        cost.OUTPUT_PRICE,
        INPUT_SHARE,
        MONTHLY_TOKENS,
        cost.MONTH_LENGTH,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="self_host_cost",
            label=N_("Self-hosting per month"),
            # Translators: {gpus} is a number of GPUs; {gpu_hour_price}, {ops_overhead} and {self_host_cost} are
            # amounts of money with their currency code; {month_hours_label} is the month's length as the menu
            # names it.
            sentence=N_(
                "{gpus} × {gpu_hour_price} a GPU-hour through a month of {month_hours_label}, plus {ops_overhead} "
                "of operations, come to {self_host_cost} a month.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="break_even_tokens",
            label=N_("Break-even tokens per month"),
            unit=N_("tokens"),
            # Translators: {input_price}, {output_price} and {blended_price} are prices per million tokens with
            # their currency code; {input_share} is a percentage (the % sign follows it); {break_even_tokens} a
            # number of tokens and {break_even_rate} of tokens per second.
            sentence=N_(
                "At {input_price} per million input tokens and {output_price} per million output tokens, and an "
                "input share of {input_share}%, the API charges a blended {blended_price} per million tokens. It "
                "costs as "
                "much as self-hosting at {break_even_tokens} tokens a month: {break_even_rate} tokens a second, "
                "around the clock.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="capacity_tokens",
            label=N_("What the GPUs can serve per month"),
            unit=N_("tokens"),
            # Translators: {input_tokens_per_second}, {tokens_per_second} and {capacity_rate} are numbers of tokens
            # per second, {input_share} and {utilization} percentages (the % sign follows each), {capacity_tokens}
            # a number of tokens.
            sentence=N_(
                "Reading {input_tokens_per_second} input tokens or writing {tokens_per_second} output tokens a "
                "second per GPU, with an input share of {input_share}% and a utilization of {utilization}%, the "
                "deployment averages {capacity_rate} tokens a second: {capacity_tokens} tokens a month. If that is "
                "below the break-even volume, it can never pay for itself.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="gpus_needed",
            label=N_("GPUs your volume needs"),
            unit=NP_("GPU", "GPUs", count="gpus_needed"),
            # Translators: {monthly_tokens} is a number of tokens, {required_rate} of tokens per second,
            # {load_share} a percentage (the % sign follows it), {gpus_needed} a number of GPUs.
            sentence=N_(
                "Your {monthly_tokens} tokens a month are {required_rate} tokens a second on average, a load on "
                "the deployment of {load_share}%. Above 100, it cannot keep up. GPUs needed to serve your volume: "
                "{gpus_needed}.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="self_host_saving",
            label=N_("Self-hosting saves per month"),
            # Translators: {monthly_tokens} is a number of tokens, {gpus_needed} a number of GPUs; the other fields
            # are amounts of money with their currency code.
            sentence=N_(
                "Your {monthly_tokens} tokens cost {api_cost} a month through the API, and {sized_cost} self-hosted "
                "on the GPUs they need ({gpus_needed}), operations included. Self-hosting is cheaper by "
                "{self_host_saving} a month; 0 means it is not.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="api_saving",
            label=N_("The API saves per month"),
            # Translators: {api_saving} is an amount of money with its currency code.
            sentence=N_(
                "The API is cheaper by {api_saving} a month; 0 means self-hosting costs less. Either way, compare "
                "the models' quality, not only the price.",
            ),
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"C_{self} = n_{GPU} \cdot p_{GPU\text{-}h} \cdot H_{month} + C_{ops}, \quad "
        r"T_{break\text{-}even} = \frac{C_{self}}{\big(s\,p_{in} + (1 - s)\,p_{out}\big) / 10^6}",
        r"r = \frac{u}{s / r_{in} + (1 - s) / r_{out}}, \quad "
        r"n_{needed} = \left\lceil \frac{T_{month} / (3600\,H_{month})}{r} \right\rceil",
    ),
    money=("blended_price", "api_cost", "sized_cost"),
    related=("gpu-cloud-cost", "gpu-utilization-cost", "token-cost", "llm-monthly-cost", "tokens-per-dollar"),
    rules=(
        Rule(
            "input_price",
            lambda values: values["input_price"] > 0 or values["output_price"] > 0,
            # Translators: {input_price} and {output_price} are prices as the reader typed them.
            N_(
                "With an input price of {input_price} and an output price of {output_price} the API is free and "
                "never breaks even: enter the API's prices.",
            ),
        ),
    ),
)
