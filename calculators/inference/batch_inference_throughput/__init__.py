"""Batch inference throughput: how throughput grows with the batch, up to what the GPU's memory holds.

A batch of b sequences shares one read of the weights per decode step, so throughput grows about b-fold
while decode is memory-bound (`vocabulary/roofline.py`). Two limits end the growth: the KV cache of every
sequence must fit beside the weights (vLLM, arXiv:2309.06180, §3), and past the crossover batch, where the
step's FLOPs per byte reach the GPU's peak FLOP/s ÷ bandwidth, the step is bound by compute.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from calculators.drawing.curve import doubling_counts
from calculators.kernel.spec import (
    Calculator,
    Column,
    CurveChart,
    CurvePoint,
    GpuTable,
    OutputSpec,
    Settings,
    messages_of,
)
from calculators.vocabulary import engines, inputs, roofline, units
from calculators.vocabulary.architecture import KV_HEADS_RULE

N_, NP_ = messages_of(__name__)

_WORKLOAD = inputs.WORKLOAD


def _largest_batch(values: Mapping[str, float]) -> float:
    """The most sequences whose KV caches fit in the GPUs' memory beside the weights (0 if the weights do not)."""
    per_sequence = values["context_tokens"] * roofline.kv_bytes_per_token(values)
    free = values["gpus"] * inputs.seen_bytes(values, 1e9) - roofline.weight_bytes(values)
    return float(max(0, math.floor(free / per_sequence)))


def _fewest_gpus(values: Mapping[str, float]) -> float:
    """The fewest GPUs of this memory that hold the weights and one sequence's KV cache."""
    needed = roofline.weight_bytes(values) + values["context_tokens"] * roofline.kv_bytes_per_token(values)
    return float(max(1, math.ceil(round(needed / inputs.seen_bytes(values, 1e9), 9))))


def on_fewest_gpus(values: Mapping[str, float]) -> dict[str, float]:
    """A GPU of the menu at the fewest of it that hold the model: how many, and how fast they decode.

    Llama-3.1-8B in BF16 at 4,096 tokens on a 24 GB card of 1,008 GB/s (an RTX 4090): one card holds it, and
    reads 16.06 GB of weights and 0.5 GB of cache a token:

    >>> llama = {"params_billion": 8.030261248, "bits_per_weight": 16, "active_params_billion": 8.030261248,
    ...          "layers": 32, "attention_heads": 32, "kv_heads": 8, "head_dim": 128, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 1008, "peak_tflops": 165.2, "gpus": 4, "efficiency": 100,
    ...          "gpu_memory_gb": 24, "context_tokens": 4096, "batch_size": 1}
    >>> row = on_fewest_gpus(llama)
    >>> row["gpus"], round(row["single_tokens_per_second"]), row["max_batch"]
    (1.0, 61, 14.0)
    """
    on = {**values, "gpus": _fewest_gpus(values)}
    context = on["context_tokens"]
    most = _largest_batch(on)
    return {
        "gpus": on["gpus"],
        "gpu_memory_gb": on["gpu_memory_gb"],
        "single_tokens_per_second": 1 / roofline.decode_step(on, 1, context).time,
        "max_batch": most,
        "max_batch_tokens_per_second": most / roofline.decode_step(on, most, context).time,
    }


def curve(values: Mapping[str, float]) -> list[CurvePoint]:
    """Throughput at batches 1, 2, 4, … up to the largest that memory holds.

    >>> llama = {"params_billion": 8.030261248, "bits_per_weight": 16, "active_params_billion": 8.030261248,
    ...          "layers": 32, "attention_heads": 32, "kv_heads": 8, "head_dim": 128, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 3350, "peak_tflops": 989.5, "gpus": 1, "efficiency": 100,
    ...          "gpu_memory_gb": 80, "context_tokens": 4096, "batch_size": 1}
    >>> [(point.count, round(point.total)) for point in curve(llama)][::3]
    [(1.0, 202), (8.0, 1317), (64.0, 4252)]
    """
    points = []
    for batch in doubling_counts(_largest_batch(values)):
        step = roofline.decode_step(values, batch, values["context_tokens"])
        points.append(CurvePoint(batch, batch / step.time, 1 / step.time))
    return points


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the largest batch memory holds, the crossover batch and the throughput at each batch.

    Llama-3.1-8B in BF16 on one 80 GB H100 SXM at 4,096 tokens per sequence: 16.06 GB of weights leave
    63.94 GB, 119 sequences of 0.537 GB of cache; the crossover, 295 FLOPs per byte × 2 bytes ÷ 2 FLOPs
    per parameter, is a batch of 295:

    >>> llama = {"params_billion": 8.030261248, "bits_per_weight": 16, "active_params_billion": 8.030261248,
    ...          "layers": 32, "attention_heads": 32, "kv_heads": 8, "head_dim": 128, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 3350, "peak_tflops": 989.5, "gpus": 1, "efficiency": 100,
    ...          "gpu_memory_gb": 80, "context_tokens": 4096, "batch_size": 1}
    >>> result = compute(llama)
    >>> result["max_batch"], round(result["crossover_batch"])
    (119.0, 295)
    """
    context = values["context_tokens"]
    weights = roofline.weight_bytes(values)
    per_sequence = context * roofline.kv_bytes_per_token(values)
    free = values["gpus"] * inputs.seen_bytes(values, 1e9) - weights
    most = _largest_batch(values)
    one = roofline.decode_step(values, 1, context)
    chosen = roofline.decode_step(values, values["batch_size"], context)
    full = roofline.decode_step(values, max(most, 1), context)
    return {
        "max_batch": most,
        "crossover_batch": roofline.ridge_point(values) * weights / roofline.forward_flops(values, 0),
        "single_tokens_per_second": 1 / one.time,
        "batch_tokens_per_second": values["batch_size"] / chosen.time,
        "max_batch_tokens_per_second": most / full.time,
        "fewest_gpus": _fewest_gpus(values),
        "sequence_memory_gb": per_sequence / 1e9,
        "free_memory_gb": max(free, 0.0) / 1e9,
    }


CALCULATOR = Calculator(
    title=N_("Batch inference throughput"),
    summary=N_(
        "See how an LLM's generation throughput grows with the batch size, up to the largest batch whose KV "
        "cache fits in GPU memory, and the batch where decoding turns from memory-bound to compute-bound.",
    ),
    inputs=(
        *roofline.SERVING_MODEL_INPUTS,
        replace(
            inputs.CONTEXT_TOKENS,
            group=_WORKLOAD,
            help=N_(
                "Prompt plus answer tokens each sequence keeps in its KV cache at the end of its answer.",
            ),
            default="4096",
        ),
        replace(inputs.BATCH_SIZE, group=_WORKLOAD, default="32"),
        roofline.GPU_MEMORY,
        replace(inputs.SEEN_MEMORY, group=roofline.GPU, advanced=True),
        *roofline.SERVING_GPU_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="max_batch",
            label=N_("Largest batch in memory"),
            unit=units.SEQUENCES,
            # Translators: {max_batch} is a number of sequences; {free_memory_gb} and {sequence_memory_gb} are GB.
            sentence=N_(
                "Beside the weights, the GPUs keep {free_memory_gb} GB for KV caches of {sequence_memory_gb} GB "
                "a sequence: at most {max_batch} sequences, nothing left for activations.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="max_batch_tokens_per_second",
            label=N_("Throughput at that batch"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {max_batch_tokens_per_second} and {single_tokens_per_second} are tokens per second.
            sentence=N_(
                "That batch generates at most {max_batch_tokens_per_second} tokens/s, against "
                "{single_tokens_per_second} tokens/s for a single sequence.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="batch_tokens_per_second",
            label=N_("Throughput at your batch"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {batch_tokens_per_second} is tokens per second, {batch_size} a number of sequences.
            sentence=N_(
                "A batch of {batch_size} sequences generates at most {batch_tokens_per_second} tokens/s.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="fewest_gpus",
            label=N_("Fewest GPUs that hold it"),
            unit=units.GPUS,
            # Translators: {fewest_gpus} is a whole number of GPUs, {gpu_memory_gb} GB each; {context_tokens} tokens.
            sentence=NP_(
                "{fewest_gpus} GPU of {gpu_memory_gb} GB holds the weights and the KV cache of one sequence of "
                "{context_tokens} tokens.",
                "{fewest_gpus} GPUs of {gpu_memory_gb} GB each hold the weights and the KV cache of one sequence "
                "of {context_tokens} tokens.",
                count="fewest_gpus",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="crossover_batch",
            label=N_("Crossover batch"),
            unit=units.SEQUENCES,
            # Translators: {crossover_batch} is a number of sequences.
            sentence=N_(
                "Counting the weights alone, decoding turns compute-bound at a batch of {crossover_batch}: "
                "the GPU's peak FLOP/s ÷ bandwidth, times the bytes per parameter, ÷ 2 FLOPs per parameter. "
                "Reading the KV caches pushes it higher.",
            ),
            unknown=N_(
                "The GPU's compute peak is not given (its vendor may publish none): the speeds above then count "
                "memory bandwidth alone, and at a large batch compute may lower them.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    rules=(KV_HEADS_RULE, inputs.SEEN_MEMORY_RULE),
    updated="2026-12-02",
    formulas=(
        r"b_{max} = \left\lfloor \frac{n \cdot M - P \cdot Q / 8}{s \cdot m_{token}} \right\rfloor",
        r"b^{*} = \frac{F}{B} \cdot \frac{P \cdot Q / 8}{2N}",
    ),
    related=("inference-throughput", "inference-latency", "kv-cache-size", "llm-inference-vram", "gpu-count"),
    gpu_table=GpuTable(
        title=N_("Every GPU in the menu, at the fewest that hold this model, fewest first"),
        note=N_(
            "Each row puts that GPU's datasheet memory, bandwidth and peak in place of yours, with as many of them "
            "as hold the weights and one sequence's cache, their memory and bandwidth added up as for your GPUs. "
            "Speeds are the roofline's ceilings at your efficiency; for a GPU whose vendor publishes no compute peak "
            "(Apple's), memory bandwidth alone bounds them.",
        ),
        columns=(
            Column("gpus", N_("GPUs needed")),
            Column("gpu_memory_gb", N_("GB each")),
            Column("single_tokens_per_second", N_("Tokens/s, one sequence")),
            Column("max_batch", N_("Largest batch")),
            Column("max_batch_tokens_per_second", N_("Tokens/s at that batch")),
        ),
        row=on_fewest_gpus,
        order=lambda row: (row["gpus"], -row["single_tokens_per_second"]),
    ),
    settings=Settings(
        # Translators: {tool} is a serving engine: vLLM, SGLang, llama.cpp or Ollama.
        title=N_("Your GPUs, context and batch as {tool} takes them"),
        note=N_(
            "Put your model's Hub id in place of ORG/MODEL (llama.cpp: its GGUF file). vLLM and SGLang bound each "
            "sequence's context; llama.cpp and Ollama allocate one context for all the sequences served at once, so "
            "theirs is your context times your batch. An 8-bit cache is each engine's own: FP8 in vLLM and SGLang, "
            "q8_0 in llama.cpp and Ollama. 4-bit weights come from a checkpoint quantized beforehand, which brings "
            "its own settings.",
        ),
        write=engines.serving_settings,
    ),
    chart=CurveChart(
        points=curve,
        # Translators: {largest} is a number of sequences, {low} and {high} numbers of tokens per second.
        title=N_(
            "Throughput from a batch of 1 to {largest} sequences, the most memory holds: {low} to {high} tokens/s.",
        ),
        note=N_(
            "Bars: tokens per second for the whole batch, at batches doubling up to the largest that fits.",
        ),
        columns=(
            N_("Sequences"),
            N_("Tokens/s for the batch"),
            N_("Tokens/s per sequence"),
        ),
    ),
)
