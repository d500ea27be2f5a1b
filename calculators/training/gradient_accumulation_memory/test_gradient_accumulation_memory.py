"""Gradient accumulation memory: the seed's worked examples and DeepSpeed's batch size."""

from __future__ import annotations

import pytest

from calculators import evaluate, find

GRAD = find("gradient-accumulation-memory")


def test_gradient_accumulation_seed_example() -> None:
    result = evaluate(
        GRAD, {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "1", "activation_per_sample_gb": "0.5"}
    )
    assert result.results == {"effective_batch": 32, "activation_memory_gb": 2, "activation_per_sample_memory": 0.5}


def test_gradient_accumulation_four_gpus_keeps_memory() -> None:
    result = evaluate(
        GRAD, {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "4", "activation_per_sample_gb": "0.5"}
    )
    assert result.results == {"effective_batch": 128, "activation_memory_gb": 2, "activation_per_sample_memory": 0.5}


@pytest.mark.parametrize("steps", ["1", "16"])
def test_activation_memory_does_not_depend_on_accumulation(steps: str) -> None:
    # Reference sheet case 1c: b=4, A=2.5 GB/sample gives 10 GB whatever the accumulation.
    result = evaluate(
        GRAD, {"micro_batch": "4", "accumulation_steps": steps, "data_parallel": "1", "activation_per_sample_gb": "2.5"}
    )
    assert result.results["activation_memory_gb"] == 10


def test_deepspeed_train_batch_size() -> None:
    # DeepSpeed: train_batch_size = micro-batch × accumulation steps × GPUs (4 × 2 × 8 = 64).
    result = evaluate(
        GRAD, {"micro_batch": 4, "accumulation_steps": 2, "data_parallel": 8, "activation_per_sample_gb": 0}
    )
    assert result.results["effective_batch"] == 64


def test_activations_per_sample_computed_from_the_model_match_the_planner() -> None:
    # One sample's activations from the model's shape are the GPU memory planner's count of activations and logits
    # for a micro-batch of one; the micro-batch multiplies them, accumulation leaves them alone.
    shape = {
        "layers": "32",
        "hidden_size": "4096",
        "attention_heads": "32",
        "kv_heads": "8",
        "head_dim": "128",
        "ffn_size": "14336",
        "vocab_size": "128256",
        "seq_len": "2048",
        "checkpointing": "full",
    }
    values = {
        "micro_batch": "4",
        "accumulation_steps": "8",
        "data_parallel": "1",
        "activation_per_sample_gb": "0.5",
        "activation_source": "computed",
        **shape,
    }
    result = evaluate(GRAD, values).results
    planner = find("gpu-memory-planner")
    peak = evaluate(planner, {**planner.defaults(), **shape, "method": "full", "micro_batch": "1"}).results
    assert result["activation_per_sample_memory"] == pytest.approx(peak["activations_memory"] + peak["loss_memory"])
    assert result["activation_memory_gb"] == pytest.approx(4 * result["activation_per_sample_memory"])
    more_steps = evaluate(GRAD, {**values, "accumulation_steps": "64"}).results
    assert more_steps["activation_memory_gb"] == result["activation_memory_gb"]
