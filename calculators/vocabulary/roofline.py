"""The roofline of transformer inference, said once for the inference calculators.

A step of the model takes at least the time to read its bytes from memory and at least the time to do
its FLOPs (Williams, Waterman and Patterson, "Roofline", CACM 2009): t = max(bytes ÷ bandwidth,
FLOPs ÷ peak). A decode step of a batch reads every weight once and each sequence's KV cache
(Pope et al., "Efficiently Scaling Transformer Inference", arXiv:2211.05102, §2). Its one new token per
sequence does 2N FLOPs for the weights and attends to every one of the n_ctx cached tokens: the query-key
product and the weighted sum of values each cost 2·n_ctx·d_attn per layer, 4·L·n_ctx·d_attn in all
(Hoffmann et al., "Training Compute-Optimal Large Language Models", arXiv:2203.15556, Appendix F, per
query; Austin et al., "How to Scale Your Model", 2025, "All About Transformer Inference": 4BSTD FLOPs
for T new tokens over S cached, so that attention's FLOPs per byte during generation are about 1).
Prefill pushes the whole prompt through in one causal pass: its token i attends to i tokens, which
averages to Kaplan et al.'s 2·L·n_ctx·d_attn per token (arXiv:2001.08361, Table 1). Prefill does many
FLOPs per byte and is bound by compute; decode does about one FLOP per byte read at batch 1 and is
bound by memory bandwidth until the batch reaches the machine's ridge point, peak FLOP/s ÷ bytes/s.

A GPU whose vendor publishes no compute peak (Apple's M-series) has a peak of 0 on the serving pages: reading memory
still takes its time, which bounds a decode step from below, but a prompt's pass, bound by compute, and the ridge
point are not known (NaN, which the page writes as "Not known").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from calculators.kernel.spec import N_, Choice, InputSpec, Kind

from . import inputs, units

__all__ = [
    "ACTIVE_PARAMS",
    "BANDWIDTH",
    "EFFICIENCY",
    "FP8_PEAK_TFLOPS",
    "GPU",
    "GPUS",
    "GPU_MEMORY",
    "MATRIX_PRECISION",
    "MILLISECONDS",
    "PEAK_TFLOPS",
    "SERVING_GPU_INPUTS",
    "SERVING_MODEL_INPUTS",
    "SERVING_PEAK_TFLOPS",
    "TOKENS_PER_SECOND",
    "WEIGHT_BITS",
    "WEIGHT_PARAMS",
    "Step",
    "decode_flops",
    "decode_step",
    "forward_flops",
    "kv_bytes_per_token",
    "peak_tflops",
    "prefill",
    "ridge_point",
    "weight_bytes",
]

GPU = N_("input", "GPU")
TOKENS_PER_SECOND = N_("input", "tokens/s")
MILLISECONDS = N_("input", "ms")

WEIGHT_PARAMS = replace(
    inputs.PARAMS_BILLION,
    help=N_(
        "input",
        "Every parameter stored, in billions: each decode step reads them all from memory. For a "
        "mixture-of-experts model that is all the experts (a batch of any size touches most of them). "
        "The default is Llama-3.1-8B's exact count.",
    ),
)
ACTIVE_PARAMS = replace(
    inputs.PARAMS_BILLION,
    name="active_params_billion",
    label=N_("input", "Active parameters"),
    help=N_(
        "input",
        "Parameters each token passes through, in billions: all of them for a dense model, the shared "
        "layers and the routed experts for a mixture-of-experts model. They set the FLOPs.",
    ),
    preset="model.active_params_billion",
)
WEIGHT_BITS = replace(inputs.BITS_PER_WEIGHT, default="16")
BANDWIDTH = InputSpec(
    name="bandwidth_gb_s",
    kind=Kind.DECIMAL,
    group=GPU,
    label=N_("input", "Memory bandwidth per GPU"),
    help=N_("input", "The datasheet's peak memory bandwidth: 3,350 GB/s for an H100 SXM, 2,039 for an A100 80GB SXM."),
    default="3350",
    unit=N_("input", "GB/s"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(1_000_000),
    fraction_digits=3,
    preset="gpu.bandwidth_gb_s",
)
PEAK_TFLOPS = InputSpec(
    name="peak_tflops",
    kind=Kind.DECIMAL,
    group=GPU,
    label=N_("input", "Peak compute per GPU"),
    help=N_(
        "input",
        "The datasheet's dense BF16 tensor peak, without sparsity: 989.5 TFLOP/s for an H100 SXM, 312 for an A100.",
    ),
    default="989.5",
    unit=units.TFLOP_S,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(1_000_000),
    fraction_digits=3,
    preset="gpu.bf16_tflops",
)
SERVING_PEAK_TFLOPS = replace(
    PEAK_TFLOPS,
    help=N_(
        "input",
        "The datasheet's dense BF16 tensor peak, without sparsity: 989.5 TFLOP/s for an H100 SXM, 312 for an A100. "
        "0 where the vendor publishes none, as Apple does: decoding is then bounded by memory bandwidth alone, and "
        "what compute sets, the prompt's pass and the ridge point, is not known.",
    ),
    minimum_exclusive=False,
)
"""The serving pages' peak, which may be 0: a decode step's memory time bounds it from below without one."""
FP8_PEAK_TFLOPS = InputSpec(
    name="fp8_peak_tflops",
    kind=Kind.DECIMAL,
    group=GPU,
    label=N_("input", "FP8 peak compute per GPU"),
    help=N_(
        "input",
        "The datasheet's dense FP8 tensor peak, without sparsity: 1,979 TFLOP/s for an H100 SXM; 0 for a GPU "
        "without FP8 tensor cores.",
    ),
    default="1979",
    unit=units.TFLOP_S,
    minimum=Decimal(0),
    maximum=Decimal(1_000_000),
    fraction_digits=3,
    preset="gpu.fp8_tflops",
    optional=True,
    advanced=True,
)
MATRIX_PRECISION = replace(
    inputs.choice_input(
        "matrix_precision",
        GPU,
        N_("input", "Matrix products in"),
        N_(
            "input",
            "FP8 multiplies FP8 weights by FP8 activations (W8A8) at the FP8 peak where the GPU has FP8 tensor "
            "cores (Ada, Hopper, Blackwell, MI300 and later); on older GPUs vLLM runs an FP8 checkpoint as "
            "weight-only FP8 and multiplies in BF16, at the BF16 peak.",
        ),
        "bf16",
        (Choice("bf16", N_("input", "BF16 or FP16"), number="0"), Choice("fp8", N_("input", "FP8 (W8A8)"), number="1")),
    ),
    optional=True,
    advanced=True,
)
GPU_MEMORY = InputSpec(
    name="gpu_memory_gb",
    kind=Kind.DECIMAL,
    group=GPU,
    label=N_("input", "Memory per GPU"),
    help=N_("input", "The GPU's memory as it is sold, in GB: 80 for an H100 SXM."),
    default="80",
    unit=units.GB,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(1_000_000),
    fraction_digits=3,
    preset="gpu.memory_gb",
)
GPUS = InputSpec(
    name="gpus",
    kind=Kind.INTEGER,
    group=GPU,
    label=N_("input", "GPUs serving the model"),
    help=N_(
        "input",
        "GPUs one copy of the model is split across with tensor parallelism: their bandwidth and peak add up. "
        "Communication between them is left out.",
    ),
    default="1",
    unit=units.GPUS,
    minimum=Decimal(1),
    maximum=Decimal(10_000_000),
    fraction_digits=0,
)
EFFICIENCY = InputSpec(
    name="efficiency",
    kind=Kind.DECIMAL,
    group=GPU,
    label=N_("input", "Share of the roofline achieved"),
    help=N_(
        "input",
        "The share of peak bandwidth and peak FLOP/s the serving engine reaches. 100 gives the upper bound; "
        "real engines reach less, often 50 to 80.",
    ),
    default="100",
    unit=units.PERCENT,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100),
    fraction_digits=2,
)


@dataclass(frozen=True)
class Step:
    """One pass of the model: its bytes read, its FLOPs and the time the roofline allows."""

    bytes: float
    flops: float
    memory_time: float
    compute_time: float

    @property
    def time(self) -> float:
        """The roofline's time: the slower of reading the bytes and doing the FLOPs; reading alone, a lower bound,
        where the compute time is not known (NaN: no peak)."""
        return self.memory_time if math.isnan(self.compute_time) else max(self.memory_time, self.compute_time)

    @property
    def memory_bound(self) -> bool:
        """Whether reading memory, not compute, sets the time (False where the compute time is not known)."""
        return self.memory_time >= self.compute_time


def weight_bytes(values: Mapping[str, float]) -> float:
    """Bytes of weights: parameters × bits per weight ÷ 8."""
    return values["params_billion"] * 1e9 * values["bits_per_weight"] / 8


def kv_bytes_per_token(values: Mapping[str, float]) -> float:
    """Bytes of KV cache one token keeps: 2 (key and value) · L · n_kv · d_head · bytes (vLLM, arXiv:2309.06180)."""
    return 2 * values["layers"] * values["kv_heads"] * values["head_dim"] * values["bytes_per_element"]


def forward_flops(values: Mapping[str, float], context: float) -> float:
    """FLOPs per token of a causal pass over `context` tokens: 2N + 2·L·n_ctx·d_attn (Kaplan et al., Table 1).

    Token i of the pass attends to i tokens, 4·L·i·d_attn FLOPs (the query-key product and the weighted
    values); over n_ctx tokens that averages to 2·L·n_ctx·d_attn a token, Kaplan's term. It is the right
    count for a prompt read in one pass, not for a token decoded after n_ctx cached ones (`decode_flops`).

    GPT-3's shape (96 layers, d_attn 12,288, 2,048 tokens) with Kaplan's non-embedding N = 12·L·d² ≈ 1.74 × 10¹¹:

    >>> gpt3 = {"active_params_billion": 173.946175488, "layers": 96, "attention_heads": 96, "head_dim": 128}
    >>> f"{forward_flops(gpt3, 2048):.4g}"
    '3.527e+11'
    """
    d_attn = values["attention_heads"] * values["head_dim"]
    return 2 * values["active_params_billion"] * 1e9 + 2 * values["layers"] * context * d_attn


def decode_flops(values: Mapping[str, float], context: float) -> float:
    """FLOPs of one token decoded with `context` tokens in its KV cache: 2N + 4·L·n_ctx·d_attn.

    The new token's query meets every cached key (2·n_ctx·d_attn a layer) and weighs every cached value
    (2·n_ctx·d_attn more): Hoffmann et al. (arXiv:2203.15556, Appendix F) count both products per query,
    and Austin et al. ("How to Scale Your Model", "All About Transformer Inference") count 4BSTD for T new
    tokens over S cached ones. No causal mask halves it: every cached token is before the new one.

    The scaling book's LLaMA 2-13B (40 layers, 40 key-value heads of 128, BF16) at 8,192 tokens: a 6.7 GB cache, and
    attention's FLOPs per byte of it "≈ 1" during generation (the weights left out):

    >>> llama = {"active_params_billion": 0, "layers": 40, "attention_heads": 40, "kv_heads": 40,
    ...          "head_dim": 128, "bytes_per_element": 2}
    >>> cache = 8192 * kv_bytes_per_token(llama)
    >>> round(cache / 1e9, 1), decode_flops(llama, 8192) / cache
    (6.7, 1.0)
    """
    d_attn = values["attention_heads"] * values["head_dim"]
    return 2 * values["active_params_billion"] * 1e9 + 4 * values["layers"] * context * d_attn


def peak_tflops(values: Mapping[str, float]) -> float:
    """The peak the matrix products run at: the FP8 peak for W8A8 where the GPU has one, else the BF16 peak.

    vLLM's FP8 guide: "FP8 computation is supported on NVIDIA GPUs with compute capability >= 8.9 (Ada Lovelace,
    Hopper, Blackwell). FP8 models will run on compute capability >= 7.5 (Turing) as weight-only W8A16".

    >>> h100, a100 = {"peak_tflops": 989.5, "fp8_peak_tflops": 1979}, {"peak_tflops": 312, "fp8_peak_tflops": 0}
    >>> peak_tflops(h100), peak_tflops({**h100, "matrix_precision": 1}), peak_tflops({**a100, "matrix_precision": 1})
    (989.5, 1979, 312)
    """
    fp8 = values.get("fp8_peak_tflops", 0.0) if values.get("matrix_precision", 0.0) == 1 else 0.0
    return fp8 or values["peak_tflops"]


def _seconds(values: Mapping[str, float], data: float, flops: float) -> Step:
    share = values["efficiency"] / 100
    bandwidth = values["bandwidth_gb_s"] * 1e9 * values["gpus"] * share
    peak = peak_tflops(values) * 1e12 * values["gpus"] * share
    return Step(data, flops, data / bandwidth, flops / peak if peak else math.nan)


def decode_step(values: Mapping[str, float], batch: float, context: float) -> Step:
    """One decode step of `batch` sequences at `context` tokens each: weights and caches read, one token each.

    Databricks' example: a 7B model in 16 bits moves 14 GB per token; at half of 2 TB/s that takes 14 ms.

    >>> seven = {"params_billion": 7, "bits_per_weight": 16, "active_params_billion": 7, "layers": 32,
    ...          "kv_heads": 32, "head_dim": 128, "attention_heads": 32, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 2000, "peak_tflops": 312, "gpus": 1, "efficiency": 50}
    >>> step = decode_step(seven, 1, 0)
    >>> round(step.time * 1000, 6), step.memory_bound
    (14.0, True)
    """
    data = weight_bytes(values) + batch * context * kv_bytes_per_token(values)
    return _seconds(values, data, batch * decode_flops(values, context))


def prefill(values: Mapping[str, float], batch: float, prompt: float) -> Step:
    """The prompts' single pass: every prompt token's forward FLOPs at the prompt's length, weights read once.

    The pass is causal, so Kaplan's per-token term at n_ctx = the prompt's length is the exact average:
    Σ 4·L·i·d_attn over i = 1 … p is 2·L·p·(p + 1)·d_attn, p tokens of 2·L·p·d_attn to within one token.
    It is bound by compute, so without a peak its time is not known: reading the weights once is a bound too far
    below it to show.

    >>> eight = {"params_billion": 8, "bits_per_weight": 16, "active_params_billion": 8, "layers": 32,
    ...          "attention_heads": 32, "kv_heads": 8, "head_dim": 128, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 800, "peak_tflops": 0, "gpus": 1, "efficiency": 100}
    >>> prefill(eight, 1, 1000).time, round(decode_step(eight, 1, 1000).time * 1000, 2)
    (nan, 20.16)
    """
    data = weight_bytes(values) + batch * prompt * kv_bytes_per_token(values)
    step = _seconds(values, data, batch * prompt * forward_flops(values, prompt))
    return step if not math.isnan(step.compute_time) else replace(step, memory_time=math.nan)


def ridge_point(values: Mapping[str, float]) -> float:
    """FLOPs per byte where a step stops being memory-bound: peak FLOP/s ÷ bandwidth (the efficiency cancels); not
    known without a peak."""
    peak = peak_tflops(values)
    return peak * 1e12 / (values["bandwidth_gb_s"] * 1e9) if peak else math.nan


SERVING_MODEL_INPUTS: tuple[InputSpec, ...] = (
    WEIGHT_PARAMS,
    ACTIVE_PARAMS,
    WEIGHT_BITS,
    inputs.LAYERS,
    inputs.ATTENTION_HEADS,
    inputs.KV_HEADS,
    inputs.HEAD_DIM,
    replace(inputs.BYTES_PER_ELEMENT, label=N_("input", "KV cache precision")),
)
"""The model facts a step's bytes and FLOPs need: weights, the FLOPs' parameters, the KV cache's shape."""
SERVING_GPU_INPUTS: tuple[InputSpec, ...] = (
    BANDWIDTH,
    SERVING_PEAK_TFLOPS,
    GPUS,
    EFFICIENCY,
    FP8_PEAK_TFLOPS,
    MATRIX_PRECISION,
)
"""The machine of the roofline: bandwidth, peak, how many GPUs, the share of both reached, and FP8 matrix products."""
