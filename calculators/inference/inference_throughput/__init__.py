"""Inference throughput: the tokens per second a GPU can generate, from the roofline (`vocabulary/roofline.py`).

A decode step reads the weights and the batch's KV cache and is bound by memory bandwidth; its time per
output token (TPOT) is bytes ÷ bandwidth until the batch's FLOPs take longer. Databricks ("LLM Inference
Performance Engineering: Best Practices", 2023) defines model bandwidth utilization (MBU) from the same
bytes: (parameter bytes + KV cache bytes) ÷ TPOT ÷ peak bandwidth.

The step's FLOPs are 2N per sequence for the weights plus 4·L·s·d_attn for attention: the new token's query
meets all s cached keys and weighs all s cached values, 2·s·d_attn each a layer (Hoffmann et al.,
arXiv:2203.15556, Appendix F; Austin et al., "How to Scale Your Model", 2025, "All About Transformer
Inference", where attention's FLOPs per byte during generation come to about 1 for multi-head attention).
Kaplan et al.'s 2·L·s·d_attn (arXiv:2001.08361, Table 1) is the average over a causal pass, right for
the prefill only (`roofline.forward_flops`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, OutputSpec, messages_of
from calculators.vocabulary import inputs, roofline
from calculators.vocabulary.architecture import KV_HEADS_RULE

N_, NP_ = messages_of(__name__)

_WORKLOAD = inputs.WORKLOAD


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the decode and prefill throughput, the time per output token and the step's FLOPs per byte.

    Databricks' example: a 7B model in 16 bits moves 14 GB per token; at an MBU of 50 percent of 2 TB/s
    that is a TPOT of 14 ms, about 71 tokens per second:

    >>> seven = {"params_billion": 7, "bits_per_weight": 16, "active_params_billion": 7, "layers": 32,
    ...          "attention_heads": 32, "kv_heads": 32, "head_dim": 128, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 2000, "peak_tflops": 312, "gpus": 1, "efficiency": 50,
    ...          "context_tokens": 1, "batch_size": 1}
    >>> result = compute(seven)
    >>> round(result["time_per_token_ms"], 2), round(result["sequence_tokens_per_second"], 1)
    (14.0, 71.4)
    """
    batch, context = values["batch_size"], values["context_tokens"]
    step = roofline.decode_step(values, batch, context)
    fill = roofline.prefill(values, batch, context)
    return {
        "batch_tokens_per_second": batch / step.time,
        "sequence_tokens_per_second": 1 / step.time,
        "time_per_token_ms": 1000 * step.time,
        "step_gb": step.bytes / 1e9,
        "intensity": step.flops / step.bytes,
        "ridge_point": roofline.ridge_point(values),
        "prefill_tokens_per_second": batch * context / fill.time,
    }


CALCULATOR = Calculator(
    title=N_("Inference throughput"),
    summary=N_(
        "Work out the upper bound on the tokens per second a model generates on a GPU, per sequence and for "
        "the batch, from the bytes each decode step reads and the GPU's memory bandwidth and peak FLOP/s.",
    ),
    inputs=(
        *roofline.SERVING_MODEL_INPUTS,
        replace(
            inputs.CONTEXT_TOKENS,
            group=_WORKLOAD,
            help=N_(
                "Tokens each sequence holds in its KV cache when the step runs: prompt plus tokens generated so far.",
            ),
            default="4096",
        ),
        replace(inputs.BATCH_SIZE, group=_WORKLOAD),
        *roofline.SERVING_GPU_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="batch_tokens_per_second",
            label=N_("Batch throughput"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {batch_tokens_per_second} is tokens per second, {batch_size} a number of sequences.
            sentence=N_(
                "The {batch_size} sequences together generate at most {batch_tokens_per_second} tokens/s.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="sequence_tokens_per_second",
            label=N_("Per sequence"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {sequence_tokens_per_second} is tokens per second, {time_per_token_ms} milliseconds.
            sentence=N_(
                "Each sequence gets one token every {time_per_token_ms} ms, at most {sequence_tokens_per_second} "
                "tokens/s.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="time_per_token_ms",
            label=N_("Time per output token"),
            unit=roofline.MILLISECONDS,
            # Translators: {step_gb} is gigabytes, {time_per_token_ms} milliseconds.
            sentence=N_(
                "Each decode step reads {step_gb} GB, the weights and the batch's KV cache, and takes "
                "{time_per_token_ms} ms.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="intensity",
            label=N_("Arithmetic intensity"),
            unit=N_("FLOPs per byte"),
            # Translators: {intensity} and {ridge_point} are FLOPs per byte.
            sentence=N_(
                "The step does {intensity} FLOPs per byte it reads. The GPU's ridge point, peak FLOP/s ÷ "
                "bandwidth, is {ridge_point} FLOPs per byte: below it decode is bound by memory bandwidth, "
                "above it by compute.",
            ),
            # Translators: {intensity} is FLOPs per byte.
            unknown=N_(
                "The step does {intensity} FLOPs per byte it reads. Without the GPU's compute peak its ridge point "
                "is not known, so the speeds above count memory bandwidth alone: at a large batch, compute may lower "
                "them.",
            ),
        ),
        OutputSpec(
            name="prefill_tokens_per_second",
            label=N_("Prefill throughput"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {prefill_tokens_per_second} is tokens per second, {context_tokens} a number of tokens.
            sentence=N_(
                "Reading prompts of {context_tokens} tokens for the whole batch, bound by compute, goes at "
                "most at {prefill_tokens_per_second} tokens/s.",
            ),
            unknown=N_(
                "Reading prompts is bound by compute, and the GPU's compute peak is not given (its vendor may "
                "publish none).",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    rules=(KV_HEADS_RULE,),
    updated="2026-12-06",
    formulas=(
        r"t_{token} = \max\left(\frac{P \cdot Q / 8 + b \cdot s \cdot m_{token}}{B},\ "
        r"\frac{b \cdot (2N + 4 L s d_{attn})}{F}\right)",
        r"I^{*} = \frac{F}{B}",
    ),
    related=(
        "inference-latency",
        "batch-inference-throughput",
        "flops-per-token",
        "kv-cache-size",
        "llm-inference-vram",
    ),
)
