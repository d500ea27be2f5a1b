"""Dataset token count: an estimate of the tokens in a text from its characters, words or bytes.

Rules of thumb (OpenAI Help Center, "What are tokens and how to count them?",
https://help.openai.com/en/articles/4936856): for common English text one token is about
4 characters, or about three quarters of a word (100 tokens ≈ 75 words). So
tokens ≈ characters / 4 and tokens ≈ words / 0.75. Plain English text in UTF-8 takes one byte
per character, so bytes count as characters. Both ratios are adjustable, because code and
other languages split into more tokens per character.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of

N_, NP_ = messages_of(__name__)

_TEXT = N_("Text")
_RATIOS = N_("Tokenizer ratios")

# Characters each unit stands for, by the unit's code below: words (code 0) are read with the
# words-per-token ratio instead; a byte of plain English text in UTF-8 is one character.
_WORDS = 0
_CHARACTERS_PER_UNIT = (0.0, 1.0, 1.0, 1e6, 1e9)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the estimated tokens, and the tokens one unit of the chosen kind stands for.

    OpenAI's examples: Shakespeare's collected works, about 900,000 words, are about
    1.2 million tokens, and 75 words are about 100 tokens:

    >>> ratios = {"chars_per_token": 4, "words_per_token": 0.75}
    >>> compute({"text_amount": 900_000, "text_unit": 0, **ratios})["tokens"]
    1200000.0
    >>> compute({"text_amount": 75, "text_unit": 0, **ratios})["tokens"]
    100.0

    One gigabyte of plain English text at 4 characters per token:

    >>> compute({"text_amount": 1, "text_unit": 4, **ratios})["tokens"]
    250000000.0
    """
    unit = int(values["text_unit"])
    if unit == _WORDS:
        per_unit = 1 / values["words_per_token"]
    else:
        per_unit = _CHARACTERS_PER_UNIT[unit] / values["chars_per_token"]
    return {"tokens": values["text_amount"] * per_unit, "tokens_per_unit": per_unit}


CALCULATOR = Calculator(
    title=N_("Dataset token count"),
    summary=N_(
        "Estimate how many tokens a text or a dataset holds from its characters, words or bytes, with "
        "OpenAI's rules of thumb for English (4 characters or 0.75 words per token) or your own ratios.",
    ),
    inputs=(
        InputSpec(
            name="text_amount",
            kind=Kind.DECIMAL,
            group=_TEXT,
            label=N_("Amount of text"),
            help=N_(
                "How much text there is, counted in the unit chosen below. Large numbers can be typed "
                "with an exponent: 5e10 for 50 billion.",
            ),
            default="900000",
            minimum=Decimal(0),
            maximum=Decimal("1e15"),
            fraction_digits=3,
        ),
        InputSpec(
            name="text_unit",
            kind=Kind.CHOICE,
            group=_TEXT,
            label=N_("Counted in"),
            help=N_(
                "What the amount counts. Words use the words-per-token ratio; characters and bytes use the "
                "characters-per-token ratio, since plain English text takes one byte per character in UTF-8. "
                "MB and GB are decimal: 10⁶ and 10⁹ bytes.",
            ),
            default="words",
            choices=(
                Choice("words", N_("Words"), number="0"),
                Choice("characters", N_("Characters"), number="1"),
                Choice("bytes", N_("Bytes of UTF-8 text"), number="2"),
                Choice("mb", N_("Megabytes (MB) of UTF-8 text"), number="3"),
                Choice("gb", N_("Gigabytes (GB) of UTF-8 text"), number="4"),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="chars_per_token",
            kind=Kind.DECIMAL,
            group=_RATIOS,
            label=N_("Characters per token"),
            help=N_(
                "Average characters (or bytes) one token covers. OpenAI gives about 4 for common English "
                "text; code, other languages and non-Latin scripts usually give fewer, so more tokens. "
                "Measure it on a sample with your own tokenizer for a better estimate.",
            ),
            default="4",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1000),
            fraction_digits=3,
            advanced=True,
        ),
        InputSpec(
            name="words_per_token",
            kind=Kind.DECIMAL,
            group=_RATIOS,
            label=N_("Words per token"),
            help=N_(
                "Average words one token covers. OpenAI gives about 0.75 for English (100 tokens ≈ 75 words).",
            ),
            default="0.75",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=3,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="tokens",
            label=N_("Estimated tokens"),
            unit=NP_("token", "tokens", count="tokens"),
            # Translators: {tokens} is a formatted number of tokens, {text_amount} the amount of text typed,
            # {text_unit_label} what it counts (Words, Characters, Bytes of UTF-8 text...), {tokens_per_unit}
            # the tokens per unit of that kind.
            sentence=NP_(
                "{text_unit_label}: {text_amount} × {tokens_per_unit} tokens each ≈ {tokens} token.",
                "{text_unit_label}: {text_amount} × {tokens_per_unit} tokens each ≈ {tokens} tokens.",
                count="tokens",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="tokens_per_unit",
            label=N_("Tokens per unit"),
            # Translators: {tokens_per_unit} is a formatted number; {text_unit_label} is what the amount
            # counts (Words, Characters, Bytes of UTF-8 text...); {words_per_token} and {chars_per_token} are
            # the two ratios.
            sentence=N_(
                "{text_unit_label}: each unit counts as {tokens_per_unit} tokens. Words are read at "
                "{words_per_token} words per token; characters and bytes at {chars_per_token} characters per token.",
            ),
            fraction_digits=4,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"T \approx \frac{C}{c}", r"T \approx \frac{W}{w}"),
    related=("effective-batch-size", "compute-budget-epochs", "chinchilla-optimal-tokens"),
)
