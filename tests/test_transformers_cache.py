"""Every attention design against the cache transformers itself keeps for that model family.

Each model's config.json (its architecture keys, as the model's repository publishes them) goes two ways: through
transformers 5.25.0, which builds the model on PyTorch's meta device (shapes, no weights, no memory), runs a prompt
through it and returns its cache, whose tensors are summed; and through the page, pasted as config.json into the
KV cache calculator with transformers' convention. The two must agree to the byte, for contexts shorter and longer
than every window or chunk. The states of layers without attention are in `LinearAttentionLayer`'s conv_states and
recurrent_states; everything else is a key or a value (or, for latent attention, the latent and the rotary key).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
import torch
import transformers
from transformers import AutoModelForCausalLM

from calculators import find
from calculators.vocabulary.model_config import fill_values, read_model_config
from tests.helpers import results_of

KV = find("kv-cache-size")
VRAM = find("llm-inference-vram")

# Architecture keys of each model's config.json. Llama 4 and Gemma 3 are multimodal: their language model's keys
# sit under text_config, which is what transformers' causal-LM class takes.
CONFIGS: Mapping[str, dict[str, Any]] = {
    # mistralai/Mistral-7B-v0.1: a 4,096-token window on every layer.
    "mistral": {
        "model_type": "mistral",
        "num_hidden_layers": 32,
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "vocab_size": 32000,
        "sliding_window": 4096,
        "max_position_embeddings": 32768,
    },
    # google/gemma-2-9b: local (4,096) and global layers alternate; no config key says which.
    "gemma2": {
        "model_type": "gemma2",
        "num_hidden_layers": 42,
        "hidden_size": 3584,
        "num_attention_heads": 16,
        "num_key_value_heads": 8,
        "head_dim": 256,
        "intermediate_size": 14336,
        "vocab_size": 256000,
        "sliding_window": 4096,
    },
    # google/gemma-3-27b-it's text_config: five local layers (1,024 tokens) to every global one.
    "gemma3_text": {
        "model_type": "gemma3_text",
        "num_hidden_layers": 62,
        "hidden_size": 5376,
        "num_attention_heads": 32,
        "num_key_value_heads": 16,
        "head_dim": 128,
        "intermediate_size": 21504,
        "vocab_size": 262208,
        "sliding_window": 1024,
        "sliding_window_pattern": 6,
    },
    # openai/gpt-oss-20b: 128-token windows on every other layer, named by layer_types.
    "gpt_oss": {
        "model_type": "gpt_oss",
        "num_hidden_layers": 24,
        "hidden_size": 2880,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "head_dim": 64,
        "intermediate_size": 2880,
        "vocab_size": 201088,
        "num_local_experts": 32,
        "num_experts_per_tok": 4,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"] * 12,
    },
    # meta-llama/Llama-4-Scout-17B-16E's text_config: chunks of 8,192 on three layers of four.
    "llama4_text": {
        "model_type": "llama4_text",
        "num_hidden_layers": 48,
        "hidden_size": 5120,
        "num_attention_heads": 40,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "intermediate_size": 8192,
        "intermediate_size_mlp": 16384,
        "vocab_size": 202048,
        "num_local_experts": 16,
        "num_experts_per_tok": 1,
        "attention_chunk_size": 8192,
    },
    # deepseek-ai/DeepSeek-V3: multi-head latent attention.
    "deepseek_v3": {
        "model_type": "deepseek_v3",
        "num_hidden_layers": 61,
        "hidden_size": 7168,
        "num_attention_heads": 128,
        "num_key_value_heads": 128,
        "intermediate_size": 18432,
        "moe_intermediate_size": 2048,
        "vocab_size": 129280,
        "n_routed_experts": 256,
        "n_shared_experts": 1,
        "num_experts_per_tok": 8,
        "first_k_dense_replace": 3,
        "q_lora_rank": 1536,
        "kv_lora_rank": 512,
        "qk_nope_head_dim": 128,
        "qk_rope_head_dim": 64,
        "v_head_dim": 128,
    },
    # Qwen/Qwen3-Next-80B-A3B-Instruct: Gated DeltaNet on three layers of four, attention on the fourth.
    "qwen3_next": {
        "model_type": "qwen3_next",
        "num_hidden_layers": 48,
        "hidden_size": 2048,
        "num_attention_heads": 16,
        "num_key_value_heads": 2,
        "head_dim": 256,
        "intermediate_size": 5120,
        "moe_intermediate_size": 512,
        "shared_expert_intermediate_size": 512,
        "vocab_size": 151936,
        "num_experts": 512,
        "num_experts_per_tok": 10,
        "full_attention_interval": 4,
        "linear_num_key_heads": 16,
        "linear_num_value_heads": 32,
        "linear_key_head_dim": 128,
        "linear_value_head_dim": 128,
        "linear_conv_kernel_dim": 4,
    },
    # ai21labs/Jamba-v0.1: Mamba on seven layers of eight, attention on layers 4, 12, 20 and 28.
    "jamba": {
        "model_type": "jamba",
        "num_hidden_layers": 32,
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "vocab_size": 65536,
        "num_experts": 16,
        "num_experts_per_tok": 2,
        "attn_layer_period": 8,
        "attn_layer_offset": 4,
        "mamba_d_state": 16,
        "mamba_d_conv": 4,
        "mamba_expand": 2,
    },
    # ibm-ai-platform/Bamba-9B: Mamba-2 everywhere but three attention layers.
    "bamba": {
        "model_type": "bamba",
        "num_hidden_layers": 32,
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "vocab_size": 128256,
        "attn_layer_indices": [9, 18, 27],
        "mamba_n_heads": 128,
        "mamba_d_head": 64,
        "mamba_n_groups": 1,
        "mamba_d_state": 128,
        "mamba_d_conv": 4,
        "mamba_expand": 2,
    },
    # Shaped like NVIDIA-Nemotron-3-Nano-30B-A3B (its hybrid_override_pattern, attention and expert sizes; the
    # Mamba-2 sizes follow from its in_proj and out_proj widths): 23 Mamba-2 layers, 6 with attention, and 23
    # mixture-of-experts layers that keep nothing.
    "nemotron_h": {
        "model_type": "nemotron_h",
        "num_hidden_layers": 52,
        "hidden_size": 2688,
        "num_attention_heads": 32,
        "num_key_value_heads": 2,
        "head_dim": 128,
        "intermediate_size": 1856,
        "moe_intermediate_size": 1856,
        "moe_shared_expert_intermediate_size": 3712,
        "vocab_size": 131072,
        "n_routed_experts": 128,
        "n_shared_experts": 1,
        "num_experts_per_tok": 6,
        "hybrid_override_pattern": "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",
        "mamba_num_heads": 64,
        "mamba_head_dim": 64,
        "n_groups": 8,
        "ssm_state_size": 128,
        "conv_kernel": 4,
    },
    # Shaped like tiiuae's Falcon-H1 (attention and Mamba-2 in every layer; transformers' FalconH1Config keys).
    "falcon_h1": {
        "model_type": "falcon_h1",
        "num_hidden_layers": 24,
        "hidden_size": 1024,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 64,
        "intermediate_size": 2048,
        "vocab_size": 32768,
        "mamba_d_ssm": 1536,
        "mamba_n_heads": 24,
        "mamba_n_groups": 1,
        "mamba_d_state": 256,
        "mamba_d_conv": 4,
    },
}
CONTEXTS = (100, 9000)
"""Below every window, and past every window and chunk (Mistral's 4,096, Llama 4's 8,192)."""
CASES = [(family, tokens) for family in CONFIGS for tokens in CONTEXTS if family != "jamba" or tokens == min(CONTEXTS)]
"""Jamba at the shortest only: without the mamba_ssm kernels transformers scans its Mamba layers one token at a
time (over a minute for 9,000 tokens), and neither its state nor its windowless attention changes with the length."""


def _tensors(value: object, depth: int = 0) -> Iterator[torch.Tensor]:
    """Every tensor a cache layer holds, in its attributes, dicts and lists (bookkeeping scalars left out)."""
    if isinstance(value, torch.Tensor):
        if value.dim() > 0:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _tensors(item, depth + 1)
    elif hasattr(value, "__dict__") and depth < 2:
        for item in vars(value).values():
            yield from _tensors(item, depth + 1)


def _transformers_cache(config: Mapping[str, Any], tokens: int) -> tuple[int, int]:
    """Bytes of keys and values, and of fixed-size states, transformers keeps after a prompt of `tokens` tokens."""
    settings = transformers.CONFIG_MAPPING[config["model_type"]](**config)
    settings.dtype = torch.bfloat16
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(settings)
        cache = model(input_ids=torch.zeros((1, tokens), dtype=torch.long), use_cache=True).past_key_values
    keys_values = states = 0
    for layer in cache.layers:
        held = sum(tensor.numel() * tensor.element_size() for tensor in _tensors(layer))
        # Keys and values where the layer attends (Falcon-H1's hybrid layers hold them beside their state).
        kept = sum(
            tensor.numel() * tensor.element_size()
            for tensor in _tensors([getattr(layer, "keys", None), getattr(layer, "values", None)])
        )
        stateful = hasattr(layer, "recurrent_states")
        states += held - kept if stateful else 0
        keys_values += kept if stateful else held
    return keys_values, states


@pytest.fixture(scope="session")  # once per worker, even if other files' tests run between this file's
def measured() -> dict[tuple[str, int], tuple[int, int]]:
    """transformers' cache for every model and context, built once."""
    return {(family, tokens): _transformers_cache(CONFIGS[family], tokens) for family, tokens in CASES}


def _page(config: Mapping[str, Any]) -> dict[str, str]:
    """The KV cache page's inputs after pasting `config` as config.json, in transformers' convention."""
    reading = read_model_config(json.dumps(config))
    assert not reading.problem, reading
    return {**fill_values(KV, reading.facts), "window_convention": "window-minus-one", "bytes_per_element": "2"}


@pytest.mark.parametrize(("family", "tokens"), CASES)
def test_the_page_keeps_what_transformers_keeps(
    family: str, tokens: int, measured: dict[tuple[str, int], tuple[int, int]]
) -> None:
    keys_values, states = measured[family, tokens]
    page = results_of(KV)(**_page(CONFIGS[family]), context_tokens=str(tokens), memory_unit="gib")
    assert page["kv_cache_memory"] * 2**30 == pytest.approx(keys_values, rel=1e-9)
    assert page["state_memory"] * 2**30 == pytest.approx(states, rel=1e-9, abs=0.5)


def test_every_design_is_covered(measured: dict[tuple[str, int], tuple[int, int]]) -> None:
    """The test set has windows, chunks, latents and states that transformers really keeps."""
    short, long = min(CONTEXTS), max(CONTEXTS)
    capped = {
        family
        for family, tokens in CASES
        if tokens == long and measured[family, long][0] < measured[family, short][0] * 90
    }
    assert capped == {"mistral", "gemma2", "gemma3_text", "gpt_oss", "llama4_text"}
    stateful = {family for family, tokens in CASES if measured[family, tokens][1]}
    assert stateful == {"qwen3_next", "jamba", "bamba", "nemotron_h", "falcon_h1"}


def test_multimodal_configs_are_read_through_text_config(measured: dict[tuple[str, int], tuple[int, int]]) -> None:
    """Gemma 3 and Llama 4 publish their language model under text_config; the page reads it there."""
    for family, outer in (("gemma3_text", "gemma3"), ("llama4_text", "llama4")):
        nested = {"model_type": outer, "text_config": CONFIGS[family]}
        page = results_of(KV)(**_page(nested), context_tokens="9000", memory_unit="gib")
        assert page["kv_cache_memory"] * 2**30 == pytest.approx(measured[family, 9000][0], rel=1e-9)


def test_serving_memory_counts_the_same_cache(measured: dict[tuple[str, int], tuple[int, int]]) -> None:
    """LLM inference VRAM's cache is the KV cache page's, states included."""
    reading = read_model_config(json.dumps(CONFIGS["qwen3_next"]))
    values = {**fill_values(VRAM, reading.facts), "window_convention": "window-minus-one", "bytes_per_element": "2"}
    page = results_of(VRAM)(**values, context_tokens="9000", memory_unit="gib")
    assert page["kv_cache_memory"] * 2**30 == pytest.approx(sum(measured["qwen3_next", 9000]), rel=1e-9)


def test_latent_attention_is_cached_compressed_in_transformers_5() -> None:
    """DeepSeek-V3 in transformers 5 keeps 512 + 64 numbers per token and layer, as vLLM does; transformers 4 kept
    128 heads × (192 + 128): the page's two choices, which differ 71-fold."""
    page = _page(CONFIGS["deepseek_v3"])
    latent = results_of(KV)(**page)["per_token_kib"]
    decompressed = results_of(KV)(**page, latent_cache="decompressed")["per_token_kib"]
    assert latent * 1024 == 61 * (512 + 64) * 2
    assert decompressed * 1024 == 61 * 128 * (128 + 64 + 128) * 2
    assert decompressed / latent == pytest.approx(71.1, abs=0.1)


@pytest.mark.parametrize("family", ["gemma3_text", "gpt_oss", "qwen3_next"])
def test_the_gpu_memory_planner_serves_with_the_same_cache(
    family: str, measured: dict[tuple[str, int], tuple[int, int]]
) -> None:
    """The GPU memory planner's KV cache when serving is what transformers keeps, windows and states included."""
    planner = find("gpu-memory-planner")
    reading = read_model_config(json.dumps(CONFIGS[family]))
    values = {**fill_values(planner, reading.facts), "window_convention": "window-minus-one", "bytes_per_element": "2"}
    page = results_of(planner)(**values, method="serving", prompt_tokens="8999", output_tokens="1", memory_unit="gib")
    assert page["kv_cache_memory"] * 2**30 == pytest.approx(sum(measured[family, 9000]), rel=1e-9)
