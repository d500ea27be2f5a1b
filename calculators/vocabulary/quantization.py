"""What a quantized checkpoint stores per weight, read from its config.json's `quantization_config` alone.

Each format keeps its quantized linear layers as low-bit values plus the scales (and zero points) that restore
them, with a layout its library fixes; the rest of the model (embeddings, norms, routers, the output head and
whatever `modules_to_not_convert` or `ignore` names) stays in the checkpoint's own dtype. The layouts:

- compressed-tensors (`quant_method` "compressed-tensors", llm-compressor's output): `config_groups` give each
  group's `num_bits`, `strategy` (tensor, channel, group, tensor_group, block) and `group_size` or
  `block_structure`; "pack-quantized" packs the values into int32 words, "float-quantized" keeps FP8 bytes,
  "naive-quantized" one byte per value; scales are in the model's dtype unless `scale_dtype` says otherwise, and
  an asymmetric scheme adds a zero point per scale, packed alike (`compressors/quantized_compressors/`).
- FP8 with block scales (`quant_method` "fp8", DeepSeek-V3's and transformers' FineGrainedFP8): an FP8 byte per
  weight and an fp32 `weight_scale_inv` per `weight_block_size` block (128 × 128).
- GPTQ (`gptq`): `bits`-bit values packed in int32, per group of `group_size` input rows an fp16 scale and a
  packed zero point for every output column, and an int32 `g_idx` per input row (AutoGPTQ's QuantLinear).
- AWQ (`awq`): packed `bits`-bit values, per group an fp16 scale and a packed zero point (AutoAWQ's WQLinear).
- bitsandbytes (`bitsandbytes`): 4-bit NF4/FP4 in blocks of 64 with an fp32 absmax each, or with double
  quantization an 8-bit absmax and an fp32 one per 256 blocks; LLM.int8 keeps an int8 per weight and an fp32
  scale (`SCB`) per output row.
- MXFP4 (`mxfp4`, gpt-oss): two 4-bit values per byte and an 8-bit shared exponent per 32 (the OCP MX format),
  for the experts; gpt-oss's `modules_to_not_convert` keeps attention, routers, embeddings and head in BF16.

A layer's input width, which per-row and per-column terms divide by, is taken as the hidden size: its other
widths change those terms by less than a thousandth of a bit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .architecture import ParameterCount

__all__ = ["Quantization", "read_quantization", "stored_bits"]

_QUANTIZED = ("attention", "dense_mlp", "shared_experts", "routed_experts")
"""The `ParameterCount` kinds that are linear layers a format quantizes (routers and norms it leaves alone)."""
_KEPT_BY = MappingProxyType({"attention": ("self_attn", ".attn", "attention"), "shared_experts": ("shared_expert",),
                             "routed_experts": ("experts",)})  # fmt: skip
"""Module names that keep a kind out of the quantization when `modules_to_not_convert` or `ignore` lists them (an
MLP is kept out only by its own name: gpt-oss lists `mlp.router`, which is not its MLP)."""
_DTYPE_BITS = MappingProxyType(
    {"float32": 32.0, "float16": 16.0, "bfloat16": 16.0, "float8_e4m3fn": 8.0, "uint8": 8.0, "int8": 8.0}
)


@dataclass(frozen=True)
class Quantization:
    """A checkpoint's quantization: its method as the config names it, the bits a quantized weight takes with its
    scales, the parameter kinds quantized, and the GPU memory planner's `weight_format` it is (-1: none)."""

    method: str
    bits: float
    parts: frozenset[str]
    weight_format: float = -1.0


def read_quantization(config: Mapping[str, object], hidden: float) -> Quantization | None:
    """Read `quantization_config`: None without one, bits 0 for a method whose layout is not known here.

    >>> fp8 = read_quantization({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}, 7168)
    >>> fp8.bits, fp8.weight_format, sorted(fp8.parts)
    (8.001953125, 6.0, ['attention', 'dense_mlp', 'routed_experts', 'shared_experts'])
    >>> read_quantization({"quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128}}, 4096).bits
    4.15625
    """
    settings = config.get("quantization_config")
    if not isinstance(settings, Mapping):
        return None
    method = str(settings.get("quant_method", ""))
    if method == "compressed-tensors":
        bits, weight_format, skipped = _compressed_tensors(settings, hidden)
    elif method == "fp8":
        rows, columns = _pair(settings.get("weight_block_size"), (128, 128))
        bits, weight_format, skipped = 8 + 32 / (rows * columns), 6.0, settings.get("modules_to_not_convert")
    elif method == "fbgemm_fp8":
        bits, weight_format, skipped = 8 + 32 / hidden, -1.0, settings.get("modules_to_not_convert")
    elif method in ("gptq", "awq"):
        width = _number(settings.get("bits"), 4)
        group = _number(settings.get("group_size"), 128)
        group = hidden if group <= 0 else group
        zeros = width / group if method == "gptq" or settings.get("zero_point", True) else 0.0
        bits = width + 16 / group + zeros + (32 / hidden if method == "gptq" else 0.0)
        weight_format = {4.0: 4.0, 8.0: 5.0}.get(width, -1.0) if group == 128 else -1.0
        skipped = settings.get("modules_to_not_convert")
    elif method == "bitsandbytes":
        bits, weight_format = _bitsandbytes(settings, hidden)
        skipped = settings.get("llm_int8_skip_modules")
    elif method == "mxfp4":
        bits, weight_format, skipped = 4 + 8 / 32, -1.0, settings.get("modules_to_not_convert")
    else:
        return Quantization(method, 0.0, frozenset())
    # transformers' Mxfp4 quantizes the experts only (its Mxfp4GptOssExperts); the other formats every linear layer.
    kinds = ("routed_experts",) if method == "mxfp4" else _QUANTIZED
    parts = frozenset(kind for kind in kinds if not _skipped(kind, skipped))
    return Quantization(method, bits, parts, weight_format)


def stored_bits(quantization: Quantization, count: ParameterCount, dtype_bits: float) -> float:
    """The bits the checkpoint stores per parameter, over all of them: quantized kinds at the format's bits, the rest
    at the checkpoint's dtype (`dtype_bits`).

    >>> count = ParameterCount(embedding=1e9, lookup_tables=5e8, attention=1e9, norms=0, dense_mlp=2e9, routers=0,
    ...                        shared_experts=0, routed_experts=0, active_routed_experts=0)
    >>> stored_bits(Quantization("awq", 4.15625, frozenset({"attention", "dense_mlp"})), count, 16)
    7.1171875
    """
    quantized = sum(float(getattr(count, kind)) for kind in quantization.parts)
    return (quantized * quantization.bits + (count.total - quantized) * dtype_bits) / count.total


def _compressed_tensors(settings: Mapping[str, object], hidden: float) -> tuple[float, float, object]:
    """The bits a weight of compressed-tensors' first quantized group takes, its planner format, and what it ignores."""
    groups = settings.get("config_groups")
    group = next(
        (g for g in groups.values() if isinstance(g, Mapping) and isinstance(g.get("weights"), Mapping)), None
    ) if isinstance(groups, Mapping) else None  # fmt: skip
    if group is None:
        return 0.0, -1.0, None
    weights: Mapping[str, object] = group["weights"]
    width = _number(weights.get("num_bits"), 8)
    packing = str(group.get("format") or settings.get("format") or "")
    stored = width if packing.endswith("pack-quantized") else max(width, 8.0)
    scale = _DTYPE_BITS.get(str(weights.get("scale_dtype") or "").removeprefix("torch."), 16.0)
    strategy = str(weights.get("strategy", "tensor"))
    if strategy in ("group", "tensor_group"):
        per_scale = _number(weights.get("group_size"), 128)
    elif strategy == "block":
        rows, columns = _pair(weights.get("block_structure"), (128, 128))
        per_scale = rows * columns
    elif strategy == "channel":
        per_scale = hidden
    else:
        per_scale = float("inf")  # one scale for the whole layer
    zeros = 0.0 if weights.get("symmetric", True) else stored / per_scale
    bits = stored + scale / per_scale + zeros
    formats = {
        (4.0, "group", 128.0, "int"): 4.0,
        (8.0, "group", 128.0, "int"): 5.0,
        (8.0, "block", 16384.0, "float"): 6.0,
    }
    key = (width, strategy, per_scale, str(weights.get("type", "int")))
    return bits, formats.get(key, -1.0), settings.get("ignore")


def _bitsandbytes(settings: Mapping[str, object], hidden: float) -> tuple[float, float]:
    """The bits a weight takes in bitsandbytes' 4-bit or 8-bit layout, and the planner's format."""
    if settings.get("load_in_4bit"):
        if settings.get("bnb_4bit_use_double_quant"):
            return 4 + 8 / 64 + 32 / (64 * 256), 3.0
        return 4 + 32 / 64, 2.0
    if settings.get("load_in_8bit"):
        return 8 + 32 / hidden, 1.0
    return 0.0, -1.0


def _skipped(kind: str, skipped: object) -> bool:
    """Whether a kind's modules are named in a list of modules kept out of the quantization."""
    if not isinstance(skipped, list):
        return False
    names = [str(name).removesuffix("$").removesuffix(".*") for name in skipped]
    if kind == "dense_mlp":
        return any(name.endswith("mlp") for name in names)
    return any(part in name for name in names for part in _KEPT_BY[kind])


def _number(value: object, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _pair(value: object, default: tuple[int, int]) -> tuple[float, float]:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and v > 0 for v in value):
        return float(value[0]), float(value[1])
    return float(default[0]), float(default[1])
