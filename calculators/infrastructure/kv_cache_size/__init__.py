"""KV cache size: the memory attention keys and values take while a model generates.

Formula (Kwon et al., "Efficient Memory Management for Large Language Model Serving with
PagedAttention" (vLLM), arXiv:2309.06180, §3): every token keeps a key and a value vector in
every layer, so bytes = 2 · L · n_kv · d_head · bytes per element, per token, times the
tokens in context and the sequences in the batch. With grouped-query attention (Ainslie et
al., arXiv:2305.13245) n_kv is the number of key-value heads, not of query heads.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.core.spec import (
    MEMORY_UNITS,
    N_,
    Calculator,
    ChartPart,
    Choice,
    InputSpec,
    Kind,
    MemoryChart,
    OutputSpec,
)

SLUG = "kv-cache-size"
_MODEL = N_("kv-cache-size", "Model")
_WORKLOAD = N_("kv-cache-size", "Workload")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the KV cache per token (KiB) and for the whole batch (in the chosen memory unit).

    The vLLM paper's OPT-13B example: 2 (key and value) × 5120 (hidden size) × 40 (layers) × 2 bytes
    is "800 KB" per token (819,200 bytes, that is 800 KiB), and 2,048 tokens take "1.6 GB"
    (1.5625 GiB):

    >>> result = compute({"layers": 40, "kv_heads": 40, "head_dim": 128, "context_tokens": 2048,
    ...                   "batch_size": 1, "bytes_per_element": 2, "memory_unit": 2**30})
    >>> result["per_token_kib"], result["kv_cache_memory"]
    (800.0, 1.5625)
    """
    per_token = 2 * values["layers"] * values["kv_heads"] * values["head_dim"] * values["bytes_per_element"]
    total = per_token * values["context_tokens"] * values["batch_size"]
    return {"per_token_kib": per_token / 1024, "kv_cache_memory": total / values["memory_unit"]}


CALCULATOR = Calculator(
    slug=SLUG,
    category="infrastructure",
    title=N_("kv-cache-size", "KV cache size"),
    summary=N_(
        "kv-cache-size",
        "Work out how much GPU memory the attention key-value cache takes, per token and for a whole batch, "
        "from the model's layers, key-value heads and head size, the context length and the cache precision.",
    ),
    inputs=(
        InputSpec(
            name="layers",
            kind=Kind.INTEGER,
            group=_MODEL,
            label=N_("kv-cache-size", "Layers"),
            help=N_("kv-cache-size", "Transformer blocks, num_hidden_layers in the model's config.json."),
            default="32",
            minimum=Decimal(1),
            maximum=Decimal(10_000),
            preset="model.layers",
        ),
        InputSpec(
            name="kv_heads",
            kind=Kind.INTEGER,
            group=_MODEL,
            label=N_("kv-cache-size", "Key-value heads"),
            help=N_(
                "kv-cache-size",
                "num_key_value_heads in config.json. With grouped-query attention this is smaller than the "
                "number of query heads, and it is what the cache stores; without it, the two are equal.",
            ),
            default="8",
            minimum=Decimal(1),
            maximum=Decimal(10_000),
            preset="model.kv_heads",
        ),
        InputSpec(
            name="head_dim",
            kind=Kind.INTEGER,
            group=_MODEL,
            label=N_("kv-cache-size", "Head dimension"),
            help=N_(
                "kv-cache-size",
                "Size of one attention head: head_dim, or else hidden_size divided by num_attention_heads.",
            ),
            default="128",
            minimum=Decimal(1),
            maximum=Decimal(100_000),
            preset="model.head_dim",
        ),
        InputSpec(
            name="bytes_per_element",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("kv-cache-size", "Cache precision"),
            help=N_("kv-cache-size", "How each cached number is stored. An FP8 cache takes half of BF16."),
            default="2",
            choices=(
                Choice("4", N_("kv-cache-size", "FP32 (4 bytes)")),
                Choice("2", N_("kv-cache-size", "BF16 or FP16 (2 bytes)")),
                Choice("1", N_("kv-cache-size", "FP8 or INT8 (1 byte)")),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="context_tokens",
            kind=Kind.INTEGER,
            group=_WORKLOAD,
            label=N_("kv-cache-size", "Tokens in context"),
            help=N_("kv-cache-size", "Prompt plus generated tokens held for each sequence."),
            unit=N_("kv-cache-size", "tokens"),
            default="8192",
            minimum=Decimal(1),
            maximum=Decimal(100_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="batch_size",
            kind=Kind.INTEGER,
            group=_WORKLOAD,
            label=N_("kv-cache-size", "Sequences in the batch"),
            help=N_("kv-cache-size", "Sequences served at the same time, each with its own cache."),
            unit=N_("kv-cache-size", "sequences"),
            default="1",
            minimum=Decimal(1),
            maximum=Decimal(1_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="memory_unit",
            kind=Kind.CHOICE,
            group=_WORKLOAD,
            label=N_("kv-cache-size", "Memory unit"),
            help=N_(
                "kv-cache-size",
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports "
                "(nvidia-smi shows MiB, also binary).",
            ),
            default="gb",
            choices=MEMORY_UNITS,
            fraction_digits=0,
        ),
    ),
    outputs=(
        OutputSpec(
            name="kv_cache_memory",
            label=N_("kv-cache-size", "KV cache"),
            unit_choice="memory_unit",
            # Translators: {kv_cache_memory} is a formatted amount of memory, {memory_unit_label} its unit
            # (GB or GiB), {context_tokens} and {batch_size} formatted counts.
            sentence=N_(
                "kv-cache-size",
                "The whole batch keeps keys and values for tokens × sequences = {context_tokens} × {batch_size}, "
                "taking {kv_cache_memory} {memory_unit_label}.",
            ),
        ),
        OutputSpec(
            name="per_token_kib",
            label=N_("kv-cache-size", "Per token"),
            unit=N_("kv-cache-size", "KiB"),
            # Translators: {per_token_kib} is a formatted number of KiB; {layers}, {kv_heads}, {head_dim} and
            # {bytes_per_element} are the inputs.
            sentence=N_(
                "kv-cache-size",
                "Each token adds 2 (a key and a value) × layers × key-value heads × head dimension × bytes "
                "= 2 × {layers} × {kv_heads} × {head_dim} × {bytes_per_element} bytes = {per_token_kib} KiB.",
            ),
            fraction_digits=2,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"m_{token} = 2 \cdot L \cdot n_{kv} \cdot d_{head} \cdot p", r"M = m_{token} \cdot s \cdot b"),
    related=("llm-training-vram",),
    chart=MemoryChart(parts=(ChartPart("kv_cache_memory", N_("kv-cache-size", "KV cache")),)),
)
