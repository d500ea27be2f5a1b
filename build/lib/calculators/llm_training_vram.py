"""LLM training VRAM for a full fine-tune: model state plus activations.

Formula (Rajbhandari et al., "ZeRO", arXiv:1910.02054, §3.1): mixed-precision
Adam keeps 2Ψ bytes of fp16 weights, 2Ψ of fp16 gradients and 12Ψ of fp32
optimizer state (master weights, momentum, variance): 16 bytes per parameter.
Model state M = N·B GB for N billion parameters at B bytes each; total V = M + A.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from .spec import N_, Calculator, Choice, InputSpec, Kind, OutputSpec

SLUG = "llm-training-vram"


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the model-state memory and the total, in GB.

    The seed's worked examples (7 B parameters, mixed-precision Adam), and
    ZeRO §3.1's GPT-2 1.5 B, which "requires at least 24 GB":

    >>> compute({"params_billion": 7, "bytes_per_param": 16, "activation_gb": 0})
    {'model_state_gb': 112, 'total_vram_gb': 112}
    >>> compute({"params_billion": 7, "bytes_per_param": 16, "activation_gb": 20})
    {'model_state_gb': 112, 'total_vram_gb': 132}
    >>> compute({"params_billion": 1.5, "bytes_per_param": 16, "activation_gb": 0})["model_state_gb"]
    24.0
    """
    model_state = values["params_billion"] * values["bytes_per_param"]
    return {"model_state_gb": model_state, "total_vram_gb": model_state + values["activation_gb"]}


CALCULATOR = Calculator(
    slug=SLUG,
    category="training",
    title=N_("llm-training-vram", "LLM training VRAM"),
    summary=N_(
        "llm-training-vram",
        "Estimate the GPU memory a full fine-tune of a large language model needs, from its parameter "
        "count, the optimizer's bytes per parameter (16 for mixed-precision Adam) and your activation memory.",
    ),
    inputs=(
        InputSpec(
            name="params_billion",
            kind=Kind.DECIMAL,
            group=N_("llm-training-vram", "Model"),
            label=N_("llm-training-vram", "Parameters"),
            help=N_(
                "llm-training-vram",
                "The model's size in billions of parameters: 7 for a 7B model. A full fine-tune updates "
                "every one of them, so each carries its weight, its gradient and its optimizer state.",
            ),
            unit=N_("llm-training-vram", "billion"),
            default="7",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100_000),
            fraction_digits=3,
        ),
        InputSpec(
            name="bytes_per_param",
            kind=Kind.CHOICE,
            group=N_("llm-training-vram", "Optimizer"),
            label=N_("llm-training-vram", "Memory per parameter"),
            help=N_(
                "llm-training-vram",
                "Bytes each parameter costs across weights, gradients and optimizer state: 16 for mixed-precision "
                "Adam, about 12 in total with 8-bit Adam, about 8 for SGD with momentum in pure 16-bit training. "
                "The article explains where each figure comes from.",
            ),
            default="16",
            choices=(
                Choice("16", N_("llm-training-vram", "Mixed-precision Adam (16 bytes per parameter)")),
                Choice("12", N_("llm-training-vram", "8-bit Adam (12 bytes per parameter)")),
                Choice("8", N_("llm-training-vram", "SGD with momentum (8 bytes per parameter)")),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="activation_gb",
            kind=Kind.DECIMAL,
            group=N_("llm-training-vram", "Activations"),
            label=N_("llm-training-vram", "Activation memory"),
            help=N_(
                "llm-training-vram",
                "Memory the forward pass keeps for the backward pass, in GB. It depends on batch size and "
                "sequence length rather than on the parameter count, so it is entered on its own; leave 0 "
                "to see the model state alone.",
            ),
            unit=N_("llm-training-vram", "GB"),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(1_000_000),
            fraction_digits=3,
        ),
    ),
    outputs=(
        OutputSpec(
            name="total_vram_gb",
            label=N_("llm-training-vram", "Total VRAM"),
            unit=N_("llm-training-vram", "GB"),
            # Translators: {total_vram_gb}, {model_state_gb} and {activation_gb} are formatted numbers of GB.
            sentence=N_(
                "llm-training-vram",
                "A full fine-tune needs about {total_vram_gb} GB: {model_state_gb} GB of model state "
                "plus {activation_gb} GB of activations.",
            ),
        ),
        OutputSpec(
            name="model_state_gb",
            label=N_("llm-training-vram", "Model state"),
            unit=N_("llm-training-vram", "GB"),
            # Translators: {params_billion} is billions of parameters (hence × 10⁹), {bytes_per_param} bytes
            # per parameter, {model_state_gb} their product in GB; all are formatted numbers.
            sentence=N_(
                "llm-training-vram",
                "Weights, gradients and optimizer state take {params_billion} × 10⁹ parameters × "
                "{bytes_per_param} bytes = {model_state_gb} GB. This part is fixed once the model and "
                "the optimizer are chosen.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"M = N \cdot B", r"V = M + A"),
    related=("gradient-accumulation-memory",),
)
