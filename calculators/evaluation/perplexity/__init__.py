"""Perplexity: a language model's mean cross-entropy loss read as perplexity, per token and per word.

Perplexity is the exponential of the mean negative log-likelihood per token (Hugging Face Transformers,
"Perplexity of fixed-length models", https://huggingface.co/docs/transformers/perplexity): PPL = e^H with H in
nats, 2^H with H in bits (Jurafsky and Martin, Speech and Language Processing, 3rd ed., ch. 3,
https://web.stanford.edu/~jurafsky/slp3/3.pdf, whose ten equally likely digits have perplexity 10). The same text
holds fewer words than tokens, so a word carries the loss of all its tokens: PPL_word = e^(H · tokens per word).
Bits per byte divide the bits per token by the bytes a token covers (Gao et al. 2020, The Pile,
https://arxiv.org/abs/2101.00027, §5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of

N_, NP_ = messages_of(__name__)

_LOSS = N_("Loss")
_TEXT = N_("Text")
_NATS, _BITS = 0, 1


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the perplexity per token and per word, and the loss in nats, in bits and in bits per byte.

    Jurafsky and Martin's ten equally likely digits: a loss of log2 10 bits per digit is a perplexity of 10.

    >>> result = compute({"loss": math.log2(10), "loss_unit": 1, "tokens_per_word": 1, "bytes_per_token": 1})
    >>> round(result["perplexity"], 9), round(result["loss_nats"], 6)
    (10.0, 2.302585)
    """
    nats = values["loss"] * (math.log(2) if int(values["loss_unit"]) == _BITS else 1)
    bits = nats / math.log(2)
    return {
        "perplexity": math.exp(nats),
        "word_perplexity": math.exp(nats * values["tokens_per_word"]),
        "loss_nats": nats,
        "loss_bits": bits,
        "bits_per_byte": bits / values["bytes_per_token"],
    }


CALCULATOR = Calculator(
    title=N_("Perplexity"),
    summary=N_(
        "Turn a language model's mean cross-entropy loss, in nats or in bits, into perplexity per token and per "
        "word, and into bits per byte.",
    ),
    inputs=(
        InputSpec(
            name="loss",
            kind=Kind.DECIMAL,
            group=_LOSS,
            label=N_("Mean cross-entropy loss per token"),
            help=N_(
                "The average negative log-likelihood of each token of the evaluation text, as the training or "
                "evaluation loop reports it. PyTorch and Hugging Face report it in nats.",
            ),
            default="2.5",
            minimum=Decimal(0),
            maximum=Decimal(100),
            fraction_digits=6,
        ),
        InputSpec(
            name="loss_unit",
            kind=Kind.CHOICE,
            group=_LOSS,
            label=N_("Unit of the loss"),
            help=N_(
                "Nats when the loss uses the natural logarithm (the usual case), bits when it uses base 2.",
            ),
            default="nats",
            choices=(
                Choice("nats", N_("Nats (natural logarithm)"), number=str(_NATS)),
                Choice("bits", N_("Bits (base-2 logarithm)"), number=str(_BITS)),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="tokens_per_word",
            kind=Kind.DECIMAL,
            group=_TEXT,
            label=N_("Tokens per word"),
            help=N_(
                "How many tokens the tokenizer makes of a word of the evaluation text, on average: about 1.3 for "
                "English with a modern tokenizer. Count both on your own text for a fair figure.",
            ),
            default="1.3",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=4,
        ),
        InputSpec(
            name="bytes_per_token",
            kind=Kind.DECIMAL,
            group=_TEXT,
            label=N_("Bytes of UTF-8 text per token"),
            help=N_(
                "The evaluation text's size in UTF-8 bytes divided by its number of tokens: about 4 for English.",
            ),
            default="4",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1000),
            fraction_digits=4,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="perplexity",
            label=N_("Perplexity per token"),
            # Translators: {perplexity} and {loss_nats} are formatted numbers.
            sentence=N_(
                "A mean loss of {loss_nats} nats per token is a perplexity of {perplexity}: the model is as unsure "
                "of each next token as if it chose among {perplexity} equally likely ones.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="word_perplexity",
            label=N_("Perplexity per word"),
            # Translators: {word_perplexity} is a formatted number; {tokens_per_word} the ratio as typed.
            sentence=N_(
                "At {tokens_per_word} tokens per word, a word carries the loss of all its tokens: the perplexity "
                "per word is {word_perplexity}.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="loss_nats",
            label=N_("Loss in nats per token"),
            # Translators: {loss_nats} and {loss_bits} are formatted numbers.
            sentence=N_("The loss is {loss_nats} nats, or {loss_bits} bits, per token."),
            fraction_digits=4,
        ),
        OutputSpec(
            name="bits_per_byte",
            label=N_("Bits per byte"),
            # Translators: {bits_per_byte} is a formatted number; {bytes_per_token} the ratio as typed.
            sentence=N_(
                "At {bytes_per_token} bytes per token, that is {bits_per_byte} bits per byte of text, a figure "
                "that does not depend on the tokenizer.",
            ),
            fraction_digits=4,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"\mathrm{PPL} = e^{H_{\mathrm{nat}}} = 2^{H_{\mathrm{bit}}}",
        r"\mathrm{PPL}_{\mathrm{word}} = e^{H_{\mathrm{nat}} \cdot t_w}, \quad "
        r"\mathrm{BPB} = \frac{H_{\mathrm{nat}}}{b \,\ln 2}",
    ),
    related=("llm-eval-sample-size", "pass-at-k", "ab-test-significance"),
)
