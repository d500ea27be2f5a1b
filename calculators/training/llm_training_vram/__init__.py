"""LLM training VRAM for a full fine-tune: model state plus activations.

Formula (Rajbhandari et al., "ZeRO", arXiv:1910.02054, §3.1): mixed-precision
Adam keeps 2Ψ bytes of fp16 weights, 2Ψ of fp16 gradients and 12Ψ of fp32
optimizer state (master weights, momentum, variance): 16 bytes per parameter. Pure bf16 training (torchtune's
default precision, "2 bytes per model parameter"; Stas Bekman's transformers PR #21312, "x8 bytes per param")
keeps AdamW's two moments in bf16 beside bf16 weights and gradients: 8 bytes per parameter.
Model state M = N·B GB for N billion parameters at B bytes each; total V = M + A.

Activations are entered by the reader (the seed's formula, A GB), or computed from the model's shape, the
micro-batch and the sequence length with the GPU memory planner's count (`vocabulary/memory.py`: Korthikanti et
al. 2022, Table 2, as transformers keeps them, and the loss's logits).

Advanced, per ZeRO §5 / Fig. 1 (Ψ parameters, N_d data-parallel GPUs, K bytes of
optimizer state per parameter, here K = B - 4 after 2 bytes of 16-bit weights and
2 of 16-bit gradients): stage 1 shards the optimizer state, 4Ψ + KΨ/N_d; stage 2
also the gradients, 2Ψ + (2 + K)Ψ/N_d; stage 3 also the weights, (4 + K)Ψ/N_d.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, ChartPart, Choice, InputSpec, Kind, MemoryChart, OutputSpec, messages_of
from calculators.vocabulary import inputs, memory

N_, NP_ = messages_of(__name__)

_ACTIVATIONS = N_("Activations")
_ENTERED, _COMPUTED = 0.0, 1.0


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the model-state memory, the total and one GPU's share, in the chosen unit (GB by default).

    The seed's worked examples (7 B parameters, mixed-precision Adam), and
    ZeRO §3.1's GPT-2 1.5 B, which "requires at least 24 GB":

    >>> gb = {"bytes_per_param": 16, "memory_unit": 1e9}
    >>> [compute({**gb, "params_billion": 7, "activation_gb": a})["total_vram_gb"] for a in (0, 20)]
    [112.0, 132.0]
    >>> compute({**gb, "params_billion": 1.5, "activation_gb": 0})["model_state_gb"]
    24.0

    ZeRO's Figure 1: 7.5 B parameters on 64 data-parallel GPUs, per GPU, stages 0 to 3
    (the paper prints 120, 31.4, 16.6 and 1.9 GB):

    >>> [round(compute({**gb, "params_billion": 7.5, "activation_gb": 0,
    ...                 "zero_stage": stage, "data_parallel": 64})["per_gpu_vram_gb"], 3) for stage in range(4)]
    [120.0, 31.406, 16.641, 1.875]
    """
    params = values["params_billion"]
    bytes_per_param = values["bytes_per_param"]
    stage = values.get("zero_stage", 0)
    shards = values.get("data_parallel", 1)
    # ZeRO §5: stage 1 shards the optimizer state, stage 2 also the gradients, stage 3 also the weights.
    weights = params * 2 / (shards if stage >= 3 else 1)
    gradients = params * 2 / (shards if stage >= 2 else 1)
    optimizer = params * (bytes_per_param - 4) / (shards if stage >= 1 else 1)
    if values.get("activation_source", _ENTERED) == _COMPUTED:
        activations = memory.activation_memory({**values, "method": memory.FULL}) / 1e9
    else:
        activations = values["activation_gb"]
    gigabytes_per_unit = values["memory_unit"] / 1e9  # exactly 1.0 for GB, so GB results stay exact
    per_gpu = {
        "weights_memory": weights,
        "gradients_memory": gradients,
        "optimizer_memory": optimizer,
        "activations_memory": activations,
    }
    model_state = params * bytes_per_param
    return {
        "model_state_gb": model_state / gigabytes_per_unit,
        "total_vram_gb": (model_state + activations) / gigabytes_per_unit,
        "per_gpu_vram_gb": sum(per_gpu.values()) / gigabytes_per_unit,
        **{name: value / gigabytes_per_unit for name, value in per_gpu.items()},
    }


CALCULATOR = Calculator(
    title=N_("LLM training VRAM"),
    summary=N_(
        "Estimate the GPU memory a full fine-tune of a large language model needs, from its parameter "
        "count, the optimizer's bytes per parameter (16 for mixed-precision Adam) and your activation memory.",
    ),
    inputs=(
        replace(
            inputs.PARAMS_BILLION,
            group=N_("Model"),
            help=N_(
                "The model's size in billions of parameters: 7 for a 7B model. A full fine-tune updates "
                "every one of them, so each carries its weight, its gradient and its optimizer state.",
            ),
            default="7",
            fraction_digits=3,
        ),
        InputSpec(
            name="bytes_per_param",
            kind=Kind.CHOICE,
            group=N_("Optimizer"),
            label=N_("Memory per parameter"),
            help=N_(
                "Bytes each parameter costs across weights, gradients and optimizer state: 16 for mixed-precision "
                "Adam, about 12 in total with 8-bit Adam, 8 for AdamW in pure bf16 (weights, gradients and both "
                "moments in bf16, torchtune's default), about 8 for SGD with momentum. The article explains where "
                "each figure comes from.",
            ),
            default="16",
            choices=(
                Choice("16", N_("Mixed-precision Adam (16 bytes per parameter)")),
                Choice("12", N_("8-bit Adam (12 bytes per parameter)")),
                Choice("bf16-adamw", N_("AdamW in pure bf16 (8 bytes per parameter)"), number="8"),
                Choice("8", N_("SGD with momentum (8 bytes per parameter)")),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="activation_gb",
            kind=Kind.DECIMAL,
            group=_ACTIVATIONS,
            label=N_("Activation memory"),
            help=N_(
                "Memory the forward pass keeps for the backward pass, in GB. It depends on batch size and "
                "sequence length rather than on the parameter count, so it is entered on its own; leave 0 "
                "to see the model state alone.",
            ),
            unit=N_("GB"),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(1_000_000),
            fraction_digits=3,
        ),
        InputSpec(
            name="activation_source",
            kind=Kind.CHOICE,
            group=_ACTIVATIONS,
            label=N_("Activations from"),
            help=N_(
                "Enter the activation memory you measured, or have it computed from the model's shape, the "
                "micro-batch and the sequence length, as the GPU memory planner counts it: each layer's saved "
                "tensors and the loss's logits. The shape and the batch are in the advanced options.",
            ),
            default="entered",
            choices=(
                Choice("entered", N_("the figure entered above"), number="0"),
                Choice("computed", N_("the model's shape, micro-batch and sequence length"), number="1"),
            ),
            fraction_digits=0,
            optional=True,
        ),
        InputSpec(
            name="zero_stage",
            kind=Kind.CHOICE,
            group=N_("Sharding across GPUs (ZeRO)"),
            label=N_("ZeRO stage"),
            help=N_(
                "How much of the model state DeepSpeed ZeRO (or PyTorch FSDP) splits across the data-parallel "
                "GPUs: stage 1 the optimizer state, stage 2 also the gradients, stage 3 also the weights.",
            ),
            default="0",
            choices=(
                Choice("0", N_("No sharding")),
                Choice("1", N_("Stage 1: optimizer state")),
                Choice("2", N_("Stage 2: optimizer state and gradients")),
                Choice("3", N_("Stage 3: optimizer state, gradients and weights")),
            ),
            fraction_digits=0,
            advanced=True,
        ),
        replace(
            inputs.DATA_PARALLEL,
            group=N_("Sharding across GPUs (ZeRO)"),
            help=N_(
                "GPUs the model state is sharded across. Without sharding each of them holds a full copy.",
            ),
            advanced=True,
        ),
        *inputs.advanced_groups(
            (inputs.MODEL, inputs.MODEL_SHAPE),
            (inputs.BATCH_SETUP, (replace(inputs.MICRO_BATCH, default="1"), inputs.SEQ_LEN)),
            (inputs.MEMORY_SAVERS, inputs.MEMORY_SAVER_INPUTS),
        ),
        replace(
            inputs.MEMORY_UNIT,
            group=_ACTIVATIONS,
            help=N_(
                "Unit of the results. GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch and "
                "DeepSpeed report (DeepSpeed labels them GB).",
            ),
            optional=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="total_vram_gb",
            label=N_("Total VRAM"),
            unit_choice="memory_unit",
            # Translators: {total_vram_gb}, {model_state_gb} and {activations_memory} (the activation memory the
            # reader entered) are formatted amounts in {memory_unit_label} (GB or GiB).
            sentence=N_(
                "A full fine-tune needs about {total_vram_gb} {memory_unit_label}: {model_state_gb} "
                "{memory_unit_label} of model state plus {activations_memory} {memory_unit_label} of activations.",
            ),
        ),
        OutputSpec(
            name="model_state_gb",
            label=N_("Model state"),
            unit_choice="memory_unit",
            # Translators: {params_billion} is billions of parameters (hence × 10⁹), {bytes_per_param} bytes
            # per parameter, {model_state_gb} their product in {memory_unit_label} (GB or GiB); all are formatted.
            sentence=N_(
                "Weights, gradients and optimizer state take {params_billion} × 10⁹ parameters × "
                "{bytes_per_param} bytes = {model_state_gb} {memory_unit_label}. This part is fixed once the "
                "model and the optimizer are chosen.",
            ),
        ),
        OutputSpec(
            name="activations_memory",
            label=N_("Activation memory"),
            unit_choice="memory_unit",
            # Translators: {activations_memory} is a formatted amount in {memory_unit_label} (GB or GiB);
            # {activation_source_label} says where it comes from (the figure entered, or the model's shape…).
            sentence=N_(
                "Activations take {activations_memory} {memory_unit_label}, from {activation_source_label}.",
            ),
        ),
        OutputSpec(
            name="per_gpu_vram_gb",
            label=N_("VRAM per GPU"),
            unit_choice="memory_unit",
            # Translators: {per_gpu_vram_gb} and {activations_memory} (the activations the reader entered) are
            # formatted amounts in {memory_unit_label} (GB or GiB), {data_parallel} a number of GPUs,
            # {zero_stage} a ZeRO stage from 0 to 3.
            sentence=NP_(
                "Per GPU, about {per_gpu_vram_gb} {memory_unit_label}: its share of the model state under ZeRO stage "
                "{zero_stage} across {data_parallel} data-parallel GPU, plus {activations_memory} "
                "{memory_unit_label} of activations.",
                "Per GPU, about {per_gpu_vram_gb} {memory_unit_label}: its share of the model state under ZeRO stage "
                "{zero_stage} across {data_parallel} data-parallel GPUs, plus {activations_memory} "
                "{memory_unit_label} of activations.",
                count="data_parallel",
            ),
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(r"M = N \cdot B", r"V = M + A"),
    related=("gpu-memory-planner", "parallel-training-planner", "gradient-accumulation-memory"),
    chart=MemoryChart(
        parts=(
            ChartPart("weights_memory", N_("Weights")),
            ChartPart("gradients_memory", N_("Gradients")),
            ChartPart("optimizer_memory", N_("Optimizer state")),
            ChartPart("activations_memory", N_("Activations")),
        )
    ),
)
