"""RAG chunking: the chunks, tokens, cost and raw storage of a corpus split by a fixed-size token window.

A token splitter cuts each document of T tokens into chunks of at most S tokens, neighbours sharing O
(0 ≤ O < S), a new chunk every S - O tokens: LangChain's TokenTextSplitter (`split_text_on_tokens`,
https://github.com/langchain-ai/langchain/blob/master/libs/text-splitters/langchain_text_splitters/base.py) and
LlamaIndex's TokenTextSplitter when each split is one token. OpenAI's file search chunks files the same way, 800
tokens with 400 shared by default (`AutoFileChunkingStrategyParam`, openai-python, generated from OpenAI's API
specification). The window's arithmetic is in `calculators.vocabulary.chunking`:

    n = ⌈(T - O) / (S - O)⌉ (1 when 0 < T ≤ S, 0 when T = 0)
    tokens embedded = T + (n - 1) O, the last chunk T - (n - 1)(S - O) tokens long

D documents make D × n vectors; at a price p per million tokens they cost D (T + (n - 1) O) p / 10⁶, and their
raw vectors take D × n × ⌈d × b⌉ bytes (d dimensions, b bytes a component: 4 float32, 2 float16, 1 int8, 1/8 binary).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, OutputSpec, messages_of
from calculators.vocabulary import chunking, cost, inputs

N_, NP_ = messages_of(__name__)

_CHUNKS = N_("Chunks")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the chunks of a document and of the corpus, the tokens they hold, their cost and raw storage.

    One document of 10,000 tokens in chunks of 1,000 that overlap by 200 makes 13 chunks, 12,400 tokens, a last
    chunk of 400; 13 float32 vectors of 1,536 dimensions take 79,872 bytes:

    >>> result = compute({"documents": 1, "tokens_per_document": 10000, "chunk_tokens": 1000,
    ...                   "overlap_tokens": 200, "dimensions": 1536, "component_bytes": 4,
    ...                   "embedding_price": 0.02, "memory_unit": 1})
    >>> [result[name] for name in ("total_chunks", "tokens_embedded", "last_chunk_tokens", "vector_storage")]
    [13, 12400, 400, 79872.0]
    """
    documents, length = values["documents"], values["tokens_per_document"]
    size, overlap = values["chunk_tokens"], values["overlap_tokens"]
    per_document = chunking.chunks(length, size, overlap)
    embedded = documents * chunking.tokens_embedded(length, size, overlap)
    corpus = documents * length
    price = values["embedding_price"]
    total_chunks = documents * per_document
    return {
        "chunks_per_document": per_document,
        "total_chunks": total_chunks,
        "last_chunk_tokens": chunking.last_chunk_tokens(length, size, overlap),
        "corpus_tokens": corpus,
        "tokens_embedded": embedded,
        "repeated_tokens": embedded - corpus,
        "overlap_share": 100 * (embedded - corpus) / corpus if corpus else 0.0,
        "embedding_cost": cost.per_million(embedded, price),
        "overlap_cost": cost.per_million(embedded - corpus, price),
        # A binary vector's bits pack into whole bytes: 100 dimensions take 13.
        "vector_storage": total_chunks
        * math.ceil(values["dimensions"] * values["component_bytes"])
        / values["memory_unit"],
    }


CALCULATOR = Calculator(
    title=N_("RAG chunking"),
    summary=N_(
        "Count the chunks a token splitter makes of your documents, the tokens the overlap adds, what embedding "
        "them costs and the raw storage of their vectors.",
    ),
    inputs=(
        chunking.DOCUMENTS,
        replace(
            chunking.TOKENS_PER_DOCUMENT,
            help=N_("The average length of a document, counted with the tokenizer the splitter uses."),
        ),
        replace(
            chunking.CHUNK_TOKENS,
            group=_CHUNKS,
            help=N_(
                "The most tokens one chunk holds: the splitter's chunk_size. OpenAI's file search uses 800 by default.",
            ),
            default="800",
        ),
        replace(
            chunking.OVERLAP_TOKENS,
            group=_CHUNKS,
            help=N_(
                "The tokens two neighbouring chunks share: the splitter's chunk_overlap, less than the chunk size. "
                "OpenAI's file search uses 400 by default.",
            ),
            default="400",
        ),
        chunking.DIMENSIONS,
        chunking.COMPONENT_BYTES,
        replace(inputs.MEMORY_UNIT, group=chunking.DIMENSIONS.group),
        cost.price_input(
            "embedding_price",
            N_("Embedding price"),
            N_("What the embedding API charges for a million input tokens."),
            "0.02",
            preset="price.embedding_per_m",
        ),
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="chunks_per_document",
            label=N_("Chunks per document"),
            unit=NP_("chunk", "chunks", count="chunks_per_document"),
            # Translators: {tokens_per_document}, {chunks_per_document} and {chunk_tokens} are formatted numbers.
            sentence=NP_(
                "A document of {tokens_per_document} tokens makes {chunks_per_document} chunk of at most "
                "{chunk_tokens} tokens.",
                "A document of {tokens_per_document} tokens makes {chunks_per_document} chunks of at most "
                "{chunk_tokens} tokens.",
                count="chunks_per_document",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="total_chunks",
            label=N_("Chunks in the corpus"),
            unit=NP_("vector", "vectors", count="total_chunks"),
            # Translators: {total_chunks} is a formatted whole number of chunks.
            sentence=NP_(
                "The corpus makes {total_chunks} chunk: one vector to embed and store.",
                "The corpus makes {total_chunks} chunks: one vector each to embed and store.",
                count="total_chunks",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="last_chunk_tokens",
            label=N_("Last chunk"),
            unit=NP_("token", "tokens", count="last_chunk_tokens"),
            # Translators: {last_chunk_tokens} and {chunk_tokens} are formatted numbers of tokens.
            sentence=N_(
                "The last chunk of each document holds what is left: {last_chunk_tokens} of the {chunk_tokens} "
                "tokens a chunk may hold.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="tokens_embedded",
            label=N_("Tokens embedded"),
            unit=NP_("token", "tokens", count="tokens_embedded"),
            # Translators: {tokens_embedded} and {corpus_tokens} are formatted numbers of tokens.
            sentence=N_(
                "The chunks hold {tokens_embedded} tokens in all: the {corpus_tokens} tokens of the corpus and the "
                "overlaps.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="repeated_tokens",
            label=N_("Tokens embedded again"),
            unit=NP_("token", "tokens", count="repeated_tokens"),
            # Translators: {repeated_tokens} and {overlap_tokens} are formatted numbers of tokens.
            sentence=N_(
                "{repeated_tokens} tokens are embedded again: each chunk after a document's first begins with the "
                "{overlap_tokens} tokens that end the chunk before it.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="overlap_share",
            label=N_("Added by the overlap"),
            unit=N_("%"),
            # Translators: {overlap_share} is a formatted percentage (the % sign follows the placeholder).
            sentence=N_("The overlap adds {overlap_share}% to the tokens of the corpus."),
            fraction_digits=1,
        ),
        OutputSpec(
            name="embedding_cost",
            label=N_("Cost of embedding the chunks"),
            # Translators: {tokens_embedded} is a formatted number of tokens; {embedding_price} and
            # {embedding_cost} are amounts of money with their currency code.
            sentence=N_(
                "Embedding {tokens_embedded} tokens at {embedding_price} per million tokens costs {embedding_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="overlap_cost",
            label=N_("Cost of the overlap"),
            # Translators: {overlap_cost} and {embedding_cost} are amounts of money with their currency code;
            # {repeated_tokens} is a formatted number of tokens.
            sentence=N_(
                "The {repeated_tokens} tokens of the overlaps cost {overlap_cost} of the {embedding_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="vector_storage",
            label=N_("Raw vector storage"),
            unit_choice="memory_unit",
            # Translators: {dimensions} is a formatted number; {component_bytes_label} names the
            # component type (float32 (4 bytes)...); {vector_storage} is a size followed by its unit
            # ({memory_unit_label}, GB or GiB).
            sentence=N_(
                "At {dimensions} dimensions a vector, each stored as {component_bytes_label}, the chunks' vectors "
                "take {vector_storage} {memory_unit_label} before any index or metadata.",
            ),
            fraction_digits=9,
        ),
    ),
    compute=compute,
    updated="2026-12-03",
    formulas=(
        r"n = \left\lceil \frac{T - O}{S - O} \right\rceil, \quad E = T + (n - 1)\,O, \quad "
        r"L = T - (n - 1)\,(S - O)",
        r"C = \frac{D\,E\,p}{10^6}, \quad M = D\,n\,d\,b",
    ),
    related=("embedding-cost", "vector-db-size", "vector-db-cost", "cosine-similarity"),
    rules=(chunking.OVERLAP_RULE,),
)
