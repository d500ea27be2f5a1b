"""RAG chunking: the window LangChain's and LlamaIndex's token splitters walk, chunk by chunk, against the formula."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.retrieval.rag_chunking import CALCULATOR as RAG
from tests.helpers import results_of

_result = results_of(RAG)


def _langchain(input_ids: list[int], tokens_per_chunk: int, chunk_overlap: int) -> list[list[int]]:
    """LangChain's `split_text_on_tokens`, decoding left out: the token ids of each chunk.

    Ported from langchain_text_splitters/base.py (libs/text-splitters in langchain-ai/langchain), the loop
    TokenTextSplitter.split_text runs on the ids its tokenizer returns.
    """
    splits: list[list[int]] = []
    start_idx = 0
    cur_idx = min(start_idx + tokens_per_chunk, len(input_ids))
    chunk_ids = input_ids[start_idx:cur_idx]
    while start_idx < len(input_ids):
        splits.append(chunk_ids)
        if cur_idx == len(input_ids):
            break
        start_idx += tokens_per_chunk - chunk_overlap
        cur_idx = min(start_idx + tokens_per_chunk, len(input_ids))
        chunk_ids = input_ids[start_idx:cur_idx]
    return splits


def _llamaindex(splits: list[int], chunk_size: int, chunk_overlap: int) -> list[list[int]]:
    """LlamaIndex's TokenTextSplitter._merge on splits of one token each: the token ids of each chunk.

    Ported from llama-index-core/llama_index/core/node_parser/text/token.py (run-llama/llama_index): add splits
    until the next would pass the chunk size, close the chunk, then drop splits from its front until what is left
    is no longer than the overlap and leaves room for the next split.
    """
    chunks: list[list[int]] = []
    cur_chunk: list[int] = []
    cur_len = 0
    for split in splits:
        split_len = 1
        if cur_len + split_len > chunk_size:
            if cur_chunk:
                chunks.append(list(cur_chunk))
            while cur_len > chunk_overlap or cur_len + split_len > chunk_size:
                cur_chunk.pop(0)
                cur_len -= 1
        cur_chunk.append(split)
        cur_len += split_len
    if cur_chunk:
        chunks.append(cur_chunk)
    return chunks


GRID = [
    (tokens, size, overlap)
    for tokens in (0, 1, 99, 100, 101, 250, 799, 800, 801, 1000, 1001, 2000, 3333)
    for size, overlap in ((100, 0), (100, 20), (100, 50), (100, 99), (800, 400), (1000, 200), (512, 64), (7, 3))
]


@pytest.mark.parametrize(("tokens", "size", "overlap"), GRID)
def test_the_splitters_own_loops_give_the_same_chunks(tokens: int, size: int, overlap: int) -> None:
    windows = _langchain(list(range(tokens)), size, overlap)
    if tokens:  # LlamaIndex returns the empty text itself as one chunk before it merges anything.
        assert _llamaindex(list(range(tokens)), size, overlap) == windows
    result = _result(
        documents="1", tokens_per_document=str(tokens), chunk_tokens=str(size), overlap_tokens=str(overlap)
    )
    assert result["chunks_per_document"] == len(windows)
    assert result["tokens_embedded"] == sum(len(window) for window in windows)
    assert result["last_chunk_tokens"] == (len(windows[-1]) if windows else 0)
    assert result["repeated_tokens"] == sum(len(window) for window in windows) - tokens


@pytest.mark.parametrize(
    ("tokens", "size", "overlap", "expected"),
    [(10000, 1000, 200, 13), (1000, 1000, 100, 1), (1001, 1000, 100, 2), (5000, 512, 50, 11), (12000, 800, 0, 15)],
)
def test_the_formula_sheet_cases(tokens: int, size: int, overlap: int, expected: int) -> None:
    result = _result(
        documents="1", tokens_per_document=str(tokens), chunk_tokens=str(size), overlap_tokens=str(overlap)
    )
    assert result["chunks_per_document"] == expected


def test_the_worked_example() -> None:
    # 10,000 tokens, chunks of 1,000 overlapping by 200: 13 chunks, 12,400 tokens, 13 × 1,536 × 4 = 79,872 bytes.
    one = {"tokens_per_document": "10000", "chunk_tokens": "1000", "overlap_tokens": "200"}
    result = _result(documents="1", **one)
    assert (result["total_chunks"], result["tokens_embedded"], result["last_chunk_tokens"]) == (13, 12400, 400)
    assert result["overlap_share"] == pytest.approx(24)
    assert result["vector_storage"] == pytest.approx(79872 / 1e9)
    corpus = _result(documents="1000", embedding_price="0.02", **one)
    assert corpus["embedding_cost"] == pytest.approx(12_400_000 * 0.02 / 1e6)
    assert corpus["overlap_cost"] == pytest.approx(2_400_000 * 0.02 / 1e6)


def test_openai_file_search_defaults() -> None:
    # OpenAI's auto chunking strategy: 800-token chunks sharing 400 (openai-python, AutoFileChunkingStrategyParam).
    # 2,000 tokens give windows at 0, 400, 800 and 1,200, the last one full.
    result = _result(documents="1", tokens_per_document="2000", chunk_tokens="800", overlap_tokens="400")
    assert (result["chunks_per_document"], result["tokens_embedded"], result["last_chunk_tokens"]) == (4, 3200, 800)


@pytest.mark.parametrize(("component", "bytes_each"), [("float32", 4), ("float16", 2), ("int8", 1), ("binary", 0.125)])
def test_raw_storage_by_component(component: str, bytes_each: float) -> None:
    result = _result(documents="1000", component_bytes=component, memory_unit="gib")
    assert result["vector_storage"] == pytest.approx(result["total_chunks"] * 1536 * bytes_each / 2**30)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("documents", "-1", Problem("documents", "too_small", Decimal(0))),
        ("tokens_per_document", "1.5", Problem("tokens_per_document", "not_whole")),
        ("chunk_tokens", "0", Problem("chunk_tokens", "too_small", Decimal(1))),
        ("overlap_tokens", "800", Problem("overlap_tokens", "rule")),
        ("overlap_tokens", "5000", Problem("overlap_tokens", "rule")),
        ("dimensions", "0", Problem("dimensions", "too_small", Decimal(1))),
        ("component_bytes", "float64", Problem("component_bytes", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(RAG, {**RAG.defaults(), name: raw}).problems == (problem,)
