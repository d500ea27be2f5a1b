"""GPU memory planner: published measurements entered as a reader would, and a verdict that agrees with itself.

The full record of measured readings is held in `tests/test_measured_memory.py`; here a few of them go through
the page's own inputs (names, choices, units), and the page's answers are checked against each other.
"""

from __future__ import annotations

import pytest

from calculators import evaluate, find

PLANNER = find("gpu-memory-planner")
LLAMA2_7B = {
    "layers": "32",
    "hidden_size": "4096",
    "attention_heads": "32",
    "kv_heads": "32",
    "head_dim": "128",
    "ffn_size": "11008",
    "vocab_size": "32000",
    "tied_embeddings": "0",
}
QWEN25_7B = {
    "layers": "28",
    "hidden_size": "3584",
    "attention_heads": "28",
    "kv_heads": "4",
    "head_dim": "128",
    "ffn_size": "18944",
    "vocab_size": "152064",
    "tied_embeddings": "0",
    "attention_bias": "1",
}
LLAMA2_13B = {
    **LLAMA2_7B,
    "layers": "40",
    "hidden_size": "5120",
    "attention_heads": "40",
    "kv_heads": "40",
    "ffn_size": "13824",
}


def _results(**values: str) -> dict[str, float]:
    evaluation = evaluate(PLANNER, {**PLANNER.defaults(), **values})
    assert not evaluation.problems, evaluation.problems
    return dict(evaluation.results)


def test_qwen_speed_benchmark_serving_a_long_prompt() -> None:
    # Qwen2.5 speed benchmark (transformers 4.46, FlashAttention 2): 19.97 GiB of max_memory_allocated for
    # Qwen2.5-7B-Instruct in BF16 reading 30,720 tokens and writing 2,048; 14.38 GiB for a 1-token prompt.
    long = _results(
        **QWEN25_7B,
        method="serving",
        prompt_tokens="30720",
        output_tokens="2048",
        convention="allocated",
        memory_unit="gib",
    )
    short = _results(
        **QWEN25_7B,
        method="serving",
        prompt_tokens="1",
        output_tokens="2048",
        convention="allocated",
        memory_unit="gib",
    )
    assert long["peak_memory"] == pytest.approx(19.97, rel=0.02)
    assert short["peak_memory"] == pytest.approx(14.38, rel=0.02)


def test_optimum_gptq_benchmark_with_tuple_caches() -> None:
    # optimum's GPTQ benchmark (August 2023): Llama-2-13B in fp16, 16 sequences of 512 + 512 tokens, 53,986.51 MB
    # (allocated plus the memory outside PyTorch); the GPTQ 4-bit model, 34,777.04 MB.
    settings = {
        **LLAMA2_13B,
        "method": "serving",
        "batch_size": "16",
        "prompt_tokens": "512",
        "output_tokens": "512",
        "kv_cache_growth": "copied",
        "convention": "allocated",
    }
    fp16 = _results(**settings)
    gptq = _results(**settings, weight_format="int4")
    context = 0.5 * 2**30 / 1e9
    assert fp16["peak_memory"] + context == pytest.approx(53.98651, rel=0.05)
    assert gptq["peak_memory"] + context == pytest.approx(34.77704, rel=0.05)


def test_litgpt_lora_of_llama2_7b() -> None:
    # litgpt (commit 8641822) finetune/lora.py on one A100: "Memory used: 21.30 GB" with micro-batch 1 and 29.07 GB
    # with 2, its longest Alpaca sample (1,304 tokens) first; LoRA on query and value, r = 8, dropout 0.05.
    run = {
        **LLAMA2_7B,
        "method": "lora",
        "precision": "bf16",
        "rank": "8",
        "target_modules": "qv",
        "lora_dropout": "1",
        "seq_len": "1304",
        "checkpointing": "none",
        "cross_entropy": "chunked",
        "convention": "allocated",
    }
    assert _results(**run)["peak_memory"] == pytest.approx(21.30, rel=0.05)
    assert _results(**run, micro_batch="2")["peak_memory"] == pytest.approx(29.07, rel=0.05)


def test_the_three_conventions_are_in_order_and_the_terms_add_up() -> None:
    figures = [_results(convention=name)["peak_memory"] for name in ("allocated", "reserved", "nvidia-smi")]
    assert figures[0] < figures[1] < figures[2]
    result = _results(convention="nvidia-smi")
    parts = (
        "weights",
        "adapters",
        "gradients",
        "optimizer",
        "activations",
        "loss",
        "kv_cache",
        "buffers",
        "allocator",
        "context",
    )
    assert sum(result[f"{part}_memory"] for part in parts) == pytest.approx(result["peak_memory"])


@pytest.mark.parametrize("method", ["serving", "full", "lora"])
def test_the_largest_batch_fits_and_one_more_does_not(method: str) -> None:
    batch = "batch_size" if method == "serving" else "micro_batch"
    settings = {"method": method, "gpu_memory_gb": "80", "precision": "bf16", "seq_len": "1024"}
    if method == "full":
        settings.update(layers="16", hidden_size="2048", attention_heads="32", ffn_size="8192", head_dim="64")
    largest = int(_results(**settings)["largest_batch"])
    assert largest >= 1
    fits = _results(**settings, **{batch: str(largest)})
    over = _results(**settings, **{batch: str(largest + 1)})
    assert fits["shortfall_memory"] == 0 and fits["headroom_memory"] >= 0
    assert over["shortfall_memory"] > 0 and over["headroom_memory"] == 0


def test_the_longest_sequence_fits_and_a_longer_one_does_not() -> None:
    longest = int(_results(gpu_memory_gb="24")["longest_sequence"])
    assert 0 < longest < 1_000_000
    assert _results(gpu_memory_gb="24", seq_len=str(longest))["shortfall_memory"] == 0
    assert _results(gpu_memory_gb="24", seq_len=str(longest + 64))["shortfall_memory"] > 0


def test_a_full_fine_tune_of_an_8b_model_does_not_fit_one_80_gb_gpu_but_fits_eight_with_fsdp() -> None:
    # 18 bytes per parameter in mixed precision: 144.5 GB of model state for Llama-3.1-8B.
    one = _results(method="full")
    assert one["shortfall_memory"] > 60
    eight = _results(method="full", data_parallel="8", zero_stage="3")
    assert eight["shortfall_memory"] == 0 and eight["headroom_memory"] > 0


def test_quantizing_the_base_keeps_embeddings_in_16_bits() -> None:
    # Llama-3.1-8B: 1.05 billion embedding and head parameters stay at 2 bytes; the 6.98 billion in linear layers
    # take 4.5 bits (NF4) or 4.127 (double quantization).
    bf16 = _results()["weights_memory"]
    nf4 = _results(weight_format="nf4")["weights_memory"]
    dq = _results(weight_format="nf4-dq")["weights_memory"]
    assert bf16 == pytest.approx(16.06, abs=0.01)
    assert nf4 == pytest.approx(2 * 1.050677 + 6.979584 * 4.5 / 8, abs=0.01)
    assert dq < nf4


def test_vllm_holds_its_share_of_the_gpu_whatever_the_load() -> None:
    served = _results(method="serving", engine_share="90", convention="reserved", memory_unit="gib")
    assert served["peak_memory"] == pytest.approx(0.9 * 80)
    # and the plan must fit within that share, even when the margin allows more
    assert _results(method="serving", engine_share="15", safety_margin="95")["shortfall_memory"] > 0


def test_a_paged_optimizer_is_shown_but_not_counted() -> None:
    plain = _results(method="full", precision="bf16", optimizer="adamw")
    paged = _results(method="full", precision="bf16", optimizer="paged-adamw")
    assert paged["optimizer_memory"] == 0
    assert paged["paged_memory"] == pytest.approx(plain["optimizer_memory"])


def test_bad_input_is_a_problem_not_an_exception() -> None:
    evaluation = evaluate(PLANNER, {**PLANNER.defaults(), "kv_heads": "7", "seq_len": "-1", "rank": "x"})
    assert {problem.name for problem in evaluation.problems} >= {"seq_len", "rank"}


def test_a_plan_must_fit_the_memory_the_framework_sees_not_the_label() -> None:
    # An A10G sold as 24 GB shows CUDA 23,028 MiB (22.49 GiB): vLLM takes its share of that, and a sequence that
    # fits 24 GiB does not fit it.
    a10g = {"gpu_memory_gb": "24", "usable_memory_gib": "22.49"}
    served = _results(**a10g, method="serving", engine_share="90", convention="reserved", memory_unit="gib")
    assert served["capacity_gib"] == pytest.approx(22.49)
    assert served["peak_memory"] == pytest.approx(0.9 * 22.49)
    assert _results(gpu_memory_gb="24")["capacity_gib"] == pytest.approx(24)
    longest = int(_results(gpu_memory_gb="24")["longest_sequence"])
    assert _results(gpu_memory_gb="24", seq_len=str(longest))["shortfall_memory"] == 0
    assert _results(**a10g, seq_len=str(longest))["shortfall_memory"] > 0
    assert int(_results(**a10g)["longest_sequence"]) < longest
    # and what no framework can see is refused, in words, not computed
    evaluation = evaluate(PLANNER, {**PLANNER.defaults(), "gpu_memory_gb": "16", "usable_memory_gib": "22.49"})
    assert [problem.name for problem in evaluation.problems] == ["usable_memory_gib"]
    # and a link from before the field keeps its result
    old = {spec.name: spec.default for spec in PLANNER.inputs if spec.name != "usable_memory_gib"}
    assert evaluate(PLANNER, old).results == evaluate(PLANNER, PLANNER.defaults()).results
