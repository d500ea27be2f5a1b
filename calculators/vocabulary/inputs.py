"""Inputs that mean the same thing in several calculators, declared once: one label, help, bounds, precision.

A calculator uses them as they are (`inputs.LAYERS`) or with what truly differs for it replaced,
its own group, default or a help text about its own formula: `replace(inputs.LAYERS, group=_MODEL, default="96")`.
Their words are in the gettext context "input", so each is translated once for every calculator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import MEMORY_UNITS, N_, Choice, InputSpec, Kind, Message, OutputSpec, Rule

from . import units

__all__ = [
    "ACCUMULATION_STEPS",
    "ATTENTION_HEADS",
    "ATTENTION_KERNEL",
    "BATCH_SETUP",
    "BATCH_SIZE",
    "BITS_PER_WEIGHT",
    "BUDGET",
    "BYTES_PER_ELEMENT",
    "CACHED_TOKENS",
    "CHECKPOINTING",
    "COMPUTE_FLOPS",
    "CONTEXT_TOKENS",
    "CROSS_ENTROPY",
    "CUDA_CONTEXT",
    "DATA_PARALLEL",
    "DENSE_LAYERS",
    "EXPERTS",
    "EXPERTS_PER_TOKEN",
    "EXPERT_FFN_SIZE",
    "FFN_SIZE",
    "HEAD_DIM",
    "HIDDEN_SIZE",
    "KV_HEADS",
    "LATENT_ATTENTION_INPUTS",
    "LAYERS",
    "MEMORY",
    "MEMORY_SAVERS",
    "MEMORY_SAVER_INPUTS",
    "MEMORY_UNIT",
    "MICRO_BATCH",
    "MIXTURE_OF_EXPERTS",
    "MODEL",
    "MODEL_SHAPE",
    "MOE_SHAPE",
    "PARAMS_BILLION",
    "SEEN_MEMORY",
    "SEEN_MEMORY_RULE",
    "SEQ_LEN",
    "SHARED_EXPERTS",
    "SLIDING_WINDOW",
    "SLIDING_WINDOW_SHARE",
    "TIED_EMBEDDINGS",
    "TOKENS_BILLION",
    "TRAINING_RUN",
    "VOCAB_SIZE",
    "WINDOW_CONVENTION",
    "WORKLOAD",
    "advanced_groups",
    "choice_input",
    "count_input",
    "seen_bytes",
    "yes_no_input",
]

# The groups shared inputs are shown under; a calculator uses them for its own inputs too.
MODEL = N_("input", "Model")
WORKLOAD = N_("input", "Workload")
BATCH_SETUP = N_("input", "Batch setup")
MEMORY = N_("input", "Memory")
MIXTURE_OF_EXPERTS = N_("input", "Mixture of experts")
TRAINING_RUN = N_("input", "Training run")
BUDGET = N_("input", "Budget")

MEMORY_UNIT = InputSpec(
    name="memory_unit",
    kind=Kind.CHOICE,
    group=MEMORY,
    label=N_("input", "Memory unit"),
    help=N_("input", "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports."),
    default="gb",
    choices=MEMORY_UNITS,
    fraction_digits=0,
)
PARAMS_BILLION = InputSpec(
    name="params_billion",
    kind=Kind.DECIMAL,
    group=MODEL,
    label=N_("input", "Parameters"),
    help=N_("input", "The model's size in billions of parameters. The default is Llama-3.1-8B's exact count."),
    default="8.030261248",
    unit=N_("input", "billion"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100000),
    fraction_digits=9,
    preset="model.params_billion",
)
LAYERS = InputSpec(
    name="layers",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Layers"),
    help=N_("input", "Transformer blocks, num_hidden_layers in the model's config.json."),
    default="32",
    minimum=Decimal(1),
    maximum=Decimal(10000),
    fraction_digits=0,
    preset="model.layers",
)
ATTENTION_HEADS = InputSpec(
    name="attention_heads",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Attention heads"),
    help=N_("input", "Query heads per layer: num_attention_heads in config.json."),
    default="32",
    minimum=Decimal(1),
    maximum=Decimal(100000),
    fraction_digits=0,
    preset="model.attention_heads",
)
HEAD_DIM = InputSpec(
    name="head_dim",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Head dimension"),
    help=N_("input", "Size of one attention head: head_dim, or else hidden_size divided by num_attention_heads."),
    default="128",
    minimum=Decimal(1),
    maximum=Decimal(100000),
    fraction_digits=0,
    preset="model.head_dim",
)
KV_HEADS = InputSpec(
    name="kv_heads",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Key-value heads"),
    help=N_(
        "input",
        "num_key_value_heads in config.json. With grouped-query attention it is smaller than the "
        "number of attention heads; without it (GPT-2, Llama-2-7B) the two are equal.",
    ),
    default="8",
    minimum=Decimal(1),
    maximum=Decimal(100000),
    fraction_digits=0,
    preset="model.kv_heads",
)
HIDDEN_SIZE = InputSpec(
    name="hidden_size",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Hidden size"),
    help=N_("input", "The model width, hidden_size (d_model) in config.json."),
    default="4096",
    minimum=Decimal(1),
    maximum=Decimal(1000000),
    fraction_digits=0,
    preset="model.hidden_size",
)
FFN_SIZE = InputSpec(
    name="ffn_size",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "MLP size"),
    help=N_(
        "input",
        "Inner width of the MLP: intermediate_size in config.json; for GPT-2, n_inner or else 4 × the hidden size.",
    ),
    default="14336",
    minimum=Decimal(1),
    maximum=Decimal(10000000),
    fraction_digits=0,
    preset="model.ffn_size",
)
VOCAB_SIZE = InputSpec(
    name="vocab_size",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Vocabulary size"),
    help=N_("input", "Rows of the token embedding table: vocab_size in config.json."),
    default="32000",
    minimum=Decimal(1),
    maximum=Decimal(10000000),
    fraction_digits=0,
    preset="model.vocab_size",
)
TIED_EMBEDDINGS = InputSpec(
    name="tied_embeddings",
    kind=Kind.CHOICE,
    group=MODEL,
    label=N_("input", "Output head"),
    help=N_(
        "input",
        "tie_word_embeddings in config.json: whether the output layer reuses the token embedding "
        "table or is a second vocabulary × hidden size matrix.",
    ),
    default="0",
    choices=(
        Choice("1", N_("input", "Tied to the token embeddings")),
        Choice("0", N_("input", "Untied (a separate matrix)")),
    ),
    fraction_digits=0,
    preset="model.tied_embeddings",
)
EXPERTS = InputSpec(
    name="experts",
    kind=Kind.INTEGER,
    group=MIXTURE_OF_EXPERTS,
    label=N_("input", "Routed experts"),
    help=N_(
        "input",
        "Expert MLPs per mixture-of-experts layer: num_local_experts (Mixtral) or n_routed_experts "
        "(DeepSeek) in config.json. 0 for a dense model.",
    ),
    default="8",
    minimum=Decimal(0),
    maximum=Decimal(100000),
    fraction_digits=0,
    preset="model.experts",
)
EXPERTS_PER_TOKEN = InputSpec(
    name="experts_per_token",
    kind=Kind.INTEGER,
    group=MIXTURE_OF_EXPERTS,
    label=N_("input", "Experts per token"),
    help=N_(
        "input",
        "Routed experts the router picks for each token: num_experts_per_tok in config.json. A "
        "value above the number of experts counts as all of them.",
    ),
    default="2",
    minimum=Decimal(0),
    maximum=Decimal(100000),
    fraction_digits=0,
    preset="model.experts_per_token",
)
EXPERT_FFN_SIZE = InputSpec(
    name="expert_ffn_size",
    kind=Kind.INTEGER,
    group=MIXTURE_OF_EXPERTS,
    label=N_("input", "Expert MLP size"),
    help=N_(
        "input",
        "Inner width of one expert: moe_intermediate_size in config.json. Mixtral has none and uses "
        "intermediate_size; 0 here also means the MLP size above.",
    ),
    default="14336",
    minimum=Decimal(0),
    maximum=Decimal(10000000),
    fraction_digits=0,
    preset="model.expert_ffn_size",
)
SHARED_EXPERTS = InputSpec(
    name="shared_experts",
    kind=Kind.INTEGER,
    group=MIXTURE_OF_EXPERTS,
    label=N_("input", "Shared experts"),
    help=N_(
        "input",
        "Experts that every token uses in each mixture-of-experts layer, besides the routed ones: "
        "n_shared_experts in config.json (1 for DeepSeek-V3, none for Mixtral).",
    ),
    default="0",
    minimum=Decimal(0),
    maximum=Decimal(1000),
    fraction_digits=0,
    preset="model.shared_experts",
)
DENSE_LAYERS = InputSpec(
    name="dense_layers",
    kind=Kind.INTEGER,
    group=MIXTURE_OF_EXPERTS,
    label=N_("input", "Leading dense layers"),
    help=N_(
        "input",
        "First layers that keep an ordinary dense MLP instead of experts: first_k_dense_replace in "
        "config.json (3 for DeepSeek-V3, none for Mixtral).",
    ),
    default="0",
    minimum=Decimal(0),
    maximum=Decimal(10000),
    fraction_digits=0,
    preset="model.dense_layers",
)
CONTEXT_TOKENS = InputSpec(
    name="context_tokens",
    kind=Kind.INTEGER,
    group=WORKLOAD,
    label=N_("input", "Tokens in context"),
    help=N_("input", "Prompt plus generated tokens held for each sequence."),
    default="8192",
    unit=N_("input", "tokens"),
    minimum=Decimal(1),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
SLIDING_WINDOW = InputSpec(
    name="sliding_window",
    kind=Kind.INTEGER,
    group=MODEL,
    label=N_("input", "Sliding window"),
    help=N_(
        "input",
        "sliding_window in config.json: the most recent tokens a layer with sliding-window attention attends "
        "to, and so keeps in its cache (4,096 for Mistral 7B v0.1 and Gemma 2). 0 for a model without one.",
    ),
    default="0",
    unit=N_("input", "tokens"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=0,
    optional=True,
    preset="model.sliding_window",
)
SLIDING_WINDOW_SHARE = InputSpec(
    name="sliding_window_share",
    kind=Kind.DECIMAL,
    group=MODEL,
    label=N_("input", "Layers with the window"),
    help=N_(
        "input",
        "The percentage of layers that use the sliding window; the others attend to, and keep, every token. "
        "Mistral 7B v0.1 windows all of its layers (100), Gemma 2 every other one (50).",
    ),
    default="100",
    unit=units.PERCENT,
    minimum=Decimal(0),
    maximum=Decimal(100),
    fraction_digits=2,
    optional=True,
    preset="model.sliding_window_share",
)
WINDOW_CONVENTION = InputSpec(
    name="window_convention",
    kind=Kind.CHOICE,
    group=MODEL,
    label=N_("input", "Cache convention"),
    help=N_(
        "input",
        "Engines keep the same things a little differently. Past a window or chunk of W tokens, vLLM keeps W "
        "during a decode step, as Mistral's rolling buffer and transformers' static cache do; transformers' "
        "default dynamic cache keeps W − 1 between steps, because the next token attends to itself and the "  # noqa: RUF001
        "W − 1 before it. A layer with a fixed-size state keeps its convolution's last width − 1 inputs in vLLM "  # noqa: RUF001
        "and the last width in transformers, which also keeps the recurrent state in FP32.",
    ),
    default="window",
    choices=(
        Choice("window", N_("input", "vLLM, Mistral's rolling buffer: W tokens"), number="0"),
        Choice("window-minus-one", N_("input", "transformers' dynamic cache: W − 1 tokens"), number="1"),  # noqa: RUF001
    ),
    fraction_digits=0,
    optional=True,
)
BATCH_SIZE = InputSpec(
    name="batch_size",
    kind=Kind.INTEGER,
    group=WORKLOAD,
    label=N_("input", "Sequences in the batch"),
    help=N_("input", "Sequences served at the same time, each with its own cache."),
    default="1",
    unit=units.SEQUENCES,
    minimum=Decimal(1),
    maximum=Decimal(1000000),
    fraction_digits=0,
)
SEQ_LEN = InputSpec(
    name="seq_len",
    kind=Kind.INTEGER,
    group=WORKLOAD,
    label=N_("input", "Sequence length"),
    help=N_(
        "input",
        "Tokens in each training sequence, usually the context length the model is trained at. With "
        "packed sequences every position holds a real token; with padding, some do not.",
    ),
    default="2048",
    unit=N_("input", "tokens"),
    minimum=Decimal(1),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
BYTES_PER_ELEMENT = InputSpec(
    name="bytes_per_element",
    kind=Kind.CHOICE,
    group=MODEL,
    label=N_("input", "Cache precision"),
    help=N_("input", "How each cached number is stored. An FP8 cache takes half of BF16."),
    default="2",
    choices=(
        Choice("4", N_("input", "FP32 (4 bytes)")),
        Choice("2", N_("input", "BF16 or FP16 (2 bytes)")),
        Choice("1", N_("input", "FP8 or INT8 (1 byte)")),
    ),
    fraction_digits=0,
)
BITS_PER_WEIGHT = InputSpec(
    name="bits_per_weight",
    kind=Kind.DECIMAL,
    group=MODEL,
    label=N_("input", "Bits per weight"),
    help=N_(
        "input",
        "How the weights are stored: 16 for BF16 or FP16, 8 for FP8 or INT8, 4 for 4-bit formats. "
        "Quantized formats with scales take a little more, such as 4.5 for llama.cpp's Q4_K.",
    ),
    default="4.8944",
    unit=N_("input", "bits"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(64),
    fraction_digits=5,
)
DATA_PARALLEL = InputSpec(
    name="data_parallel",
    kind=Kind.INTEGER,
    group=BATCH_SETUP,
    label=N_("input", "Data-parallel GPUs"),
    help=N_(
        "input",
        "Replicas that each run their own micro-batches; their gradients are averaged at every "
        "optimizer step. Count data-parallel replicas only: with tensor or pipeline parallelism "
        "this is the GPU count divided by those degrees.",
    ),
    default="1",
    unit=units.GPUS,
    minimum=Decimal(1),
    maximum=Decimal(1000000),
    fraction_digits=0,
)
MICRO_BATCH = InputSpec(
    name="micro_batch",
    kind=Kind.INTEGER,
    group=BATCH_SETUP,
    label=N_("input", "Micro-batch size"),
    help=N_(
        "input",
        "Samples one GPU pushes through a single forward and backward pass. Peak activation memory "
        "follows this number, however many micro-batches you accumulate.",
    ),
    default="4",
    unit=N_("input", "samples"),
    minimum=Decimal(1),
    maximum=Decimal(1000000),
    fraction_digits=0,
)
ACCUMULATION_STEPS = InputSpec(
    name="accumulation_steps",
    kind=Kind.INTEGER,
    group=BATCH_SETUP,
    label=N_("input", "Accumulation steps"),
    help=N_(
        "input",
        "Micro-batches whose gradients are added up before each optimizer step "
        "(gradient_accumulation_steps). Use 1 without accumulation.",
    ),
    default="8",
    unit=N_("input", "steps"),
    minimum=Decimal(1),
    maximum=Decimal(1000000),
    fraction_digits=0,
)
TOKENS_BILLION = InputSpec(
    name="tokens_billion",
    kind=Kind.DECIMAL,
    group=TRAINING_RUN,
    label=N_("input", "Training tokens"),
    help=N_("input", "The token budget of the whole run, in billions: 2000 for the 2 trillion tokens of Llama 2."),
    default="2000",
    unit=N_("input", "billion"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(10_000_000),
    fraction_digits=3,
)
COMPUTE_FLOPS = InputSpec(
    name="compute_flops",
    kind=Kind.DECIMAL,
    group=BUDGET,
    label=N_("input", "Compute budget"),
    help=N_(
        "input",
        "Total training compute in floating-point operations. Type it with an exponent: 3.14e23 is "
        "GPT-3's budget, 5.76e23 Gopher's and Chinchilla's.",
    ),
    default="5.76e23",
    unit=N_("input", "FLOPs"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal("1e35"),
    fraction_digits=0,
)


CACHED_TOKENS = OutputSpec(
    name="cached_tokens",
    label=N_("input", "Tokens kept per layer"),
    unit=N_("input", "tokens"),
    # Translators: {cached_tokens}, {context_tokens} and {sliding_window} are formatted numbers of tokens,
    # {sliding_window_share} a percentage (the % sign follows the placeholder).
    sentence=N_(
        "input",
        "With a window or chunk of {sliding_window} tokens (0: none) on the layers that use it "
        "({sliding_window_share}%), each attention layer keeps {cached_tokens} of the {context_tokens} tokens "
        "of a sequence, on average: a windowed or chunked layer keeps only the most recent tokens it can "
        "still attend to, the others keep them all.",
    ),
    fraction_digits=0,
)
"""The result `cached_tokens` gives, for the calculators that take the sliding-window inputs."""


def count_input(
    name: str,
    group: Message,
    label: Message,
    help_text: Message,
    default: str,
    *,
    preset: str | None = None,
    minimum: int = 1,
    maximum: int = 100_000,
    advanced: bool = False,
) -> InputSpec:
    """A whole-number architecture fact, as config.json states it."""
    return InputSpec(
        name=name,
        kind=Kind.INTEGER,
        group=group,
        label=label,
        help=help_text,
        default=default,
        minimum=Decimal(minimum),
        maximum=Decimal(maximum),
        fraction_digits=0,
        advanced=advanced,
        preset=preset,
    )


def choice_input(
    name: str, group: Message, label: Message, help_text: Message, default: str, choices: tuple[Choice, ...]
) -> InputSpec:
    """A choice input whose options send their numbers to the formula."""
    return InputSpec(
        name=name,
        kind=Kind.CHOICE,
        group=group,
        label=label,
        help=help_text,
        default=default,
        choices=choices,
        fraction_digits=0,
    )


def yes_no_input(name: str, group: Message, label: Message, help_text: Message, *, preset: str) -> InputSpec:
    """An advanced architecture switch a preset sets: "1" yes, "0" (the default) no."""
    return replace(choice_input(name, group, label, help_text, "0", units.YES_NO), advanced=True, preset=preset)


_LATENT = N_("input", "Router bias and latent attention (DeepSeek)")
LATENT_ATTENTION_INPUTS: tuple[InputSpec, ...] = (
    yes_no_input(
        "router_bias",
        _LATENT,
        N_("input", "Router bias"),
        N_(
            "input",
            "Whether the router keeps one bias per routed expert, as DeepSeek-V3 does to balance the load "
            "between experts (e_score_correction_bias). Mixtral's router has none.",
        ),
        preset="model.router_bias",
    ),
    count_input(
        "q_lora_rank",
        _LATENT,
        N_("input", "Query compression rank"),
        N_(
            "input",
            "q_lora_rank in config.json (1,536 for DeepSeek-V3). 0 projects the queries directly, as "
            "DeepSeek-V2-Lite does.",
        ),
        "0",
        minimum=0,
        advanced=True,
        preset="model.q_lora_rank",
    ),
    count_input(
        "kv_lora_rank",
        _LATENT,
        N_("input", "Key-value compression rank"),
        N_(
            "input",
            "kv_lora_rank in config.json (512 for DeepSeek-V3). 0 means standard attention with the "
            "key-value heads and head dimension above; anything else switches to multi-head latent attention.",
        ),
        "0",
        minimum=0,
        advanced=True,
        preset="model.kv_lora_rank",
    ),
    count_input(
        "qk_nope_head_dim",
        _LATENT,
        N_("input", "Query-key dimension without rotary positions"),
        N_("input", "qk_nope_head_dim in config.json (128 for DeepSeek-V3)."),
        "0",
        minimum=0,
        advanced=True,
        preset="model.qk_nope_head_dim",
    ),
    count_input(
        "qk_rope_head_dim",
        _LATENT,
        N_("input", "Query-key dimension with rotary positions"),
        N_("input", "qk_rope_head_dim in config.json (64 for DeepSeek-V3)."),
        "0",
        minimum=0,
        advanced=True,
        preset="model.qk_rope_head_dim",
    ),
    count_input(
        "v_head_dim",
        _LATENT,
        N_("input", "Value head dimension"),
        N_("input", "v_head_dim in config.json (128 for DeepSeek-V3)."),
        "0",
        minimum=0,
        advanced=True,
        preset="model.v_head_dim",
    ),
)
"""DeepSeek-V2/V3's details, shared with the MoE calculator: a router bias and multi-head latent attention."""


MEMORY_SAVERS = N_("input", "Memory savers")


def _memory_choice(
    name: str, label: Message, help_text: Message, default: str, choices: tuple[Choice, ...]
) -> InputSpec:
    """A choice of how training saves memory (`vocabulary/memory.py` reads the numbers)."""
    return choice_input(name, MEMORY_SAVERS, label, help_text, default, choices)


CHECKPOINTING = _memory_choice(
    "checkpointing",
    N_("input", "Activation checkpointing"),
    N_(
        "input",
        "Full checkpointing keeps each layer's input and recomputes one layer at a time in the backward "
        "pass (gradient_checkpointing in transformers). Offloading also moves the kept inputs to the "
        "CPU (torchtune's enable_activation_offloading). Selective recomputes only attention's score "
        "matrix (Korthikanti et al.), which a fused attention kernel never keeps anyway.",
    ),
    "full",
    (
        Choice("none", N_("input", "None"), number="0"),
        Choice("full", N_("input", "Full, per layer"), number="1"),
        Choice("selective", N_("input", "Selective (attention scores)"), number="2"),
        Choice("offloaded", N_("input", "Full, offloaded to the CPU"), number="3"),
    ),
)
ATTENTION_KERNEL = _memory_choice(
    "attention",
    N_("input", "Attention kernel"),
    N_(
        "input",
        "FlashAttention and PyTorch's SDPA keep no score matrix; eager attention keeps an fp32 softmax "
        "and its 16-bit copy, which grow with the square of the sequence.",
    ),
    "fused",
    (
        Choice("fused", N_("input", "Fused: FlashAttention or SDPA"), number="0"),
        Choice("eager", N_("input", "Eager"), number="1"),
    ),
)
CROSS_ENTROPY = _memory_choice(
    "cross_entropy",
    N_("input", "Loss"),
    N_(
        "input",
        "The logits are batch × sequence × vocabulary numbers. Unchunked, they are upcast to fp32 and "
        "kept with two fp32 gradients; in chunks (torchtune's CEWithChunkedOutputLoss, litgpt) the 16-bit "
        "logits and fp32 log-probabilities remain; a fused kernel (Liger) keeps neither.",
    ),
    "full",
    (
        Choice("full", N_("input", "Unchunked cross-entropy"), number="0"),
        Choice("chunked", N_("input", "Chunked cross-entropy"), number="1"),
        Choice("fused", N_("input", "Fused linear cross-entropy"), number="2"),
    ),
)


MOE_SHAPE: tuple[InputSpec, ...] = (
    replace(EXPERTS, default="0", advanced=True),
    replace(EXPERTS_PER_TOKEN, default="0", advanced=True),
    replace(EXPERT_FFN_SIZE, default="0", advanced=True),
    replace(SHARED_EXPERTS, advanced=True),
    replace(DENSE_LAYERS, advanced=True),
)
"""A mixture of experts' shape in closed advanced options, dense (0 experts) unless a preset or config fills it."""
MODEL_SHAPE: tuple[InputSpec, ...] = (
    LAYERS,
    HIDDEN_SIZE,
    ATTENTION_HEADS,
    KV_HEADS,
    HEAD_DIM,
    FFN_SIZE,
    replace(VOCAB_SIZE, default="128256"),
)
"""The shape `vocabulary/memory.py` computes activations from (Llama-3.1-8B's by default)."""
MEMORY_SAVER_INPUTS: tuple[InputSpec, ...] = (CHECKPOINTING, ATTENTION_KERNEL, CROSS_ENTROPY)


def advanced_groups(*groups: tuple[Message, tuple[InputSpec, ...]]) -> tuple[InputSpec, ...]:
    """Inputs added to a published page in closed groups of advanced options: optional, so old links keep working."""
    return tuple(replace(spec, group=group, optional=True, advanced=True) for group, specs in groups for spec in specs)


SEEN_MEMORY = InputSpec(
    name="usable_memory_gib",
    kind=Kind.DECIMAL,
    group=MEMORY,
    label=N_("input", "Memory the framework sees"),
    help=N_(
        "input",
        "The total nvidia-smi reports, or on a Mac the share of memory Metal lets the GPU use "
        "(recommendedMaxWorkingSetSize). Choosing a GPU fills it where a reading was published: 22.5 GiB for an "
        "A10G sold as 24 GB. At 0 the memory as sold is used.",
    ),
    unit=units.GIB,
    default="0",
    minimum=Decimal(0),
    maximum=Decimal(1_000_000),
    fraction_digits=3,
    preset="gpu.usable_gib",
    optional=True,
)
"""What a framework can allocate on one GPU where a reading says it differs from the label (`seen_bytes`)."""


def _seen_within_label(values: Mapping[str, float]) -> bool:
    return values["usable_memory_gib"] <= values["gpu_memory_gb"]


SEEN_MEMORY_RULE = Rule(
    "usable_memory_gib",
    _seen_within_label,
    # Translators: {gpu_memory_gb} is the GPU memory entered, in GB.
    N_(
        "input",
        "Enter at most the {gpu_memory_gb} GB the GPU is sold with: frameworks see the memory as sold, in GiB, or "
        "less. Enter 0 to use the memory as sold.",
    ),
)
"""Vendors print capacity in GiB-sized "GB", and what a framework sees is that or less (presets.py checks it too)."""


def seen_bytes(values: Mapping[str, float], label_unit: float) -> float:
    """The memory a framework sees on one GPU, in bytes: the reading of `SEEN_MEMORY` where one is given, else the
    memory as sold read in `label_unit` (2³⁰ where a page reads a label as GiB, as CUDA shows an A100's 80 GB)."""
    seen = values.get("usable_memory_gib", 0.0)
    return seen * 2.0**30 if seen else values["gpu_memory_gb"] * label_unit


CUDA_CONTEXT = InputSpec(
    name="cuda_context_gb",
    kind=Kind.DECIMAL,
    group=MEMORY,
    label=N_("input", "CUDA context"),
    help=N_(
        "input",
        "Memory the driver, the CUDA context and the loaded kernels take outside PyTorch: 0.3 to "
        "1.3 GB, depending on the GPU, CUDA and the libraries loaded.",
    ),
    unit=units.GB,
    default="0.5",
    minimum=Decimal(0),
    maximum=Decimal(1000),
    fraction_digits=3,
    optional=True,
    advanced=True,
)
