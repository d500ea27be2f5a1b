"""Quantized model size: the memory (or file size) of weights stored at a given number of bits each.

Formula: bytes = parameters × bits per weight / 8. The bits per weight of a format include its
scales: llama.cpp's block formats (ggml-common.h; PR #1684) store Q4_K in 144 bytes per 256
weights, 4.5 bits; GPTQ's 4-bit layout with groups of 128 adds a 16-bit scale and a 4-bit zero
per group, 4 + 16/128 + 4/128 = 4.15625 bits. Whole-model "mixes" such as Q4_K_M keep some
tensors at higher precision, so their effective bits per weight are higher (4.89 for Llama-3.1-8B).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.core.spec import MEMORY_UNITS, N_, Calculator, ChartPart, InputSpec, Kind, MemoryChart, OutputSpec


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the weights' size in the chosen unit.

    llama.cpp's quantize README, Llama-3.1-8B (8,030,261,248 parameters) at Q4_K_M,
    4.8944 bits per weight: "4.58 GiB".

    >>> round(compute({"params_billion": 8.030261248, "bits_per_weight": 4.8944,
    ...                "memory_unit": 2**30})["model_size"], 2)
    4.58
    """
    size = values["params_billion"] * 1e9 * values["bits_per_weight"] / 8
    return {"model_size": size / values["memory_unit"]}


CALCULATOR = Calculator(
    slug="quantized-model-size",
    category="infrastructure",
    title=N_("quantized-model-size", "Quantized model size"),
    summary=N_(
        "quantized-model-size",
        "Find how much memory or disk a model's weights take once quantized, from the parameter count and "
        "the format's bits per weight, scales included.",
    ),
    inputs=(
        InputSpec(
            name="params_billion",
            kind=Kind.DECIMAL,
            group=N_("quantized-model-size", "Model"),
            label=N_("quantized-model-size", "Parameters"),
            help=N_(
                "quantized-model-size",
                "The model's size in billions of parameters. The default is Llama-3.1-8B's exact count.",
            ),
            unit=N_("quantized-model-size", "billion"),
            default="8.030261248",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100_000),
            fraction_digits=9,
            preset="model.params_billion",
        ),
        InputSpec(
            name="bits_per_weight",
            kind=Kind.DECIMAL,
            group=N_("quantized-model-size", "Format"),
            label=N_("quantized-model-size", "Bits per weight"),
            help=N_(
                "quantized-model-size",
                "Average bits each weight takes, scales included: 16 for FP16 or BF16, 8.5 for Q8_0, "
                "4.5 for Q4_K, 4.15625 for 4-bit GPTQ or AWQ with groups of 128. The default, 4.8944, "
                "is Llama-3.1-8B at Q4_K_M.",
            ),
            unit=N_("quantized-model-size", "bits"),
            default="4.8944",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(64),
            fraction_digits=5,
        ),
        InputSpec(
            name="memory_unit",
            kind=Kind.CHOICE,
            group=N_("quantized-model-size", "Format"),
            label=N_("quantized-model-size", "Memory unit"),
            help=N_(
                "quantized-model-size",
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the unit llama.cpp and PyTorch report.",
            ),
            default="gib",
            choices=MEMORY_UNITS,
            fraction_digits=0,
        ),
    ),
    outputs=(
        OutputSpec(
            name="model_size",
            label=N_("quantized-model-size", "Size of the weights"),
            unit_choice="memory_unit",
            # Translators: {params_billion} is billions of parameters, {bits_per_weight} bits per weight,
            # {model_size} the result and {memory_unit_label} its unit (GB or GiB); all already formatted.
            sentence=N_(
                "quantized-model-size",
                "{params_billion} × 10⁹ parameters × {bits_per_weight} bits ÷ 8 = {model_size} "
                "{memory_unit_label} of weights.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"S = \frac{N \cdot b}{8}",),
    related=("kv-cache-size", "llm-training-vram"),
    chart=MemoryChart(parts=(ChartPart("model_size", N_("quantized-model-size", "Weights")),)),
)
