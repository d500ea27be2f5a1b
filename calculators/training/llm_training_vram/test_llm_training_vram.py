"""LLM training VRAM: the seed's worked examples, ZeRO's published figures, the GB/GiB switch."""

from __future__ import annotations

import pytest

from calculators import evaluate, find

GRAD = find("gradient-accumulation-memory")
VRAM = find("llm-training-vram")


def test_llm_training_vram_seed_examples() -> None:
    base = {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "0"}
    outputs = ("model_state_gb", "total_vram_gb", "per_gpu_vram_gb")
    assert [evaluate(VRAM, base).results[name] for name in outputs] == [112, 112, 112]
    with_activations = evaluate(VRAM, {**base, "activation_gb": "20"}).results
    assert [with_activations[name] for name in outputs] == [112, 132, 132]
    # The chart's parts: 2 bytes of weights, 2 of gradients, 12 of optimizer state per parameter, plus activations.
    parts = ("weights_memory", "gradients_memory", "optimizer_memory", "activations_memory")
    assert [with_activations[name] for name in parts] == [14, 14, 84, 20]


def test_seed_memory_figures_switch_to_gib() -> None:
    # The seed links carry no memory_unit: they keep GB. With it, the same bytes are shown in GiB.
    base = {"params_billion": "7", "bytes_per_param": "16", "activation_gb": "0"}
    assert evaluate(VRAM, {**base, "memory_unit": "gib"}).results["total_vram_gb"] == pytest.approx(112e9 / 2**30)
    grad = {"micro_batch": "4", "accumulation_steps": "8", "data_parallel": "1", "activation_per_sample_gb": "0.5"}
    assert evaluate(GRAD, grad).results["activation_memory_gb"] == 2
    assert evaluate(GRAD, {**grad, "memory_unit": "gib"}).results["activation_memory_gb"] == pytest.approx(2e9 / 2**30)


@pytest.mark.parametrize(
    ("data_parallel", "expected"),
    [
        # ZeRO Figure 1, 7.5B parameters on 64 GPUs: "120 / 31.4 / 16.6 / 1.9 GB" (exactly 120, 31.406, 16.641, 1.875).
        ("64", (120, 31.4, 16.6, 1.9)),
        # The same model on 4 GPUs (ZeRO Table 1's grid): 120, 52.5, 41.25, 30.
        ("4", (120, 52.5, 41.25, 30)),
    ],
)
def test_zero_paper_per_gpu_model_states(data_parallel: str, expected: tuple[float, ...]) -> None:
    for stage, published in enumerate(expected):
        values = {"params_billion": "7.5", "bytes_per_param": "16", "activation_gb": "0",
                  "zero_stage": str(stage), "data_parallel": data_parallel}  # fmt: skip
        per_gpu = evaluate(VRAM, values).results["per_gpu_vram_gb"]
        assert per_gpu == pytest.approx(published, abs=0.05), stage


def test_zero_sharding_leaves_the_seed_outputs_alone() -> None:
    values = {
        "params_billion": "7",
        "bytes_per_param": "16",
        "activation_gb": "20",
        "zero_stage": "3",
        "data_parallel": "8",
    }
    results = evaluate(VRAM, values).results
    assert (results["model_state_gb"], results["total_vram_gb"]) == (112, 132)
    assert results["per_gpu_vram_gb"] == 112 / 8 + 20


def test_zero_paper_model_states() -> None:
    # ZeRO §3.1: GPT-2 with 1.5B parameters needs at least 24 GB of model state; Fig. 1 baseline: 7.5B → 120 GB.
    assert evaluate(VRAM, {"params_billion": "1.5", "bytes_per_param": "16", "activation_gb": "0"}).results[
        "model_state_gb"
    ] == pytest.approx(24)
    assert evaluate(VRAM, {"params_billion": "7.5", "bytes_per_param": "16", "activation_gb": "0"}).results[
        "model_state_gb"
    ] == pytest.approx(120)


@pytest.mark.parametrize(("bytes_per_param", "expected"), [("16", 112), ("12", 84), ("8", 56)])
def test_every_optimizer_choice(bytes_per_param: str, expected: float) -> None:
    result = evaluate(VRAM, {"params_billion": "7", "bytes_per_param": bytes_per_param, "activation_gb": "0"})
    assert result.results["model_state_gb"] == expected


def test_pure_bf16_adamw_keeps_eight_bytes_a_parameter() -> None:
    # torchtune's memory guide: bf16 "uses 2 bytes per model parameter"; PyTorch's AdamW keeps its moments in the
    # parameters' dtype, and transformers PR #21312 counts pure bf16 training at "x8 bytes per param": 7 B → 56 GB.
    values = {**VRAM.defaults(), "params_billion": "7", "bytes_per_param": "bf16-adamw", "activation_gb": "0"}
    result = evaluate(VRAM, values)
    assert result.ok and dict(result.results)["model_state_gb"] == pytest.approx(56)
    # The weights, the gradients and the two moments take 14 GB each.
    parts = dict(result.results)
    assert parts["optimizer_memory"] == pytest.approx(28) and parts["weights_memory"] == pytest.approx(14)


def test_activations_computed_from_the_model_reproduce_a_measured_run() -> None:
    # litgpt's config hub (tinyllama/full.yaml): a full fine-tune of TinyLlama-1.1B in bf16-true with AdamW, micro-batch
    # 4 of Alpaca2k samples cut at 512 tokens, chunked cross-entropy, no checkpointing: "Memory used: 14.10 GB"
    # (torch.cuda.max_memory_allocated / 1e9). Pure bf16 AdamW is 8 bytes per parameter; the rest is activations.
    tinyllama = {
        "params_billion": "1.100048384",
        "bytes_per_param": "bf16-adamw",
        "activation_gb": "0",
        "activation_source": "computed",
        "layers": "22",
        "hidden_size": "2048",
        "attention_heads": "32",
        "kv_heads": "4",
        "head_dim": "64",
        "ffn_size": "5632",
        "vocab_size": "32000",
        "micro_batch": "4",
        "seq_len": "512",
        "checkpointing": "none",
        "cross_entropy": "chunked",
    }
    result = evaluate(VRAM, tinyllama).results
    assert result["total_vram_gb"] == pytest.approx(14.10, rel=0.15)
    assert result["activations_memory"] > 2
    # Entered activations keep the seed's formula whatever the shape says.
    assert evaluate(VRAM, {**tinyllama, "activation_source": "entered"}).results["activations_memory"] == 0
