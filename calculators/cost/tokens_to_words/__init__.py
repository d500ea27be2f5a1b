"""Tokens to words: how much text a number of tokens is, in characters and words, in the site's languages.

Characters per token by language are Cohere's published averages for its multilingual-22-12 tokenizer, measured
on the first 10,000 paragraphs of each language's Wikipedia (https://huggingface.co/Cohere/multilingual-22-12:
ar 3.6, de 4.6, en 4.8, es 4.6, fr 4.4, ja 1.3, ko 2.0, zh 1.1). Portuguese is not in that table: Spanish's 4.6
stands in for it, a rule of thumb the page names. OpenAI's rule of thumb for English with its own tokenizers is
4 characters and three quarters of a word per token (https://help.openai.com/en/articles/4936856). Words per
token are given for English only; languages written without spaces have no word count to speak of.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of

N_, NP_ = messages_of(__name__)

_TEXT = N_("Text")
_RATIOS = N_("Ratios")
# Characters per token of each language choice, by its number: Cohere's table, Spanish's for Portuguese, and
# None for the reader's own ratio.
_RATIOS_BY_LANGUAGE = (4.8, 1.1, 1.3, 2.0, 4.6, 4.4, 4.6, 4.6, 3.6, None)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the characters and English words the tokens stand for.

    Cohere's English example, tokens ≈ characters / 4.8, read backwards; OpenAI's 100 tokens ≈ 75 words:

    >>> compute({"tokens": 100, "language": 0, "chars_per_token": 4, "words_per_token": 0.75})
    {'characters': 480.0, 'words': 75.0, 'chars_per_token_used': 4.8}
    """
    ratio = _RATIOS_BY_LANGUAGE[int(values["language"])] or values["chars_per_token"]
    return {
        "characters": values["tokens"] * ratio,
        "words": values["tokens"] * values["words_per_token"],
        "chars_per_token_used": ratio,
    }


CALCULATOR = Calculator(
    title=N_("Tokens to words"),
    summary=N_(
        "Turn a token count or a token limit into characters and words, with published characters-per-token "
        "ratios for nine languages and OpenAI's rule of thumb for English.",
    ),
    inputs=(
        InputSpec(
            name="tokens",
            kind=Kind.DECIMAL,
            group=_TEXT,
            label=N_("Tokens"),
            help=N_("A token count, a context window or an output limit: 128000 for a 128K window."),
            default="1000",
            unit=N_("tokens"),
            minimum=Decimal(0),
            maximum=Decimal("1e15"),
            fraction_digits=0,
        ),
        InputSpec(
            name="language",
            kind=Kind.CHOICE,
            group=_TEXT,
            label=N_("Language of the text"),
            help=N_(
                "Cohere's averages for its multilingual tokenizer on Wikipedia text. Portuguese has no published "
                "figure: Spanish's stands in for it. Other tokenizers give other ratios; measure your own and "
                "choose your own ratio for an exact figure.",
            ),
            default="en",
            choices=(
                Choice("en", N_("English (4.8 characters per token)"), number="0"),
                Choice("zh", N_("Chinese (1.1 characters per token)"), number="1"),
                Choice("ja", N_("Japanese (1.3 characters per token)"), number="2"),
                Choice("ko", N_("Korean (2.0 characters per token)"), number="3"),
                Choice("es", N_("Spanish (4.6 characters per token)"), number="4"),
                Choice("fr", N_("French (4.4 characters per token)"), number="5"),
                Choice("de", N_("German (4.6 characters per token)"), number="6"),
                Choice("pt", N_("Portuguese (Spanish's 4.6, a rule of thumb)"), number="7"),
                Choice("ar", N_("Arabic (3.6 characters per token)"), number="8"),
                Choice("own", N_("My own ratio (below)"), number="9"),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="chars_per_token",
            kind=Kind.DECIMAL,
            group=_RATIOS,
            label=N_("Characters per token"),
            help=N_(
                "Used when the language is set to your own ratio: characters divided by tokens on a sample of "
                "your text, counted with your model's tokenizer. OpenAI gives about 4 for English.",
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
            label=N_("English words per token"),
            help=N_(
                "OpenAI's rule of thumb for English: about three quarters of a word per token, so 100 tokens "
                "are about 75 words.",
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
            name="characters",
            label=N_("Characters"),
            unit=NP_("character", "characters", count="characters"),
            # Translators: {tokens} and {characters} are formatted numbers; {chars_per_token_used} the ratio used.
            sentence=NP_(
                "{tokens} tokens at {chars_per_token_used} characters per token are about {characters} character, "
                "spaces and punctuation included.",
                "{tokens} tokens at {chars_per_token_used} characters per token are about {characters} characters, "
                "spaces and punctuation included.",
                count="characters",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="words",
            label=N_("English words"),
            unit=NP_("word", "words", count="words"),
            # Translators: {tokens} and {words} are formatted numbers; {words_per_token} the ratio.
            sentence=NP_(
                "In English, at {words_per_token} words per token, {tokens} tokens are about {words} word: a rule "
                "of thumb, not a count.",
                "In English, at {words_per_token} words per token, {tokens} tokens are about {words} words: a rule "
                "of thumb, not a count.",
                count="words",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"C \approx T \times c", r"W \approx T \times w"),
    related=("dataset-tokens", "context-window-fit", "token-cost"),
)
