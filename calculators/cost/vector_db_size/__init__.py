"""Vector database size: the bytes a collection of embeddings takes, raw, in pgvector, or in a FAISS HNSW index.

Three published layouts, which the reader chooses between:

- a raw array: n × ⌈d × b⌉ bytes, b the bytes of one component (4 for float32, 2 for float16, 1 for int8, 1/8
  for binary vectors, whose bits pack into whole bytes);
- pgvector's column types (https://github.com/pgvector/pgvector, README "Vector Type" / "Half-Precision Vectors"):
  "Each vector takes 4 * dimensions + 8 bytes of storage", each halfvec 2 * dimensions + 8; an index on them is
  stored beside the table and is not counted here;
- FAISS IndexHNSWFlat (https://github.com/facebookresearch/faiss/wiki/Guidelines-to-choose-an-index):
  "The memory usage is (d * 4 + M * 2 * 4) bytes per vector": the float32 vector and 2M neighbour links of four
  bytes on the base layer of the graph.

Metadata (ids, text, filters) and replicas are added on top.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import chunking, inputs, units

N_, NP_ = messages_of(__name__)

_VECTORS = chunking.DIMENSIONS.group
_STORAGE = N_("Storage")

_RAW, _PGVECTOR, _HNSW = 0, 1, 2
_PGVECTOR_HEADER = 8  # bytes each pgvector value carries besides its components
_HNSW_LINK = 4  # bytes per neighbour id in FAISS's HNSW graph
_INT8 = 1  # the int8 choice's bytes: pgvector has no such type
_PGVECTOR_MAX_DIMENSIONS = 16000  # vector and halfvec, pgvector README


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the bytes of one vector in the chosen layout, and the whole collection in the memory unit.

    pgvector's vector(1536) takes 4 × 1536 + 8 = 6,152 bytes, a halfvec(1536) 2 × 1536 + 8 = 3,080; FAISS
    IndexHNSWFlat with M = 16 keeps 1536 × 4 + 16 × 2 × 4 = 6,272 bytes a vector:

    >>> base = {"vectors": 1e6, "metadata_bytes": 0, "replicas": 1, "hnsw_m": 16, "memory_unit": 1e9}
    >>> compute({**base, "dimensions": 1536.0, "component_bytes": 4.0, "layout": 1})["bytes_per_vector"]
    6152.0
    >>> compute({**base, "dimensions": 1536.0, "component_bytes": 2.0, "layout": 1})["bytes_per_vector"]
    3080.0
    >>> compute({**base, "dimensions": 1536, "component_bytes": 4, "layout": 2})["total_size"]
    6.272
    """
    layout = int(values["layout"])
    dimensions = values["dimensions"]
    if layout == _HNSW:
        # FAISS's flat HNSW index stores float32 components whatever the embedding was produced as.
        per_vector = dimensions * 4 + values["hnsw_m"] * 2 * _HNSW_LINK
    else:
        # Whole bytes: a binary vector of 100 dimensions packs into 13 (numpy.packbits; PostgreSQL's bit type
        # stores ceil(bits / 8) bytes, VARBITBYTES), never 12.5.
        per_vector = float(math.ceil(dimensions * values["component_bytes"]))
        if layout == _PGVECTOR:
            per_vector += _PGVECTOR_HEADER
    per_record = per_vector + values["metadata_bytes"]
    total = values["vectors"] * per_record * values["replicas"]
    return {
        "bytes_per_vector": per_vector,
        "bytes_per_record": per_record,
        "total_size": total / values["memory_unit"],
    }


CALCULATOR = Calculator(
    title=N_("Vector database size"),
    summary=N_(
        "Estimate the storage or memory an embedding collection takes: raw arrays, pgvector columns or a FAISS "
        "HNSW index, with metadata and replicas.",
    ),
    inputs=(
        InputSpec(
            name="vectors",
            kind=Kind.DECIMAL,
            group=_VECTORS,
            label=N_("Number of vectors"),
            help=N_("How many embeddings the collection holds: one per chunk of every document."),
            default="1000000",
            unit=N_("vectors"),
            minimum=Decimal(0),
            maximum=Decimal("1e13"),
            fraction_digits=0,
        ),
        chunking.DIMENSIONS,
        replace(
            chunking.COMPONENT_BYTES,
            group=_STORAGE,
            help=N_(
                "float32 takes 4 bytes a dimension (pgvector's vector), float16 2 (halfvec), int8 1, and a "
                "binary vector one bit (pgvector's bit). FAISS's HNSW index always stores float32.",
            ),
        ),
        InputSpec(
            name="layout",
            kind=Kind.CHOICE,
            group=_STORAGE,
            label=N_("Stored in"),
            help=N_(
                "A raw array counts the components only. pgvector adds 8 bytes to each value; its index is "
                "stored beside the table and is extra. FAISS IndexHNSWFlat keeps float32 vectors and a graph "
                "of 2 × M links of 4 bytes each in memory.",
            ),
            default="raw",
            choices=(
                Choice("raw", N_("Raw array"), number="0"),
                Choice("pgvector", N_("pgvector column"), number="1"),
                Choice("faiss-hnsw", N_("FAISS HNSW index (IndexHNSWFlat)"), number="2"),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="hnsw_m",
            kind=Kind.INTEGER,
            group=_STORAGE,
            label=N_("HNSW links per node (M)"),
            help=N_(
                "The M of the HNSW graph, used by the FAISS layout only: FAISS suggests 4 to 64; 16 and 32 are "
                "common. The base layer keeps 2 × M links a vector.",
            ),
            default="32",
            minimum=Decimal(2),
            maximum=Decimal(512),
            fraction_digits=0,
            advanced=True,
        ),
        InputSpec(
            name="metadata_bytes",
            kind=Kind.DECIMAL,
            group=_STORAGE,
            label=N_("Metadata per vector"),
            help=N_(
                "Bytes stored with each vector: its id, the chunk's text, filter fields. 0 counts the vectors alone.",
            ),
            default="0",
            unit=units.BYTES,
            minimum=Decimal(0),
            maximum=Decimal(100000000),
            fraction_digits=0,
            advanced=True,
        ),
        InputSpec(
            name="replicas",
            kind=Kind.INTEGER,
            group=_STORAGE,
            label=N_("Copies"),
            help=N_(
                "How many copies of the collection are kept: replicas for availability multiply the size.",
            ),
            default="1",
            minimum=Decimal(1),
            maximum=Decimal(1000),
            fraction_digits=0,
            advanced=True,
        ),
        replace(inputs.MEMORY_UNIT, group=_STORAGE),
    ),
    outputs=(
        OutputSpec(
            name="total_size",
            label=N_("Total size"),
            unit_choice="memory_unit",
            # Translators: {total_size} is a formatted size followed by its unit ({memory_unit_label}, GB or GiB);
            # {vectors}, {bytes_per_record} and {replicas} are formatted numbers.
            sentence=N_(
                "{vectors} vectors of {bytes_per_record} bytes each take {total_size} {memory_unit_label} "
                "(copies: {replicas}).",
            ),
        ),
        OutputSpec(
            name="bytes_per_vector",
            label=N_("Bytes per vector"),
            unit=N_("bytes"),
            # Translators: {bytes_per_vector} and {dimensions} are formatted numbers; {layout_label} names the
            # layout (Raw array, pgvector column, FAISS HNSW index...).
            sentence=N_(
                "{layout_label}: one vector of {dimensions} dimensions takes {bytes_per_vector} bytes, metadata aside.",
            ),
            fraction_digits=3,
            exact=True,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"S = n \times (d \times b + h + m) \times r",
        r"S_{\mathrm{HNSW}} = n \times (4d + 8M)",
    ),
    related=("vector-db-cost", "embedding-cost", "rag-chunking"),
    rules=(
        Rule(
            "component_bytes",
            lambda values: int(values["layout"]) != _PGVECTOR or values["component_bytes"] != _INT8,
            N_(
                "pgvector has no int8 type: choose float32 (vector), float16 (halfvec) or binary (bit).",
            ),
        ),
        Rule(
            "dimensions",
            lambda values: (
                int(values["layout"]) != _PGVECTOR
                or values["component_bytes"] < _INT8
                or values["dimensions"] <= _PGVECTOR_MAX_DIMENSIONS
            ),
            # Translators: {dimensions} is the number as the reader typed it.
            N_(
                "pgvector's vector and halfvec hold at most 16,000 dimensions, not {dimensions}.",
            ),
        ),
    ),
)
