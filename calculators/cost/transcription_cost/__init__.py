"""Audio transcription cost: what speech-to-text costs at a price per minute, billed per second or per minute.

Vendors print a price per minute or per hour of audio (OpenAI's whisper-1 model page, "Cost / minute $0.006",
https://developers.openai.com/api/docs/models/whisper-1; xAI's, "$0.10 / hr",
https://docs.x.ai/developers/models/speech-to-text) but differ in what they count. AssemblyAI pro-rates
pre-recorded audio "to the exact second" (https://assemblyai.com/docs/billing-and-pricing); other services
round every file up to the minute it started. For n files of s seconds each, at p per minute:

    per second:          cost = n × ⌈s⌉ / 60 × p
    per started minute:  cost = n × ⌈s / 60⌉ × p
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

_AUDIO = N_("Audio")

FILES = InputSpec(
    name="files",
    kind=Kind.INTEGER,
    group=_AUDIO,
    label=N_("Number of files"),
    help=N_(
        "How many recordings or calls to transcribe. Rounding applies to each file, so many short files cost "
        "more under per-minute billing than one long one.",
    ),
    default="1000",
    unit=N_("files"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000),
    fraction_digits=0,
)
SECONDS = InputSpec(
    name="seconds_per_file",
    kind=Kind.DECIMAL,
    group=_AUDIO,
    label=N_("Length of each file"),
    help=N_(
        "The average duration of one file, in seconds: 90 for a minute and a half, 3,600 for an hour.",
    ),
    default="95",
    unit=N_("seconds"),
    minimum=Decimal(0),
    maximum=Decimal(10000000),
    fraction_digits=3,
)
BILLING = InputSpec(
    name="billing",
    kind=Kind.CHOICE,
    group=cost.PRICES,
    label=N_("Billed"),
    help=N_(
        "How the vendor counts audio: to the second (AssemblyAI pro-rates to the exact second), or by every "
        "minute started, so that 61 seconds bill as two minutes. Check your vendor's pricing page.",
    ),
    default="second",
    choices=(
        Choice("second", N_("Per second"), number="1"),
        Choice("minute", N_("Per started minute"), number="60"),
    ),
    fraction_digits=0,
)
PRICE = cost.price_input(
    "price_per_minute",
    N_("Price per minute of audio"),
    N_("What the API charges for one minute of audio. For a price per hour, divide it by 60."),
    "0.006",
    preset="price.per_minute",
    unit=N_("per minute"),
)


def billed_seconds(seconds: float, increment: float) -> float:
    """Return the seconds billed for one file of `seconds`, rounded up to a whole `increment` (1 or 60).

    >>> billed_seconds(61, 60), billed_seconds(61.2, 1), billed_seconds(0, 60)
    (120, 62, 0)
    """
    return math.ceil(seconds / increment) * increment


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the billed minutes, the cost, and what the rounding adds.

    A 3,725-second recording at 0.006 a minute, billed per second: 62.08 minutes, 0.3725:

    >>> result = compute({"files": 1, "seconds_per_file": 3725, "billing": 1, "price_per_minute": 0.006})
    >>> round(result["billed_minutes"], 3), round(result["total_cost"], 6)
    (62.083, 0.3725)

    Per started minute it bills 63 minutes, 0.378:

    >>> result = compute({"files": 1, "seconds_per_file": 3725, "billing": 60, "price_per_minute": 0.006})
    >>> result["billed_minutes"], round(result["total_cost"], 6)
    (63.0, 0.378)
    """
    files, seconds = values["files"], values["seconds_per_file"]
    billed = files * billed_seconds(seconds, values["billing"]) / 60
    audio = files * seconds / 60
    total = billed * values["price_per_minute"]
    return {
        "audio_minutes": audio,
        "billed_minutes": billed,
        "total_cost": total,
        "file_cost": total / files if files else 0.0,
        "rounding_share": 100 * (billed - audio) / audio if audio else 0.0,
    }


CALCULATOR = Calculator(
    title=N_("Audio transcription cost"),
    summary=N_(
        "Price speech-to-text from the number and length of your recordings at a price per minute, billed per "
        "second or per started minute.",
    ),
    inputs=(FILES, SECONDS, PRICE, BILLING, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="total_cost",
            label=N_("Cost of all files"),
            # Translators: {billed_minutes} is a formatted number of minutes; {price_per_minute} and {total_cost}
            # are amounts of money with their currency code.
            sentence=N_(
                "The files bill {billed_minutes} minutes of audio, which at {price_per_minute} per minute cost "
                "{total_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="file_cost",
            label=N_("Cost per file"),
            # Translators: {file_cost} is an amount of money with its currency code.
            sentence=N_("One file costs {file_cost}."),
            fraction_digits=6,
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="rounding_share",
            label=N_("Added by rounding"),
            unit=N_("%"),
            # Translators: {audio_minutes} is a formatted number of minutes; {rounding_share} a percentage (the %
            # sign follows the placeholder).
            sentence=N_(
                "The audio lasts {audio_minutes} minutes: rounding each file up adds {rounding_share}% to the bill.",
            ),
            fraction_digits=1,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C = n \cdot \frac{\lceil s / u \rceil \, u}{60} \cdot p",),
    related=("tts-cost", "token-cost"),
)
