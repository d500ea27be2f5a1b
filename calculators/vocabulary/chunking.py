"""The sliding window of a token splitter, said once for the calculators that chunk a corpus.

A splitter that cuts a text of T tokens into chunks of S tokens, neighbours sharing O (0 ≤ O < S), starts a
chunk every S - O tokens until a chunk reaches the end of the text: LangChain's `split_text_on_tokens`
(langchain_text_splitters/base.py) walks exactly this window, and LlamaIndex's TokenTextSplitter does when each
split is one token. It makes

    n = 0 when T = 0, 1 when T ≤ S, and ⌈(T - O) / (S - O)⌉ otherwise

chunks, the last one T - (n - 1)(S - O) tokens long (the short tail), and sends T + (n - 1) O tokens to the
embedding model: every overlap is embedded again.

The inputs that describe such a corpus and its vectors are declared here too, once, in the shared gettext
context "input": the documents, their tokens, the window, the overlap rule, the embedding's dimensions and
the types a component is stored as.
"""

from __future__ import annotations

import math
from decimal import Decimal

from calculators.kernel.spec import N_, Choice, InputSpec, Kind, Rule

__all__ = [
    "CHUNK_TOKENS",
    "COMPONENT_BYTES",
    "CORPUS",
    "DIMENSIONS",
    "DOCUMENTS",
    "OVERLAP_RULE",
    "OVERLAP_TOKENS",
    "TOKENS_PER_DOCUMENT",
    "chunks",
    "last_chunk_tokens",
    "tokens_embedded",
]

CORPUS = N_("input", "Corpus")

DOCUMENTS = InputSpec(
    name="documents",
    kind=Kind.INTEGER,
    group=CORPUS,
    label=N_("input", "Number of documents"),
    help=N_("input", "How many documents, pages or records to embed."),
    default="10000",
    unit=N_("input", "documents"),
    minimum=Decimal(0),
    maximum=Decimal(100000000000),
    fraction_digits=0,
)
TOKENS_PER_DOCUMENT = InputSpec(
    name="tokens_per_document",
    kind=Kind.INTEGER,
    group=CORPUS,
    label=N_("input", "Tokens per document"),
    help=N_("input", "The average length of a document in the embedding model's tokens."),
    default="2000",
    unit=N_("input", "tokens"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000),
    fraction_digits=0,
)
CHUNK_TOKENS = InputSpec(
    name="chunk_tokens",
    kind=Kind.INTEGER,
    group=CORPUS,
    label=N_("input", "Chunk size"),
    help=N_("input", "The tokens in one chunk (the splitter's chunk_size)."),
    default="512",
    unit=N_("input", "tokens"),
    minimum=Decimal(1),
    maximum=Decimal(1000000),
    fraction_digits=0,
)
OVERLAP_TOKENS = InputSpec(
    name="overlap_tokens",
    kind=Kind.INTEGER,
    group=CORPUS,
    label=N_("input", "Chunk overlap"),
    help=N_("input", "The tokens two neighbouring chunks share (chunk_overlap); less than the chunk size."),
    default="64",
    unit=N_("input", "tokens"),
    minimum=Decimal(0),
    maximum=Decimal(1000000),
    fraction_digits=0,
)
OVERLAP_RULE = Rule(
    "overlap_tokens",
    lambda values: values["overlap_tokens"] < values["chunk_tokens"],
    # Translators: {overlap_tokens} and {chunk_tokens} are numbers as the reader typed them.
    N_("input", "The overlap ({overlap_tokens}) must be smaller than the chunk size ({chunk_tokens})."),
)
"""A window must move forward: LangChain's splitters refuse an overlap larger than the chunk, and one as large
would never reach the end."""

DIMENSIONS = InputSpec(
    name="dimensions",
    kind=Kind.INTEGER,
    group=N_("input", "Vectors"),
    label=N_("input", "Dimensions"),
    help=N_(
        "input",
        "The length of each embedding: 1,536 for OpenAI's text-embedding-3-small, 3,072 for "
        "text-embedding-3-large, 768 or 1,024 for many open models.",
    ),
    default="1536",
    minimum=Decimal(1),
    maximum=Decimal(100000),
    fraction_digits=0,
)
COMPONENT_BYTES = InputSpec(
    name="component_bytes",
    kind=Kind.CHOICE,
    group=DIMENSIONS.group,
    label=N_("input", "Each component stored as"),
    help=N_("input", "float32 takes 4 bytes a dimension, float16 2, int8 1, and a binary vector one bit."),
    default="float32",
    choices=(
        Choice("float32", N_("input", "float32 (4 bytes)"), number="4"),
        Choice("float16", N_("input", "float16 (2 bytes)"), number="2"),
        Choice("int8", N_("input", "int8 (1 byte)"), number="1"),
        Choice("binary", N_("input", "Binary (1 bit)"), number="0.125"),
    ),
    fraction_digits=0,
)
"""How a vector's components are stored: the formula receives the bytes a component takes."""


def chunks(tokens: float, size: float, overlap: float) -> int:
    """Return the chunks a sliding window of `size` tokens, `overlap` shared, makes of `tokens`.

    >>> chunks(10000, 1000, 200), chunks(1000, 1000, 100), chunks(1001, 1000, 100), chunks(0, 512, 50)
    (13, 1, 2, 0)
    >>> chunks(5000, 512, 50), chunks(12000, 800, 0)
    (11, 15)
    """
    if tokens <= 0:
        return 0
    if tokens <= size:
        return 1
    return math.ceil((tokens - overlap) / (size - overlap))


def tokens_embedded(tokens: float, size: float, overlap: float) -> float:
    """Return the tokens the chunks hold together: the text once, and every overlap once more.

    10,000 tokens in chunks of 1,000 that overlap by 200 make 13 chunks and 12,400 tokens:

    >>> tokens_embedded(10000, 1000, 200), tokens_embedded(800, 1000, 200), tokens_embedded(0, 1000, 200)
    (12400, 800, 0)
    """
    return tokens + max(chunks(tokens, size, overlap) - 1, 0) * overlap


def last_chunk_tokens(tokens: float, size: float, overlap: float) -> float:
    """Return the length of the last chunk, which holds what is left after the last full step.

    >>> last_chunk_tokens(10000, 1000, 200), last_chunk_tokens(1001, 1000, 100), last_chunk_tokens(0, 1000, 200)
    (400, 101, 0)
    """
    count = chunks(tokens, size, overlap)
    return tokens - (count - 1) * (size - overlap) if count else 0
