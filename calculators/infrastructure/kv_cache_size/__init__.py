"""KV cache size: the memory a model keeps for each sequence while it generates.

Formula (Kwon et al., "Efficient Memory Management for Large Language Model Serving with
PagedAttention" (vLLM), arXiv:2309.06180, §3): every token keeps a key and a value vector in
every layer, so bytes = 2 · L · n_kv · d_head · bytes per element, per token, times the
tokens in context and the sequences in the batch. With grouped-query attention (Ainslie et
al., arXiv:2305.13245) n_kv is the number of key-value heads, not of query heads.

Every other attention design the config states is `attention.cache_of`'s: windowed layers (Mistral 7B, Gemma 2
and 3, gpt-oss) and chunked ones (Llama 4) keep at most the window or chunk, W tokens or W - 1 by the engine's
convention; multi-head latent attention (DeepSeek-V2/V3) keeps a compressed latent and a rotary key per token and
layer, or every head's key and value in transformers 4; linear-attention and state-space layers (Qwen3-Next, Jamba,
Bamba) keep a fixed-size state, reported apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, ChartPart, MemoryChart, OutputSpec, messages_of
from calculators.vocabulary import attention, inputs
from calculators.vocabulary.architecture import KV_HEADS_RULE

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL
_WORKLOAD = inputs.WORKLOAD


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the KV cache per token (KiB) and for the whole batch (in the chosen memory unit).

    The vLLM paper's OPT-13B example: 2 (key and value) × 5120 (hidden size) × 40 (layers) × 2 bytes
    is "800 KB" per token (819,200 bytes, that is 800 KiB), and 2,048 tokens take "1.6 GB"
    (1.5625 GiB):

    >>> result = compute({"layers": 40, "kv_heads": 40, "head_dim": 128, "context_tokens": 2048,
    ...                   "batch_size": 1, "bytes_per_element": 2, "memory_unit": 2**30})
    >>> result["per_token_kib"], result["kv_cache_memory"]
    (800.0, 1.5625)

    Mistral 7B v0.1 (32 layers, 8 key-value heads of 128) at 8,192 tokens, with its window of 4,096 on
    every layer: 32 × 2 × 8 × 128 × 2 bytes × 4,096 tokens = 536,870,912 bytes, 0.5 GiB:

    >>> mistral_values = {"layers": 32, "kv_heads": 8, "head_dim": 128, "context_tokens": 8192, "batch_size": 1,
    ...                   "bytes_per_element": 2, "memory_unit": 2**30, "sliding_window": 4096,
    ...                   "sliding_window_share": 100}
    >>> mistral = compute(mistral_values)
    >>> mistral["kv_cache_memory"], mistral["cached_tokens"]
    (0.5, 4096.0)

    transformers' dynamic cache keeps one token fewer, 4,095 a layer (cache_utils.py, DynamicSlidingWindowLayer):

    >>> compute({**mistral_values, "window_convention": 1})["cached_tokens"]
    4095.0
    """
    cache = attention.cache_of(values)
    batch, unit = values["batch_size"], values["memory_unit"]
    return {
        "per_token_kib": cache.per_token / 1024,
        "kv_cache_memory": cache.keys_values * batch / unit,
        "state_memory": cache.state * batch / unit,
        "cached_tokens": cache.cached_tokens,
    }


CALCULATOR = Calculator(
    title=N_("KV cache size"),
    summary=N_(
        "Work out how much GPU memory the attention key-value cache takes, per token and for a whole batch, "
        "from the model's layers, key-value heads and head size, the context length and the cache precision.",
    ),
    inputs=(
        replace(inputs.LAYERS, group=_MODEL),
        replace(
            inputs.KV_HEADS,
            group=_MODEL,
            help=N_(
                "num_key_value_heads in config.json. With grouped-query attention this is smaller than the "
                "number of query heads, and it is what the cache stores; without it, the two are equal.",
            ),
        ),
        replace(inputs.HEAD_DIM, group=_MODEL),
        replace(
            inputs.ATTENTION_HEADS,
            group=_MODEL,
            help=N_(
                "Query heads per layer: num_attention_heads in config.json. They do not change the cache, but the "
                "key-value heads must divide them evenly; 0 leaves that unchecked.",
            ),
            default="0",
            minimum=Decimal(0),
            advanced=True,
        ),
        replace(inputs.BYTES_PER_ELEMENT, group=_MODEL),
        *attention.CACHE_INPUTS,
        replace(inputs.CONTEXT_TOKENS, group=_WORKLOAD),
        replace(inputs.BATCH_SIZE, group=_WORKLOAD),
        replace(
            inputs.MEMORY_UNIT,
            group=_WORKLOAD,
            help=N_(
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports "
                "(nvidia-smi shows MiB, also binary).",
            ),
        ),
    ),
    outputs=(
        OutputSpec(
            name="kv_cache_memory",
            label=N_("KV cache"),
            unit_choice="memory_unit",
            # Translators: {kv_cache_memory} is a formatted amount of memory, {memory_unit_label} its unit
            # (GB or GiB), {cached_tokens} and {batch_size} formatted counts.
            sentence=N_(
                "Each attention layer keeps {cached_tokens} tokens on average for each of {batch_size} sequences: "
                "their keys and values (or latents) take {kv_cache_memory} {memory_unit_label}.",
            ),
        ),
        OutputSpec(
            name="state_memory",
            label=N_("Fixed-size state"),
            unit_choice="memory_unit",
            # Translators: {state_memory} is a formatted amount of memory, {memory_unit_label} its unit.
            sentence=N_(
                "The layers without attention keep a state whose size does not grow with the context: "
                "{state_memory} {memory_unit_label} for the batch, on top of the KV cache.",
            ),
        ),
        OutputSpec(
            name="per_token_kib",
            label=N_("Per token"),
            unit=N_("KiB"),
            # Translators: {per_token_kib} is a formatted number of KiB.
            sentence=N_(
                "Each token adds {per_token_kib} KiB over the layers that cache it, before any window: a key and "
                "a value for each key-value head of each attention layer, or one compressed latent and one "
                "rotary key per layer with latent attention.",
            ),
            fraction_digits=2,
        ),
        inputs.CACHED_TOKENS,
    ),
    compute=compute,
    rules=(KV_HEADS_RULE, attention.LAYER_SHARES_RULE),
    updated="2026-12-06",
    formulas=(
        r"m_{token} = 2 \cdot L_{attn} \cdot n_{kv} \cdot d_{head} \cdot p",
        r"M = b \cdot \frac{m_{token}}{L_{attn}} \cdot \sum_{\ell} s_{\ell}",
        r"s_{\ell} = \min(s, W - c) \text{ on a windowed or chunked layer}, \; s \text{ on the others}",
        r"m_{token} = L_{attn} \cdot (d_c + d_{rope}) \cdot p",
        r"M_{state} = b \cdot L_{state} \cdot \left( 2 \cdot C \cdot (k - c') + q \cdot N \right)",
    ),
    related=("llm-training-vram", "gpu-memory-planner"),
    chart=MemoryChart(
        parts=(ChartPart("kv_cache_memory", N_("KV cache")), ChartPart("state_memory", N_("Fixed-size state")))
    ),
)
