"""Quantized model size: the memory (or file size) of weights stored at a given number of bits each.

Formula: bytes = parameters × bits per weight / 8. The bits per weight of a format include its
scales: llama.cpp's block formats (ggml-common.h; PR #1684) store Q4_K in 144 bytes per 256
weights, 4.5 bits; GPTQ's 4-bit layout with groups of 128 adds a 16-bit scale and a 4-bit zero
per group, 4 + 16/128 + 4/128 = 4.15625 bits. Whole-model "mixes" such as Q4_K_M keep some
tensors at higher precision, so their effective bits per weight are higher (4.89 for Llama-3.1-8B).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, ChartPart, MemoryChart, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)


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
    title=N_("Quantized model size"),
    summary=N_(
        "Find how much memory or disk a model's weights take once quantized, from the parameter count and "
        "the format's bits per weight, scales included.",
    ),
    inputs=(
        replace(inputs.PARAMS_BILLION, group=N_("Model")),
        replace(
            inputs.BITS_PER_WEIGHT,
            group=N_("Format"),
            help=N_(
                "Average bits each weight takes, scales included: 16 for FP16 or BF16, 8.5 for Q8_0, "
                "4.5 for Q4_K, 4.15625 for 4-bit GPTQ or AWQ with groups of 128. The default, 4.8944, "
                "is Llama-3.1-8B at Q4_K_M.",
            ),
        ),
        replace(
            inputs.MEMORY_UNIT,
            group=N_("Format"),
            help=N_(
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the unit llama.cpp and PyTorch report.",
            ),
            default="gib",
        ),
    ),
    outputs=(
        OutputSpec(
            name="model_size",
            label=N_("Size of the weights"),
            unit_choice="memory_unit",
            # Translators: {params_billion} is billions of parameters, {bits_per_weight} bits per weight,
            # {model_size} the result and {memory_unit_label} its unit (GB or GiB); all already formatted.
            sentence=N_(
                "{params_billion} × 10⁹ parameters × {bits_per_weight} bits ÷ 8 = {model_size} "
                "{memory_unit_label} of weights.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"S = \frac{N \cdot b}{8}",),
    related=("kv-cache-size", "llm-training-vram"),
    chart=MemoryChart(parts=(ChartPart("model_size", N_("Weights")),)),
)
