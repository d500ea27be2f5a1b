"""GPU memory planner: will a fine-tune or a served model fit on a GPU? The peak per GPU, term by term.

The terms, and what PyTorch and the training libraries keep at the moment of the peak, are in
`vocabulary/memory.py`, with their sources: activations per layer from the model's shape (Korthikanti et al.
2022, arXiv:2205.05198, Table 2, as transformers, torchtune and litgpt save them), the loss's logits, the
model state of each precision and optimizer (ZeRO, arXiv:1910.02054, §3.1), LoRA's adapters (Hu et al. 2021)
and QLoRA's 4-bit base (Dettmers et al. 2023), and for serving the KV cache and the prompt's peak.

The figure is given in the convention the reader picks: what `torch.cuda.max_memory_allocated` reports, what
`max_memory_reserved` reports (the caching allocator's slack on top), or what nvidia-smi shows (also the CUDA
context). The verdict keeps the safety margin of Fujii et al. 2024 (arXiv:2411.06465, §5): of 454 runs whose
estimated memory stayed below 80 % of the GPU's, none ran out of memory.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import (
    Calculator,
    ChartPart,
    Choice,
    InputSpec,
    Kind,
    MemoryChart,
    OutputSpec,
    Settings,
    messages_of,
)
from calculators.vocabulary import attention, engines, inputs, memory, trainers, units
from calculators.vocabulary.architecture import ARCHITECTURE, KV_HEADS_RULE, SHAPE_INPUTS, count_parameters

N_, NP_ = messages_of(__name__)

_METHOD = N_("Method")
_TRAINING = N_("Training")
_LORA = N_("LoRA and QLoRA")
_SAVING = inputs.MEMORY_SAVERS
_SERVING = N_("Serving")
_GPU = N_("GPU")

_GIB = 2.0**30
"""A GPU sold as "80 GB" gives 80 GiB to CUDA (81,920 MiB in nvidia-smi); its capacity is read in GiB, unless the
memory a framework was measured to see is given (22.5 GiB on an A10G sold as 24 GB)."""

# The conventions (`convention`): what the figure counts.
_ALLOCATED, _RESERVED, _NVIDIA_SMI = 0.0, 1.0, 2.0


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the peak per GPU in the chosen convention, each term, the verdict's margins and the largest batch.

    Llama-2-7B, LoRA on the query and value projections (r = 8, dropout on), one sample of 1,304 tokens, pure
    bf16, no checkpointing, litgpt's chunked loss: litgpt's `lora.py` printed "Memory used: 21.30 GB"
    (`max_memory_allocated` ÷ 10⁹, commit 8641822's README):

    >>> llama2 = {"architecture": 0, "layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 32,
    ...           "head_dim": 128, "ffn_size": 11008, "vocab_size": 32000, "tied_embeddings": 0}
    >>> run = {**llama2, "method": 2, "weight_format": 0, "precision": 1, "optimizer": 0, "rank": 8,
    ...        "target_modules": 2, "lora_dropout": 1, "micro_batch": 1, "seq_len": 1304, "checkpointing": 0,
    ...        "attention": 0, "cross_entropy": 1, "compiled": 0, "data_parallel": 1, "zero_stage": 0,
    ...        "gpu_memory_gb": 80, "convention": 0, "cuda_context_gb": 0.5, "safety_margin": 80,
    ...        "memory_unit": 1e9}
    >>> round(compute(run)["peak_memory"], 1)
    21.9

    Qwen2.5-7B-Instruct in BF16 reading 30,720 tokens and writing 2,048, FlashAttention 2: Qwen's speed
    benchmark printed 19.97 (GiB, the sum of `max_memory_allocated`):

    >>> qwen = {"architecture": 0, "layers": 28, "hidden_size": 3584, "attention_heads": 28, "kv_heads": 4,
    ...         "head_dim": 128, "ffn_size": 18944, "vocab_size": 152064, "tied_embeddings": 0,
    ...         "attention_bias": 1, "method": 0, "weight_format": 0, "batch_size": 1, "prompt_tokens": 30720,
    ...         "output_tokens": 2048, "bytes_per_element": 2, "prefill_chunk": 0, "attention": 0,
    ...         "kv_cache_growth": 0, "engine_share": 0, "gpu_memory_gb": 80, "convention": 0,
    ...         "cuda_context_gb": 0.5, "safety_margin": 80, "memory_unit": 2**30}
    >>> round(compute(qwen)["peak_memory"], 2)
    19.9
    """
    unit = values["memory_unit"]
    terms = memory.estimate(values)
    allocated = terms.allocated
    convention = values["convention"]
    capacity = inputs.seen_bytes(values, _GIB)
    training = values["method"] != memory.SERVING
    # An engine that reserves (vLLM) holds its share from the start, and a plan must fit within that share.
    share = 0.0 if training else values["engine_share"] / 100
    held = max(memory.reserved(allocated), share * capacity)
    slack = held - allocated if convention >= _RESERVED else 0.0
    context = values["cuda_context_gb"] * 1e9 if convention == _NVIDIA_SMI else 0.0
    limit = capacity * min(values["safety_margin"] / 100, share or 1.0)
    count = count_parameters(values)
    return {
        "peak_memory": (allocated + slack + context) / unit,
        "capacity_gib": capacity / _GIB,
        "allocated_memory": allocated / unit,
        "usage_percent": 100 * allocated / capacity,
        "headroom_memory": max(limit - allocated, 0.0) / unit,
        "shortfall_memory": max(allocated - limit, 0.0) / unit,
        "largest_batch": _finite(memory.largest_micro_batch(values, limit)),
        "longest_sequence": _finite(memory.longest_sequence(values, limit)),
        "parameters_billion": count.total / 1e9,
        "trainable_billion": memory.trainable_parameters(values) / 1e9 if training else 0.0,
        "weights_memory": terms.weights / unit,
        "adapters_memory": terms.adapters / unit,
        "gradients_memory": terms.gradients / unit,
        "optimizer_memory": terms.optimizer / unit,
        "activations_memory": terms.activations / unit,
        "loss_memory": terms.loss / unit,
        "kv_cache_memory": terms.kv_cache / unit,
        "buffers_memory": terms.buffers / unit,
        "allocator_memory": slack / unit,
        "context_memory": context / unit,
        "paged_memory": terms.paged / unit,
    }


def settings(values: Mapping[str, float]) -> Mapping[str, str]:
    """The run as its tools take it: a served model as each engine's launch text, a fine-tune as the trainers'."""
    if values["method"] == memory.SERVING:
        fp8 = values["weight_format"] == _FP8_WEIGHTS
        run = {**values, "gpus": 1, "context_tokens": values["prompt_tokens"] + values["output_tokens"]}
        return engines.serving_settings({**run, "bits_per_weight": 8.0 if fp8 else 16.0})
    return trainers.training_settings(values)


_FP8_WEIGHTS = 6.0
"""The weight format "FP8 with block scales" (`memory.FORMATS`)."""


def _finite(count: float) -> float:
    """A count the page can write: past 10¹², "as many as you like" is written as that bound."""
    return min(count, 1e12) if not math.isnan(count) else 0.0


_YES_NO = units.YES_NO

CALCULATOR = Calculator(
    title=N_("GPU memory planner"),
    summary=N_(
        "Find out whether a fine-tune (full, LoRA or QLoRA) or a served model fits on your GPU: the peak memory "
        "per GPU from the model's shape, term by term, as PyTorch or nvidia-smi reports it, with a safety "
        "margin, and the largest batch and longest sequence that fit.",
    ),
    inputs=(
        inputs.choice_input(
            "method",
            _METHOD,
            N_("What you run"),
            N_(
                "Serving keeps the weights and a KV cache. A full fine-tune trains every weight; LoRA trains "
                "small adapters beside a frozen base, which is QLoRA when the base is stored in 4 bits.",
            ),
            "lora",
            (
                Choice("serving", N_("Serving (inference)"), number="0"),
                Choice("full", N_("Full fine-tune"), number="1"),
                Choice("lora", N_("LoRA or QLoRA"), number="2"),
            ),
        ),
        inputs.choice_input(
            "weight_format",
            _METHOD,
            N_("Weights stored as"),
            N_(
                "How the model's linear layers are stored. The embeddings, the output head and the norms stay "
                "in 16 bits in every quantized format (bitsandbytes, GPTQ and AWQ quantize linear layers only). "
                "A LoRA base in 4 bits is QLoRA; a full fine-tune keeps 16-bit weights.",
            ),
            "bf16",
            (
                Choice("bf16", N_("BF16 or FP16 (16 bits)"), number="0"),
                Choice("int8", N_("8-bit, bitsandbytes LLM.int8"), number="1"),
                Choice("nf4", N_("4-bit NF4 (bitsandbytes, QLoRA)"), number="2"),
                Choice("nf4-dq", N_("4-bit NF4 with double quantization (QLoRA, torchtune)"), number="3"),
                Choice("int4", N_("4-bit GPTQ or AWQ, groups of 128"), number="4"),
                Choice("gptq-int8", N_("8-bit GPTQ, groups of 128"), number="5"),
                Choice("fp8", N_("FP8 with block scales"), number="6"),
            ),
        ),
        replace(
            inputs.choice_input(
                "quantized_head",
                _METHOD,
                N_("Output head quantized too"),
                N_(
                    "litgpt quantizes every linear layer, the output head included, and expands the head to 16 bits "
                    "while tokens pass through it: with a large vocabulary, the largest buffer of the run. "
                    "transformers keeps the head in 16 bits (bitsandbytes' llm_int8_skip_modules).",
                ),
                "0",
                _YES_NO,
            ),
            advanced=True,
        ),
        InputSpec(
            name="gpu_memory_gb",
            kind=Kind.DECIMAL,
            group=_GPU,
            label=N_("GPU memory"),
            help=N_(
                "As sold: 24 for an RTX 4090, 80 for an H100. A GPU sold as 80 GB gives 80 GiB to CUDA, so "
                "the capacity is read in GiB.",
            ),
            unit=units.GB,
            default="80",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=3,
            preset="gpu.memory_gb",
        ),
        replace(inputs.SEEN_MEMORY, group=_GPU),
        inputs.choice_input(
            "convention",
            _GPU,
            N_("Report the peak as"),
            N_(
                "PyTorch's max_memory_allocated counts tensors; max_memory_reserved adds what its caching "
                "allocator holds back; nvidia-smi also shows the CUDA context and kernels. Benchmarks print "
                "any of the three."
            ),
            "nvidia-smi",
            (
                Choice("allocated", N_("torch.cuda.max_memory_allocated"), number="0"),
                Choice("reserved", N_("torch.cuda.max_memory_reserved"), number="1"),
                Choice("nvidia-smi", N_("nvidia-smi"), number="2"),
            ),
        ),
        replace(inputs.CUDA_CONTEXT, group=_GPU),
        replace(
            InputSpec(
                name="safety_margin",
                kind=Kind.DECIMAL,
                group=_GPU,
                label=N_("Plan within"),
                help=N_(
                    "The share of the GPU's memory a plan may use and still count as fitting. Fujii et al. "
                    "found that no run estimated below 80% (of 454) ran out of memory."
                ),
                unit=units.PERCENT,
                default="80",
                minimum=Decimal(1),
                maximum=Decimal(100),
                fraction_digits=1,
            ),
            advanced=True,
        ),
        replace(inputs.MEMORY_UNIT, group=_GPU),
        replace(
            inputs.MICRO_BATCH,
            group=_TRAINING,
            default="1",
            help=N_(
                "Samples one GPU pushes through a forward and backward pass at once. Activations and the loss "
                "grow with it; gradient accumulation does not add to them.",
            ),
        ),
        replace(
            inputs.SEQ_LEN,
            group=_TRAINING,
            help=N_(
                "Tokens per sample at the peak: the packed length, or the longest padded batch of the run "
                "(memory peaks at the longest batch).",
            ),
        ),
        inputs.choice_input(
            "precision",
            _TRAINING,
            N_("Training precision"),
            N_(
                "Mixed precision (transformers' Trainer with bf16=True, PEFT's adapters) keeps fp32 weights, "
                "gradients and optimizer states and a 16-bit copy for compute. Pure bf16 (torchtune's "
                "dtype=bf16, litgpt's bf16-true) keeps all of them in bf16. For LoRA the frozen base stays "
                "in 16 bits either way.",
            ),
            "mixed",
            (
                Choice("mixed", N_("Mixed precision: fp32 master weights, bf16 compute"), number="0"),
                Choice("bf16", N_("Pure bf16 (torchtune, litgpt bf16-true)"), number="1"),
                Choice("fp32", N_("fp32"), number="2"),
            ),
        ),
        inputs.choice_input(
            "optimizer",
            _TRAINING,
            N_("Optimizer"),
            N_(
                "AdamW keeps two states per trained weight, in its precision; 8-bit AdamW (bitsandbytes "
                "adamw_8bit) one byte each; paged optimizers keep them in CUDA unified memory, which PyTorch "
                "does not count and the driver moves to the CPU when the GPU runs short; Adafactor factors its "
                "second moment and keeps no momentum by default; SGD with momentum keeps one state.",
            ),
            "adamw",
            (
                Choice("adamw", N_("AdamW"), number="0"),
                Choice("adamw-8bit", N_("8-bit AdamW (bitsandbytes)"), number="1"),
                Choice("paged-adamw", N_("Paged AdamW (bitsandbytes)"), number="2"),
                Choice("paged-adamw-8bit", N_("Paged 8-bit AdamW (bitsandbytes)"), number="3"),
                Choice("adafactor", N_("Adafactor"), number="4"),
                Choice("sgd", N_("SGD with momentum"), number="5"),
            ),
        ),
        replace(
            inputs.choice_input(
                "optimizer_in_backward",
                _TRAINING,
                N_("Optimizer step in the backward pass"),
                N_(
                    "torchtune's optimizer_in_bwd: each weight is updated as soon as its gradient is ready and "
                    "the gradient is freed, so at most the largest gradient is held.",
                ),
                "0",
                _YES_NO,
            ),
            advanced=True,
        ),
        replace(
            inputs.choice_input(
                "optimizer_offload",
                _TRAINING,
                N_("Optimizer state on the CPU"),
                N_(
                    "DeepSpeed's offload_optimizer or torchao's CPUOffloadOptimizer: the optimizer states live "
                    "in CPU memory and the update runs there.",
                ),
                "0",
                _YES_NO,
            ),
            advanced=True,
        ),
        replace(
            inputs.DATA_PARALLEL,
            group=_TRAINING,
            help=N_("GPUs training together, each on its own micro-batches. Without sharding each holds a copy."),
            advanced=True,
        ),
        replace(
            inputs.choice_input(
                "zero_stage",
                _TRAINING,
                N_("Sharding"),
                N_(
                    "What DeepSpeed ZeRO or PyTorch FSDP splits across the data-parallel GPUs. FSDP's full shard "
                    "is stage 3 and also shards a LoRA's frozen base (FSDP2, per parameter, as torchtune does); "
                    "it gathers one layer's weights at a time.",
                ),
                "0",
                (
                    Choice("0", N_("None (DDP)")),
                    Choice("1", N_("ZeRO-1: optimizer states")),
                    Choice("2", N_("ZeRO-2: optimizer states and gradients")),
                    Choice("3", N_("ZeRO-3 or FSDP full shard: also the weights")),
                ),
            ),
            advanced=True,
        ),
        InputSpec(
            name="rank",
            kind=Kind.INTEGER,
            group=_LORA,
            label=N_("Rank r"),
            help=N_("The inner dimension of the adapters, r in LoraConfig."),
            default="16",
            minimum=Decimal(1),
            maximum=Decimal(100_000),
            fraction_digits=0,
        ),
        inputs.choice_input(
            "target_modules",
            _LORA,
            N_("Adapted layers"),
            N_("Which linear layers of each block get an adapter; all-linear is QLoRA's choice."),
            "all",
            (
                Choice("qv", N_("Query and value"), number="2"),
                Choice("qkvo", N_("All attention projections"), number="4"),
                Choice("all", N_("All linear layers"), number="7"),
            ),
        ),
        inputs.choice_input(
            "lora_dropout",
            _LORA,
            N_("LoRA dropout"),
            N_(
                "With dropout above 0, each adapted layer keeps a dropped copy of its input and the mask for "
                "the backward pass; with 0, PEFT skips the dropout and keeps nothing extra.",
            ),
            "0",
            _YES_NO,
        ),
        replace(
            inputs.choice_input(
                "lora_embeddings",
                _LORA,
                N_("Train the embeddings and the output head"),
                N_(
                    "PEFT's modules_to_save for the token table and the output head: a trainable copy of each "
                    "beside the frozen one, with its gradient and optimizer states.",
                ),
                "0",
                _YES_NO,
            ),
            advanced=True,
        ),
        replace(
            inputs.choice_input(
                "upcast_unquantized",
                _LORA,
                N_("Unquantized parts in fp32"),
                N_(
                    "PEFT's prepare_model_for_kbit_training, which many QLoRA scripts call, upcasts the parts "
                    "of a quantized model left in 16 bits (embeddings, output head, norms) to fp32.",
                ),
                "0",
                _YES_NO,
            ),
            advanced=True,
        ),
        inputs.CHECKPOINTING,
        inputs.ATTENTION_KERNEL,
        inputs.CROSS_ENTROPY,
        replace(
            inputs.choice_input(
                "compiled",
                _SAVING,
                N_("torch.compile"),
                N_(
                    "Compiled, the norms and the MLP's activation are fused into the kernels around them and "
                    "recomputed in the backward pass, and the loss's upcast is fused with its softmax.",
                ),
                "0",
                _YES_NO,
            ),
            advanced=True,
        ),
        replace(inputs.BATCH_SIZE, group=_SERVING),
        InputSpec(
            name="prompt_tokens",
            kind=Kind.INTEGER,
            group=_SERVING,
            label=N_("Prompt tokens"),
            help=N_("Tokens each sequence reads before it writes."),
            default="2048",
            unit=N_("tokens"),
            minimum=Decimal(1),
            maximum=Decimal(100_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="output_tokens",
            kind=Kind.INTEGER,
            group=_SERVING,
            label=N_("Output tokens"),
            help=N_("Tokens each sequence writes; the cache grows to the prompt plus these."),
            default="512",
            unit=N_("tokens"),
            minimum=Decimal(0),
            maximum=Decimal(100_000_000),
            fraction_digits=0,
        ),
        replace(inputs.BYTES_PER_ELEMENT, group=_SERVING, label=N_("KV cache precision")),
        replace(
            InputSpec(
                name="prefill_chunk",
                kind=Kind.INTEGER,
                group=_SERVING,
                label=N_("Chunked prefill"),
                help=N_(
                    "Tokens of the prompt read at once (vLLM's max_num_batched_tokens with chunked prefill); "
                    "0 reads the whole prompt at once, as transformers' generate does.",
                ),
                default="0",
                unit=N_("tokens"),
                minimum=Decimal(0),
                maximum=Decimal(100_000_000),
                fraction_digits=0,
            ),
            advanced=True,
        ),
        replace(
            inputs.choice_input(
                "kv_cache_growth",
                _SERVING,
                N_("How the cache grows"),
                N_(
                    "transformers' DynamicCache (since 4.36), static caches and vLLM's blocks grow in place. "
                    "The tuple caches of older transformers are concatenated into new tensors at every step "
                    "while the old ones are still held: for a moment, the cache twice."
                ),
                "in-place",
                (
                    Choice("in-place", N_("In place"), number="0"),
                    Choice("copied", N_("Copied at each step (transformers before 4.36)"), number="1"),
                ),
            ),
            advanced=True,
        ),
        replace(
            InputSpec(
                name="engine_share",
                kind=Kind.DECIMAL,
                group=_SERVING,
                label=N_("Engine's share of the GPU"),
                help=N_(
                    "vLLM's gpu_memory_utilization (0.9 by default, entered here as 90): vLLM takes this share of "
                    "the GPU at start and fills what the model leaves with KV cache, so nvidia-smi shows the "
                    "share whatever the load, and the plan must fit within it. Enter 0 for engines that allocate "
                    "as they go, like transformers.",
                ),
                unit=units.PERCENT,
                default="0",
                minimum=Decimal(0),
                maximum=Decimal(100),
                fraction_digits=1,
            ),
            advanced=True,
        ),
        ARCHITECTURE,
        *inputs.MODEL_SHAPE,
        inputs.TIED_EMBEDDINGS,
        *SHAPE_INPUTS,
        *inputs.MOE_SHAPE,
        *(replace(spec, advanced=True) for spec in attention.WINDOW_INPUTS),
        *attention.STATE_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="peak_memory",
            label=N_("Peak memory per GPU"),
            unit_choice="memory_unit",
            # Translators: {peak_memory} and {allocated_memory} are formatted amounts in {memory_unit_label}
            # (GB or GiB); {convention_label} names the counter (torch.cuda.max_memory_allocated, nvidia-smi…).
            sentence=N_(
                "The peak on each GPU is about {peak_memory} {memory_unit_label} as {convention_label} reports "
                "it, of which {allocated_memory} {memory_unit_label} are tensors PyTorch allocates.",
            ),
        ),
        OutputSpec(
            name="capacity_gib",
            label=N_("Memory planned on"),
            unit=units.GIB,
            # Translators: {capacity_gib} is a formatted amount in GiB (2^30 bytes), whichever unit the page shows.
            sentence=N_("Each GPU gives the framework {capacity_gib} GiB."),
        ),
        OutputSpec(
            name="usage_percent",
            label=N_("Share of the GPU"),
            unit=units.PERCENT,
            # Translators: {usage_percent} and {safety_margin} are formatted percentages (the % sign follows).
            sentence=N_(
                "Of the GPU's memory, the tensors take {usage_percent}%. A plan fits when this share stays within "
                "{safety_margin}%.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="headroom_memory",
            label=N_("Room to spare"),
            unit_choice="memory_unit",
            # Translators: {headroom_memory} is a formatted amount in {memory_unit_label} (GB or GiB),
            # {safety_margin} a formatted percentage (the % sign follows).
            sentence=N_(
                "Up to the margin ({safety_margin}%), {headroom_memory} {memory_unit_label} are left. Above 0, "
                "the plan fits.",
            ),
        ),
        OutputSpec(
            name="shortfall_memory",
            label=N_("Memory to save"),
            unit_choice="memory_unit",
            # Translators: {shortfall_memory} is a formatted amount in {memory_unit_label} (GB or GiB).
            sentence=N_(
                "Above 0, the plan does not fit: save at least {shortfall_memory} {memory_unit_label} with a "
                "smaller batch, checkpointing, a quantized base or more GPUs, or take a larger GPU.",
            ),
        ),
        OutputSpec(
            name="largest_batch",
            label=N_("Largest batch that fits"),
            # Translators: {largest_batch} is a whole number of samples or sequences.
            sentence=N_(
                "The largest micro-batch (for serving, the most sequences at once) that fits: {largest_batch}.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="longest_sequence",
            label=N_("Longest sequence that fits"),
            unit=N_("tokens"),
            # Translators: {longest_sequence} is a whole number of tokens.
            sentence=N_(
                "The longest sequence (for serving, the longest prompt) that fits with this batch: "
                "{longest_sequence} tokens.",
            ),
            fraction_digits=0,
            exact=True,
        ),
        OutputSpec(
            name="parameters_billion",
            label=N_("Parameters"),
            unit=N_("billion"),
            # Translators: {parameters_billion} and {trainable_billion} are formatted numbers of billions.
            sentence=N_(
                "The model has {parameters_billion} billion parameters, counted from its shape; "
                "{trainable_billion} billion of them are trained.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("Weights"),
            unit_choice="memory_unit",
            # Translators: {weights_memory} and {adapters_memory} are formatted amounts in {memory_unit_label}.
            sentence=N_(
                "Weights: {weights_memory} {memory_unit_label}, and {adapters_memory} {memory_unit_label} of "
                "trained adapters.",
            ),
        ),
        OutputSpec(
            name="optimizer_memory",
            label=N_("Optimizer and gradients"),
            unit_choice="memory_unit",
            # Translators: {gradients_memory}, {optimizer_memory} and {paged_memory} are formatted amounts in
            # {memory_unit_label}.
            sentence=N_(
                "Gradients take {gradients_memory} {memory_unit_label} and optimizer states {optimizer_memory} "
                "{memory_unit_label} on the GPU; {paged_memory} {memory_unit_label} more are paged in unified "
                "memory, outside PyTorch's count.",
            ),
        ),
        OutputSpec(
            name="activations_memory",
            label=N_("Activations"),
            unit_choice="memory_unit",
            # Translators: {activations_memory} and {loss_memory} are formatted amounts in {memory_unit_label}.
            sentence=N_(
                "Activations kept for the backward pass take {activations_memory} {memory_unit_label}, the loss's "
                "logits {loss_memory} {memory_unit_label}.",
            ),
        ),
        OutputSpec(
            name="kv_cache_memory",
            label=N_("KV cache"),
            unit_choice="memory_unit",
            # Translators: {kv_cache_memory} and {buffers_memory} are formatted amounts in {memory_unit_label}.
            sentence=N_(
                "The KV cache takes {kv_cache_memory} {memory_unit_label}; working buffers at the peak "
                "{buffers_memory} {memory_unit_label}.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"M = W + A_{dapt} + G + O + \sum_{l=1}^{L} a_l \cdot b \cdot s + c_{loss} \cdot b \cdot s \cdot V + K + B",
        r"a_l = n_{norm} \cdot 6h + 4 q + 4 k + 8 f",
        r"K = 2 \cdot L \cdot n_{kv} \cdot d_{head} \cdot (s_{in} + s_{out}) \cdot b \cdot p",
        r"M_{plan} \le 0.8 \cdot C_{GPU}",
    ),
    related=(
        "llm-training-vram",
        "lora-parameters",
        "llm-inference-vram",
        "kv-cache-size",
        "parallel-training-planner",
    ),
    chart=MemoryChart(
        parts=(
            ChartPart("weights_memory", N_("Weights")),
            ChartPart("adapters_memory", N_("Adapters")),
            ChartPart("gradients_memory", N_("Gradients")),
            ChartPart("optimizer_memory", N_("Optimizer states")),
            ChartPart("activations_memory", N_("Activations")),
            ChartPart("loss_memory", N_("Loss and logits")),
            ChartPart("kv_cache_memory", N_("KV cache")),
            ChartPart("buffers_memory", N_("Working buffers")),
        )
    ),
    settings=Settings(
        # Translators: {tool} is a library or an engine: transformers, DeepSpeed, vLLM, SGLang, llama.cpp, Ollama.
        title=N_("This run as {tool} takes it"),
        note=N_(
            "Put your model's Hub id in place of ORG/MODEL, and your dataset's in place of ORG/DATASET. A fine-tune "
            "is written for transformers and PEFT (and DeepSpeed under ZeRO), and for Axolotl unless it trains in "
            "mixed precision, which Axolotl does not offer: its bf16 loads the weights in bf16 too. Both checkpoint "
            "whole layers whichever checkpointing you count, and lora_alpha, twice the rank here, the dropout rate "
            "and the learning rate change no memory. A served model is written for each engine; llama.cpp and "
            "Ollama allocate your context once for each sequence served at once.",
        ),
        write=settings,
    ),
    rules=(KV_HEADS_RULE, attention.LAYER_SHARES_RULE, inputs.SEEN_MEMORY_RULE),
)
