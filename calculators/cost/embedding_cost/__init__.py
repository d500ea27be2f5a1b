"""Embedding cost: what embedding a corpus costs, with or without overlapping chunks, at a price per million tokens.

Embedding APIs bill the input tokens only (OpenAI's model pages, text-embedding-3-small "$0.02 / 1M tokens",
https://developers.openai.com/api/docs/models/text-embedding-3-small). A corpus of D documents of T tokens is
D × T tokens when each document is embedded whole. Split into chunks of S tokens that overlap by O (the sliding
window of LangChain's and LlamaIndex's splitters), a document makes n = ⌈(T - O) / (S - O)⌉ chunks (1 when T ≤ S)
and the overlaps are embedded twice (the window's arithmetic is in `calculators.vocabulary.chunking`):

    tokens = D × (T + (n - 1) × O)
    cost   = tokens × p × (1 - batch discount) / 10⁶
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import chunking, cost, units

N_, NP_ = messages_of(__name__)

CHUNKING = InputSpec(
    name="chunking",
    kind=Kind.CHOICE,
    group=chunking.CORPUS,
    label=N_("Embed"),
    help=N_(
        "Each document whole (documents × tokens), or split into overlapping chunks as retrieval pipelines do: "
        "the overlap is embedded twice.",
    ),
    default="chunks",
    choices=(
        Choice("whole", N_("Whole documents"), number="0"),
        Choice("chunks", N_("Overlapping chunks"), number="1"),
    ),
    fraction_digits=0,
)
PRICE = cost.price_input(
    "embedding_price",
    N_("Embedding price"),
    N_("What the API charges for a million input tokens; embeddings have no output tokens."),
    "0.02",
    preset="price.embedding_per_m",
)
BATCH = InputSpec(
    name="batch",
    kind=Kind.CHOICE,
    group=cost.PRICES,
    label=N_("Through the batch API"),
    help=N_(
        "Whether the corpus goes through the vendor's batch API, answered within a day at the batch discount.",
    ),
    default="0",
    choices=units.YES_NO,
    fraction_digits=0,
)
# Filled by hand, not from a preset: a preset here would also bring the language-model price menu onto the page.
BATCH_DISCOUNT = replace(cost.BATCH_DISCOUNT, preset=None)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the tokens embedded, their cost, and the share the overlap adds.

    50 million tokens embedded whole at 0.02 per million cost 1.00, and 0.50 at a 50% batch discount:

    >>> corpus = {"documents": 100000, "tokens_per_document": 500, "chunking": 0, "chunk_tokens": 512,
    ...           "overlap_tokens": 64, "embedding_price": 0.02, "batch_discount": 50}
    >>> round(compute({**corpus, "batch": 0})["total_cost"], 6), round(compute({**corpus, "batch": 1})["total_cost"], 6)
    (1.0, 0.5)
    """
    documents, length = values["documents"], values["tokens_per_document"]
    if values["chunking"]:
        size, overlap = values["chunk_tokens"], values["overlap_tokens"]
        per_document = chunking.chunks(length, size, overlap)
        embedded = chunking.tokens_embedded(length, size, overlap)
    else:
        per_document, embedded = (1 if length > 0 else 0), length
    tokens = documents * embedded
    discount = values["batch_discount"] / 100 if values["batch"] else 0.0
    total = cost.per_million(tokens, values["embedding_price"]) * (1 - discount)
    corpus = documents * length
    return {
        "total_tokens": tokens,
        "total_chunks": documents * per_document,
        "total_cost": total,
        "overlap_share": 100 * (tokens - corpus) / corpus if corpus else 0.0,
    }


CALCULATOR = Calculator(
    title=N_("Embedding cost"),
    summary=N_(
        "Price embedding a corpus from its documents and their tokens, whole or in overlapping chunks, at the "
        "vendor's price per million tokens, with the batch discount.",
    ),
    inputs=(
        chunking.DOCUMENTS,
        chunking.TOKENS_PER_DOCUMENT,
        CHUNKING,
        chunking.CHUNK_TOKENS,
        chunking.OVERLAP_TOKENS,
        PRICE,
        BATCH,
        BATCH_DISCOUNT,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="total_cost",
            label=N_("Cost of embedding the corpus"),
            # Translators: {total_tokens} is a formatted number of tokens; {embedding_price} and {total_cost} are
            # amounts of money with their currency code.
            sentence=N_(
                "Embedding {total_tokens} tokens at {embedding_price} per million tokens costs {total_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="total_chunks",
            label=N_("Vectors stored"),
            unit=N_("vectors"),
            # Translators: {total_chunks} is a formatted number of vectors (one per chunk or document).
            sentence=N_("The corpus makes {total_chunks} vectors, one per chunk or document."),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="overlap_share",
            label=N_("Added by the overlap"),
            unit=N_("%"),
            # Translators: {overlap_share} is a formatted percentage (the % sign follows the placeholder).
            sentence=N_("The overlap between chunks adds {overlap_share}% to the tokens embedded."),
            fraction_digits=1,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"C = \frac{D\,\bigl(T + (n - 1)\,O\bigr)\,p\,(1 - b)}{10^6}, \quad "
        r"n = \left\lceil \frac{T - O}{S - O} \right\rceil",
    ),
    related=("rag-chunking", "vector-db-size", "vector-db-cost", "token-cost"),
    rules=(chunking.OVERLAP_RULE,),
)
