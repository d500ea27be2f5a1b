"""Text-to-speech cost: what synthesising a text costs at a price per million characters.

Character-billed speech APIs count every character of the input text, spaces and punctuation included, and print
a price per million characters (OpenAI's TTS-1 model page, "Cost / 1M characters",
https://developers.openai.com/api/docs/models/tts-1; xAI's, "$4.20 / 1M characters",
https://docs.x.ai/developers/models/text-to-speech):

    cost = characters × p / 10⁶

Token-billed speech models (OpenAI's gpt-4o-mini-tts) price text tokens in and audio tokens out instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

_TEXT = N_("Text")

CHARACTERS = InputSpec(
    name="characters",
    kind=Kind.INTEGER,
    group=_TEXT,
    label=N_("Characters of text"),
    help=N_(
        "Every character sent to be spoken, spaces and punctuation included: one request, or a month's worth.",
    ),
    default="250000",
    unit=N_("characters"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000000),
    fraction_digits=0,
)
PRICE = cost.price_input(
    "price_per_million_characters",
    N_("Price per million characters"),
    N_("What the speech API charges for a million characters of input text."),
    "15",
    preset="price.per_million_characters",
    unit=N_("per million characters"),
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the cost of the text, and the price per thousand characters.

    250,000 characters at 15 per million cost 3.75:

    >>> compute({"characters": 250000, "price_per_million_characters": 15})
    {'total_cost': 3.75, 'price_per_thousand': 0.015}
    """
    price = values["price_per_million_characters"]
    return {"total_cost": values["characters"] * price / 1e6, "price_per_thousand": price / 1000}


CALCULATOR = Calculator(
    title=N_("Text-to-speech cost"),
    summary=N_(
        "Price speech synthesis from the characters of text and the vendor's price per million characters, "
        "with list prices to start from.",
    ),
    inputs=(CHARACTERS, PRICE, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="total_cost",
            label=N_("Cost of the text"),
            # Translators: {characters} is a formatted number of characters; {price_per_million_characters}
            # and {total_cost} are amounts of money with their currency code.
            sentence=N_(
                "{characters} characters at {price_per_million_characters} per million characters cost {total_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="price_per_thousand",
            label=N_("Price per 1,000 characters"),
            # Translators: {price_per_thousand} is an amount of money with its currency code.
            sentence=N_(
                "That is {price_per_thousand} per 1,000 characters, the unit some vendors print their prices in.",
            ),
            fraction_digits=6,
            currency=cost.CURRENCY.name,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C = \frac{N_{chars}\,p}{10^6}",),
    related=("transcription-cost", "token-cost", "tokens-to-words"),
)
