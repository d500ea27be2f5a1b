"""Model download time: how long a model's files take to arrive over a given link.

Formula: t = size in bytes × 8 / (link speed in bits per second × efficiency). Sizes come in GB
(10⁹ bytes) or GiB (2³⁰ bytes), as llama.cpp's quantize README prints them ("4.58 GiB" for
Llama-3.1-8B at Q4_K_M); link speeds come in decimal bits per second (1 Mbit/s = 10⁶ bit/s), the
unit network providers sell, or in MB/s (8 × 10⁶ bit/s), the unit most download tools show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

_FILES = N_("Files")
_LINK = N_("Connection")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the download time in seconds, minutes and hours.

    Llama-3.1-8B at Q4_K_M, "4.58 GiB" in llama.cpp's quantize README, over 100 Mbit/s:
    4.58 × 2³⁰ bytes × 8 ÷ 10⁸ bit/s = 393.4 s, or 6.56 minutes:

    >>> result = compute({"model_size": 4.58, "memory_unit": 2**30, "link_speed": 100,
    ...                   "link_unit": 1e6, "efficiency_percent": 100})
    >>> round(result["download_seconds"], 1), round(result["download_minutes"], 2)
    (393.4, 6.56)
    """
    bits = values["model_size"] * values["memory_unit"] * 8
    rate = values["link_speed"] * values["link_unit"] * values.get("efficiency_percent", 100) / 100
    seconds = bits / rate
    return {"download_seconds": seconds, "download_minutes": seconds / 60, "download_hours": seconds / 3600}


CALCULATOR = Calculator(
    title=N_("Model download time"),
    summary=N_(
        "Find how long a model's weights take to download, from their size in GB or GiB and your "
        "connection's speed in Mbit/s, Gbit/s or MB/s.",
    ),
    inputs=(
        InputSpec(
            name="model_size",
            kind=Kind.DECIMAL,
            group=_FILES,
            label=N_("Download size"),
            help=N_(
                "The total size of the files to fetch, in the memory unit chosen below. The default is "
                "Llama-3.1-8B at Q4_K_M, 4.58 GiB as llama.cpp reports it.",
            ),
            default="4.58",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=3,
        ),
        replace(
            inputs.MEMORY_UNIT,
            group=_FILES,
            label=N_("Size unit"),
            help=N_(
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the unit llama.cpp prints (Windows counts in GiB too but labels "
                "them GB; macOS shows decimal GB).",
            ),
            default="gib",
        ),
        InputSpec(
            name="link_speed",
            kind=Kind.DECIMAL,
            group=_LINK,
            label=N_("Connection speed"),
            help=N_(
                "How fast data arrives, in the unit chosen below. Internet plans are sold in megabits per "
                "second; download tools usually show megabytes per second, 8 times smaller numbers.",
            ),
            default="100",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(10_000_000),
            fraction_digits=3,
        ),
        InputSpec(
            name="link_unit",
            kind=Kind.CHOICE,
            group=_LINK,
            label=N_("Speed unit"),
            help=N_(
                "Megabits or gigabits per second (10⁶ or 10⁹ bits), or megabytes per second (8 × 10⁶ bits).",
            ),
            default="mbit",
            choices=(
                Choice("mbit", N_("Mbit/s"), number="1000000"),
                Choice("gbit", N_("Gbit/s"), number="1000000000"),
                Choice("mbyte", N_("MB/s"), number="8000000"),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="efficiency_percent",
            kind=Kind.DECIMAL,
            group=_LINK,
            label=N_("Link efficiency"),
            help=N_(
                "The share of the nominal speed a download actually reaches, after protocol overhead, "
                "Wi-Fi losses and a busy server. 100 means the full nominal speed, the best case.",
            ),
            unit=N_("%"),
            default="100",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=1,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="download_minutes",
            label=N_("Download time"),
            unit=N_("min"),
            # Translators: {model_size} is a formatted size and {memory_unit_label} its unit (GB or GiB);
            # {link_speed} is a formatted speed and {link_unit_label} its unit (Mbit/s, Gbit/s or MB/s);
            # {efficiency_percent} a percentage; {download_minutes} a formatted number of minutes.
            sentence=N_(
                "{model_size} {memory_unit_label} at {link_speed} {link_unit_label}, with a link efficiency of "
                "{efficiency_percent}%, take {download_minutes} minutes.",
            ),
        ),
        OutputSpec(
            name="download_seconds",
            label=N_("In seconds"),
            unit=N_("s"),
            # Translators: {download_seconds} is a formatted number of seconds.
            sentence=N_(
                "Bytes × 8 ÷ bits per second = {download_seconds} seconds.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="download_hours",
            label=N_("In hours"),
            unit=N_("h"),
            # Translators: {download_hours} is a formatted number of hours.
            sentence=N_("That is {download_hours} hours."),
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"t = \frac{8 \cdot S}{R \cdot e}",),
    related=("quantized-model-size", "llm-inference-vram", "gpu-count"),
)
