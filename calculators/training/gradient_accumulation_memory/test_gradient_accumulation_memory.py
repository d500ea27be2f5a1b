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
