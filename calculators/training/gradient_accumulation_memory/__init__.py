"""Gradient accumulation: the effective batch it buys and the activation memory it keeps.

Formulas (Hugging Face `TrainingArguments.gradient_accumulation_steps`; DeepSpeed
`train_batch_size = train_micro_batch_size_per_gpu * gradient_accumulation_steps * GPUs`):
effective batch E = b·a·g; peak activation memory per GPU M = b·A, independent of a. A, the activation
memory of one sample, is entered (the seed's formula) or computed from the model's shape and the sequence
length with the GPU memory planner's count (`vocabulary/memory.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs, memory

N_, NP_ = messages_of(__name__)

_BATCH = inputs.BATCH_SETUP
_MEMORY = inputs.MEMORY
_ENTERED, _COMPUTED = 0.0, 1.0


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the effective batch and the activation memory of one GPU.

    The seed's worked example, then the same run on four data-parallel GPUs:

    >>> seed = {"micro_batch": 4, "accumulation_steps": 8, "activation_per_sample_gb": 0.5, "memory_unit": 1e9}
    >>> compute({**seed, "data_parallel": 1})
    {'effective_batch': 32, 'activation_memory_gb': 2.0, 'activation_per_sample_memory': 0.5}
    >>> compute({**seed, "data_parallel": 4})["effective_batch"]
    128

    The output keeps its public name, `activation_memory_gb`, when the reader switches it to GiB; the
    sample's memory, entered in GB, is given in the chosen unit too, for the sentence that multiplies it.
    """
    micro_batch = values["micro_batch"]
    gigabytes_per_unit = values["memory_unit"] / 1e9  # exactly 1.0 for GB, so GB results stay exact
    sample_gb = values["activation_per_sample_gb"]
    if values.get("activation_source", _ENTERED) == _COMPUTED:
        sample_gb = memory.activation_memory({**values, "method": memory.FULL, "micro_batch": 1.0}) / 1e9
    per_sample = sample_gb / gigabytes_per_unit
    return {
        "effective_batch": micro_batch * values["accumulation_steps"] * values["data_parallel"],
        "activation_memory_gb": micro_batch * sample_gb / gigabytes_per_unit,
        "activation_per_sample_memory": per_sample,
    }


CALCULATOR = Calculator(
    title=N_("Gradient accumulation memory"),
    summary=N_(
        "Find the effective batch that gradient accumulation gives you and the activation memory "
        "it actually holds on each GPU, from the micro-batch, the accumulation steps, the "
        "data-parallel GPUs and the activation cost of one sample.",
    ),
    inputs=(
        replace(inputs.MICRO_BATCH, group=_BATCH),
        replace(
            inputs.ACCUMULATION_STEPS,
            group=_BATCH,
            help=N_(
                "Micro-batches whose gradients are summed before the optimizer updates the weights. "
                "Raising it grows the effective batch without adding activation memory.",
            ),
        ),
        replace(inputs.DATA_PARALLEL, group=_BATCH),
        InputSpec(
            name="activation_per_sample_gb",
            kind=Kind.DECIMAL,
            group=_MEMORY,
            label=N_("Activation memory per sample"),
            help=N_(
                "Activation memory one sample needs during the forward and backward pass, in GB. "
                "It grows with sequence length, hidden size and depth, and shrinks with activation checkpointing.",
            ),
            unit=N_("GB"),
            default="0.5",
            minimum=Decimal(0),
            maximum=Decimal(100_000),
            fraction_digits=4,
        ),
        replace(
            inputs.MEMORY_UNIT,
            group=_MEMORY,
            help=N_(
                "Unit of the result. GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports.",
            ),
            optional=True,
        ),
        InputSpec(
            name="activation_source",
            kind=Kind.CHOICE,
            group=_MEMORY,
            label=N_("Activations from"),
            help=N_(
                "Enter one sample's activation memory, or have it computed from the model's shape and the "
                "sequence length, as the GPU memory planner counts it: each layer's saved tensors and the loss's "
                "logits. The shape and the length are in the advanced options.",
            ),
            default="entered",
            choices=(
                Choice("entered", N_("the figure entered above"), number="0"),
                Choice("computed", N_("the model's shape and the sequence length"), number="1"),
            ),
            fraction_digits=0,
            optional=True,
        ),
        *inputs.advanced_groups(
            (inputs.MODEL, (*inputs.MODEL_SHAPE, inputs.SEQ_LEN)),
            (inputs.MEMORY_SAVERS, inputs.MEMORY_SAVER_INPUTS),
        ),
    ),
    outputs=(
        OutputSpec(
            name="effective_batch",
            label=N_("Effective batch size"),
            unit=NP_("sample", "samples", count="effective_batch"),
            # Translators: {effective_batch}, {micro_batch}, {accumulation_steps} and {data_parallel}
            # are numbers already written in your language's format.
            sentence=NP_(
                "Each optimizer step learns from {effective_batch} sample: micro-batch × accumulation steps "
                "× data-parallel GPUs = {micro_batch} × {accumulation_steps} × {data_parallel}.",
                "Each optimizer step learns from {effective_batch} samples: micro-batch × accumulation steps "
                "× data-parallel GPUs = {micro_batch} × {accumulation_steps} × {data_parallel}.",
                count="effective_batch",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="activation_memory_gb",
            label=N_("Activation memory per GPU"),
            unit_choice="memory_unit",
            # Translators: {micro_batch} is the micro-batch size, {activation_per_sample_memory} the memory per
            # sample and {activation_memory_gb} the product, both in {memory_unit_label} (GB or GiB); numbers are
            # already formatted.
            sentence=NP_(
                "Peak activation memory on each GPU is {micro_batch} sample × {activation_per_sample_memory} "
                "{memory_unit_label} "
                "= {activation_memory_gb} {memory_unit_label}. "
                "Only the micro-batch sets it, so more accumulation steps leave it unchanged.",
                "Peak activation memory on each GPU is {micro_batch} samples × {activation_per_sample_memory} "
                "{memory_unit_label} "
                "= {activation_memory_gb} {memory_unit_label}. "
                "Only the micro-batch sets it, so more accumulation steps leave it unchanged.",
                count="micro_batch",
            ),
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(r"E = b \cdot a \cdot g", r"M = b \cdot A"),
    related=("llm-training-vram", "gpu-memory-planner"),
)
