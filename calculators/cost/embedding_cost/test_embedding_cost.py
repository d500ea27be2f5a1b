"""Embedding cost: prices per million tokens, whole documents or overlapping chunks, and the batch discount."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.embedding_cost import CALCULATOR as EMBEDDING_COST
from calculators.vocabulary.chunking import chunks
from tests.helpers import results_of

_result = results_of(EMBEDDING_COST)


@pytest.mark.parametrize(
    ("price", "printed"),
    [
        ("0.02", 0.02),  # OpenAI text-embedding-3-small model page: $0.02 per 1M tokens
        ("0.13", 0.13),  # text-embedding-3-large: $0.13 per 1M tokens
    ],
)
def test_a_million_tokens_cost_the_printed_price(price: str, printed: float) -> None:
    result = _result(documents="1", tokens_per_document="1000000", chunking="whole", embedding_price=price)
    assert result["total_cost"] == pytest.approx(printed)


def test_the_batch_api_takes_its_discount() -> None:
    whole = {"documents": "100000", "tokens_per_document": "500", "chunking": "whole", "embedding_price": "0.02"}
    assert _result(**whole)["total_cost"] == pytest.approx(1.0)
    assert _result(**whole, batch="1", batch_discount="50")["total_cost"] == pytest.approx(0.5)


def _window(tokens: int, size: int, overlap: int) -> list[range]:
    """The chunks a sliding window cuts, walked one by one as a splitter does."""
    windows, start = [], 0
    while start < tokens:
        windows.append(range(start, min(start + size, tokens)))
        if start + size >= tokens:
            break
        start += size - overlap
    return windows


@pytest.mark.parametrize(
    ("tokens", "size", "overlap"),
    [(10000, 1000, 200), (1000, 1000, 100), (1001, 1000, 100), (5000, 512, 50), (12000, 800, 0), (0, 512, 64)],
)
def test_chunks_match_a_sliding_window(tokens: int, size: int, overlap: int) -> None:
    windows = _window(tokens, size, overlap)
    assert chunks(tokens, size, overlap) == len(windows)
    result = _result(
        documents="1",
        tokens_per_document=str(tokens),
        chunk_tokens=str(size),
        overlap_tokens=str(overlap),
    )
    assert result["total_tokens"] == sum(len(window) for window in windows)


def test_the_overlap_share() -> None:
    # 10,000 tokens in chunks of 1,000 overlapping by 200: 13 chunks, 12,400 tokens, 24% more.
    result = _result(documents="1", tokens_per_document="10000", chunk_tokens="1000", overlap_tokens="200")
    assert result["total_chunks"] == 13
    assert result["overlap_share"] == pytest.approx(24)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("documents", "-1", Problem("documents", "too_small", Decimal(0))),
        ("chunk_tokens", "0", Problem("chunk_tokens", "too_small", Decimal(1))),
        ("overlap_tokens", "512", Problem("overlap_tokens", "rule")),
        ("batch", "maybe", Problem("batch", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(EMBEDDING_COST, {**EMBEDDING_COST.defaults(), name: raw})
    assert result.problems == (problem,)
