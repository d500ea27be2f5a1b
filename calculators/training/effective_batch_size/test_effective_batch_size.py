"""Effective batch size: the global batches of Kaplan et al., Llama 2, GPT-3 and BERT, and DeepSpeed's rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.training.effective_batch_size import CALCULATOR as BATCH
from tests.helpers import results_of

_result = results_of(BATCH)


ONE_STEP = {"micro_batch": "1", "accumulation_steps": "1", "data_parallel": "1"}


def test_kaplan_batch_is_two_to_the_nineteen_tokens() -> None:
    # Kaplan et al. 2020, §2.2: "a batch size of 512 sequences of 1024 tokens", 2^19 = 524,288 tokens.
    results = _result(**{**ONE_STEP, "micro_batch": "512"}, seq_len="1024")
    assert results["effective_batch"] == 512
    assert results["tokens_per_step"] == 2**19 == 524_288


def test_llama_2_four_million_tokens_is_binary() -> None:
    # Llama 2 model card: "a global batch-size of 4M tokens", context 4k, 2.0T tokens. Only the binary
    # reading gives whole sequences: 4 × 2^20 / 4096 = 1024, while 4e6 / 4096 = 976.5625.
    results = _result()
    assert results["effective_batch"] == 1024
    assert results["tokens_per_step"] == 4 * 2**20 == 4_194_304
    assert 4_000_000 / 4096 == 976.5625
    # 2T tokens at 4,194,304 tokens per step: 476,837 steps (500,000 if "4M" were 4e6).
    assert round(results["optimizer_steps"]) == 476_837
    assert 2e12 / 4e6 == 500_000


def test_the_split_of_the_global_batch_does_not_matter() -> None:
    # Meta publishes only the global batch; any micro-batch × accumulation × replicas of 1024 gives it.
    for split in [("1", "1", "1024"), ("4", "2", "128"), ("16", "64", "1")]:
        values = dict(zip(("micro_batch", "accumulation_steps", "data_parallel"), split, strict=True))
        assert _result(**values)["tokens_per_step"] == 4_194_304


def test_gpt3_batch_of_3_2m_tokens_is_rounded() -> None:
    # GPT-3 Table 2.1: 175B trained with a 3.2M-token batch at n_ctx 2048: 3.2e6 / 2048 = 1562.5 sequences,
    # so no whole number of 2048-token sequences is exactly 3.2M; 1562 and 1563 sequences bracket it.
    below = _result(**{**ONE_STEP, "micro_batch": "1562"}, seq_len="2048")["tokens_per_step"]
    above = _result(**{**ONE_STEP, "micro_batch": "1563"}, seq_len="2048")["tokens_per_step"]
    assert below < 3.2e6 < above
    assert (below, above) == (3_198_976, 3_201_024)


def test_bert_128k_tokens_per_batch() -> None:
    # BERT (Devlin et al. 2018, App. A.2): "256 sequences * 512 tokens = 128,000 tokens/batch", which is
    # 131,072 tokens: 128 × 1024, another binary "thousand".
    results = _result(**{**ONE_STEP, "micro_batch": "256"}, seq_len="512")
    assert results["tokens_per_step"] == 128 * 1024 == 131_072


def test_deepspeed_train_batch_size() -> None:
    # DeepSpeed config docs: train_batch_size = micro-batch × accumulation steps × GPUs; 4 × 2 × 8 = 64.
    assert _result(micro_batch="4", accumulation_steps="2", data_parallel="8")["effective_batch"] == 64


def test_data_parallel_degree_is_not_the_gpu_count() -> None:
    # Reference sheet 1d: 16 GPUs with tensor parallel 2 and pipeline parallel 2 hold 4 replicas;
    # micro-batch 2, 8 accumulation steps: 64 sequences per step, not 256.
    assert _result(micro_batch="2", accumulation_steps="8", data_parallel=str(16 // (2 * 2)))["effective_batch"] == 64


def test_tokens_per_step_from_all_three_factors() -> None:
    # Reference sheet 3c: b=8, a=4, g=8, s=2048 gives 524,288 tokens per step.
    results = _result(micro_batch="8", accumulation_steps="4", data_parallel="8", seq_len="2048")
    assert results["tokens_per_step"] == 524_288


def test_steps_scale_with_the_budget() -> None:
    # GPT-3's 300B tokens at 3.2M tokens per step: 93,750 steps.
    results = _result(**{**ONE_STEP, "micro_batch": "1600"}, seq_len="2000", tokens_billion="300")
    assert results["optimizer_steps"] == pytest.approx(93_750)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("micro_batch", "0", Problem("micro_batch", "too_small", Decimal(1))),
        ("micro_batch", "2.5", Problem("micro_batch", "not_whole")),
        ("accumulation_steps", "", Problem("accumulation_steps", "required")),
        ("data_parallel", "-8", Problem("data_parallel", "too_small", Decimal(1))),
        ("seq_len", "abc", Problem("seq_len", "not_a_number")),
        ("seq_len", "1e400", Problem("seq_len", "too_large", Decimal(100_000_000))),
        ("tokens_billion", "0", Problem("tokens_billion", "too_small", Decimal(0), exclusive=True)),
        ("tokens_billion", "NaN", Problem("tokens_billion", "not_a_number")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    result = evaluate(BATCH, {**BATCH.defaults(), name: raw})
    assert result.problems == (problem,)
    assert result.results == {}


def test_absurd_batches_are_out_of_range() -> None:
    huge = {"micro_batch": "1000000", "accumulation_steps": "1000000", "data_parallel": "1000000", "seq_len": "1000000"}
    assert evaluate(BATCH, {**BATCH.defaults(), **huge}).problems == (Problem("", "out_of_range"),)
