"""Vector database size: pgvector's and FAISS's published bytes per vector, raw arrays, metadata and copies."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.vector_db_size import CALCULATOR as SIZE
from tests.helpers import results_of

_result = results_of(SIZE)


@pytest.mark.parametrize(
    ("dimensions", "component", "expected"),
    [
        # pgvector README: "Each vector takes 4 * dimensions + 8 bytes of storage"; halfvec "2 * dimensions + 8".
        ("1536", "float32", 4 * 1536 + 8),
        ("1536", "float16", 2 * 1536 + 8),
        ("16000", "float32", 64008),  # pgvector's largest vector type, 16,000 dimensions
    ],
)
def test_pgvector_bytes_per_vector(dimensions: str, component: str, expected: int) -> None:
    assert _result(dimensions=dimensions, component_bytes=component, layout="pgvector")["bytes_per_vector"] == expected


def test_faiss_hnsw_flat_memory_per_vector() -> None:
    # FAISS wiki, Guidelines to choose an index: "(d * 4 + M * 2 * 4) bytes per vector", float32 whatever the input.
    for component in ("float32", "int8"):
        result = _result(dimensions="768", hnsw_m="32", layout="faiss-hnsw", component_bytes=component)
        assert result["bytes_per_vector"] == 768 * 4 + 32 * 2 * 4


def test_a_million_vectors_in_gb_and_gib() -> None:
    assert _result(layout="raw")["total_size"] == pytest.approx(6.144)
    assert _result(layout="raw", memory_unit="gib")["total_size"] == pytest.approx(1536 * 4e6 / 2**30)
    assert _result(layout="raw", component_bytes="binary")["total_size"] == pytest.approx(0.192)


def test_metadata_and_copies_add_up() -> None:
    result = _result(layout="raw", metadata_bytes="1000", replicas="3", vectors="2000")
    assert result["bytes_per_record"] == 6144 + 1000
    assert result["total_size"] == pytest.approx(2000 * 7144 * 3 / 1e9)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("dimensions", "0", Problem("dimensions", "too_small", Decimal(1))),
        ("vectors", "many", Problem("vectors", "not_a_number")),
        ("hnsw_m", "1", Problem("hnsw_m", "too_small", Decimal(2))),
        ("layout", "qdrant", Problem("layout", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(SIZE, {**SIZE.defaults(), name: raw}).problems == (problem,)


def test_pgvector_s_own_types_and_limits_are_rules() -> None:
    # pgvector stores vector (float32), halfvec (float16) and bit; vector and halfvec take up to 16,000 dimensions.
    int8 = evaluate(SIZE, {**SIZE.defaults(), "layout": "pgvector", "component_bytes": "int8"})
    assert int8.problems == (Problem("component_bytes", "rule"),)
    wide = evaluate(SIZE, {**SIZE.defaults(), "layout": "pgvector", "dimensions": "16001"})
    assert wide.problems == (Problem("dimensions", "rule"),)
    assert _result(layout="pgvector", component_bytes="binary", dimensions="64000")["bytes_per_vector"] == 8008
    assert _result(layout="raw", component_bytes="int8", dimensions="20000")["bytes_per_vector"] == 20000


@pytest.mark.parametrize("dimensions", [1, 7, 100, 1023, 1025])
def test_a_binary_vector_packs_into_whole_bytes(dimensions: int) -> None:
    # Bits are stored in whole bytes: what Python's own packing of that many bits takes, as numpy.packbits and
    # PostgreSQL's bit type (ceil(bits / 8) bytes, plus pgvector's 8-byte header) store them.
    packed = len(int("1" * dimensions, 2).to_bytes((dimensions + 7) // 8, "big"))
    raw = _result(layout="raw", component_bytes="binary", dimensions=str(dimensions))
    assert raw["bytes_per_vector"] == packed
    bit = _result(layout="pgvector", component_bytes="binary", dimensions=str(dimensions))
    assert bit["bytes_per_vector"] == packed + 8
