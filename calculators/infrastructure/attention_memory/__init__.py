"""Attention memory: the s × s score matrices of standard attention against FlashAttention's statistics.

Standard attention materialises, per layer, one s × s matrix per head and sequence: b · a · s² numbers.
In 16-bit training with dropout, Korthikanti et al. ("Reducing Activation Recomputation in Large
Transformer Models", arXiv:2205.05198, §4.1, Eq. 1) keep three of them for the backward pass: the
softmax output (2 bytes per score), the dropout mask (1 byte) and the dropout output (2 bytes), so
5 · a · s² · b bytes per layer, against 34 · s · b · h bytes for the rest of the layer; §5 works out
5as/h = 80 for GPT-3.

FlashAttention (Dao et al., arXiv:2205.14135, §3.1) computes attention in tiles and never writes the
s × s matrices to GPU memory. For the backward pass it keeps only the softmax normalisation statistics
of each row; the released kernels store one FP32 log-sum-exp per row, b · a · s · 4 bytes per layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, ChartPart, Choice, InputSpec, Kind, MemoryChart, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL
_WORKLOAD = inputs.WORKLOAD

_LSE_BYTES = 4  # one FP32 log-sum-exp per row, as FlashAttention's kernels save it
_REST_OF_LAYER = 34  # Korthikanti et al. Eq. 1: everything but the score matrices, bytes per s·b·h


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the score matrices' memory, FlashAttention's statistics, and Korthikanti's attention share.

    One 16-bit matrix for b = 1, 32 heads and 4,096 tokens is exactly 1 GiB per layer, and FlashAttention's
    log-sum-exp for the same shape is 524,288 bytes (512 KiB):

    >>> result = compute({"batch_size": 1, "attention_heads": 32, "seq_len": 4096, "hidden_size": 4096,
    ...                   "layers": 1, "score_bytes": 2, "memory_unit": 2**30})
    >>> result["naive_memory"], result["naive_per_layer_mib"], result["flash_per_layer_kib"]
    (1.0, 1024.0, 512.0)

    Korthikanti et al. §5: for GPT-3 (a = 96, s = 2,048, h = 12,288), 5as/h = 80 against 34 for the
    rest of the layer, so selective recomputation of attention saves 70% of the activations:

    >>> gpt3 = compute({"batch_size": 1, "attention_heads": 96, "seq_len": 2048, "hidden_size": 12288,
    ...                 "layers": 96, "score_bytes": 5, "memory_unit": 1e9})
    >>> gpt3["attention_term"], round(gpt3["attention_share"])
    (80.0, 70)
    """
    batch, heads, seq = values["batch_size"], values["attention_heads"], values["seq_len"]
    layers, unit = values["layers"], values["memory_unit"]
    naive_per_layer = batch * heads * seq * seq * values["score_bytes"]
    flash_per_layer = batch * heads * seq * _LSE_BYTES
    naive = naive_per_layer * layers / unit
    flash = flash_per_layer * layers / unit
    # Korthikanti et al. count the stored matrices as 5as/h in units of s·b·h bytes, whatever is chosen above.
    term = 5 * heads * seq / values["hidden_size"]
    return {
        "naive_memory": naive,
        "naive_per_layer_mib": naive_per_layer / 2**20,
        "flash_memory": flash,
        "flash_per_layer_kib": flash_per_layer / 2**10,
        # The bar shows the naive total split into what FlashAttention still keeps and what it saves.
        "saved_memory": naive - flash,
        "attention_term": term,
        "attention_share": 100 * term / (_REST_OF_LAYER + term),
    }


CALCULATOR = Calculator(
    title=N_("Attention memory: standard vs FlashAttention"),
    summary=N_(
        "Work out how much GPU memory the attention score matrices of standard attention take, which grow "
        "with the square of the sequence length, and how little FlashAttention keeps instead.",
    ),
    inputs=(
        replace(
            inputs.BATCH_SIZE,
            group=_WORKLOAD,
            help=N_(
                "Sequences processed together on one GPU: the micro-batch in training.",
            ),
        ),
        replace(
            inputs.SEQ_LEN,
            group=_WORKLOAD,
            help=N_(
                "Tokens in each sequence. The score matrices grow with its square, FlashAttention's "
                "statistics only in proportion to it.",
            ),
            minimum=Decimal(16),
            maximum=Decimal(10_000_000),
        ),
        InputSpec(
            name="score_bytes",
            kind=Kind.CHOICE,
            group=_WORKLOAD,
            label=N_("What standard attention keeps"),
            help=N_(
                "Bytes kept per attention score. Training in 16-bit with attention dropout keeps the softmax "
                "output, the dropout mask and the dropout output for the backward pass: 5 bytes. Without "
                "dropout, or in inference, one matrix is held: 2 bytes in 16-bit, 4 in FP32.",
            ),
            default="5",
            choices=(
                Choice("5", N_("16-bit training with dropout (5 bytes)")),
                Choice("2", N_("One 16-bit matrix (2 bytes)")),
                Choice("4", N_("One FP32 matrix (4 bytes)")),
            ),
            fraction_digits=0,
        ),
        replace(
            inputs.ATTENTION_HEADS,
            group=_MODEL,
            help=N_(
                "Query heads, num_attention_heads in config.json. Each one has its own score matrix, "
                "even when several share a key-value head.",
            ),
            default="96",
        ),
        replace(
            inputs.LAYERS,
            group=_MODEL,
            help=N_(
                "Layers whose matrices are held at the same time. In training every layer keeps them until "
                "the backward pass; in inference only one layer holds them at a time, so enter 1.",
            ),
            default="96",
        ),
        replace(
            inputs.HIDDEN_SIZE,
            group=_MODEL,
            help=N_(
                "hidden_size in config.json. It only enters the comparison with the rest of the layer's activations.",
            ),
            default="12288",
        ),
        replace(inputs.MEMORY_UNIT, group=_WORKLOAD),
    ),
    outputs=(
        OutputSpec(
            name="naive_memory",
            label=N_("Standard attention"),
            unit_choice="memory_unit",
            # Translators: {naive_memory} is a formatted amount of memory and {memory_unit_label} its unit
            # (GB or GiB); {batch_size}, {attention_heads}, {seq_len}, {score_bytes} and {layers} are the inputs.
            sentence=N_(
                "Standard attention keeps sequences × heads × tokens² × bytes = {batch_size} × {attention_heads} "
                "× {seq_len}² × {score_bytes} bytes in each of {layers} layers: {naive_memory} "
                "{memory_unit_label}.",
            ),
        ),
        OutputSpec(
            name="flash_memory",
            label=N_("FlashAttention statistics"),
            unit_choice="memory_unit",
            # Translators: {flash_memory} is a formatted amount of memory and {memory_unit_label} its unit
            # (GB or GiB); {batch_size}, {attention_heads}, {seq_len} and {layers} are the inputs.
            sentence=N_(
                "FlashAttention keeps one 4-byte log-sum-exp per row instead: {batch_size} × "
                "{attention_heads} × {seq_len} × 4 bytes in each of {layers} layers, {flash_memory} "
                "{memory_unit_label}.",
            ),
            fraction_digits=6,
        ),
        OutputSpec(
            name="saved_memory",
            label=N_("Saved by FlashAttention"),
            unit_choice="memory_unit",
            # Translators: {saved_memory} is a formatted amount of memory and {memory_unit_label} its unit.
            sentence=N_(
                "FlashAttention avoids storing {saved_memory} {memory_unit_label} of attention matrices.",
            ),
        ),
        OutputSpec(
            name="naive_per_layer_mib",
            label=N_("Standard attention per layer"),
            unit=N_("MiB"),
            # Translators: {naive_per_layer_mib} is a formatted number of MiB.
            sentence=N_(
                "Each layer holds {naive_per_layer_mib} MiB of attention matrices.",
            ),
        ),
        OutputSpec(
            name="flash_per_layer_kib",
            label=N_("FlashAttention per layer"),
            unit=N_("KiB"),
            # Translators: {flash_per_layer_kib} is a formatted number of KiB.
            sentence=N_(
                "With FlashAttention each layer keeps {flash_per_layer_kib} KiB of statistics.",
            ),
        ),
        OutputSpec(
            name="attention_share",
            label=N_("Share of a layer's activations"),
            unit=N_("%"),
            # Translators: {attention_term} and {attention_share} are formatted numbers; 34 and 5as/h are
            # the terms of Korthikanti et al.'s formula and stay as they are.
            sentence=N_(
                "In 16-bit training with dropout, a layer stores s·b·h·(34 + 5as/h) bytes of activations "
                "(Korthikanti et al.). Here 5as/h = {attention_term}, so the attention matrices' share of "
                "the layer's activations is {attention_share}%.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="attention_term",
            label=N_("Attention term 5as/h"),
            # Translators: {attention_term} is a formatted number; {attention_heads}, {seq_len} and
            # {hidden_size} are the inputs.
            sentence=N_(
                "5 × heads × tokens ÷ hidden size = 5 × {attention_heads} × {seq_len} ÷ {hidden_size} "
                "= {attention_term}, against 34 for everything else in the layer.",
            ),
            fraction_digits=2,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"M_{std} = b \cdot a \cdot s^{2} \cdot p \cdot L",
        r"M_{flash} = b \cdot a \cdot s \cdot 4 \cdot L",
        r"A_{layer} = s b h \left( 34 + \frac{5 a s}{h} \right)",
    ),
    related=("kv-cache-size", "llm-training-vram", "gradient-accumulation-memory"),
    chart=MemoryChart(
        parts=(
            ChartPart("flash_memory", N_("Kept by FlashAttention (statistics)")),
            ChartPart("saved_memory", N_("Saved by FlashAttention")),
        )
    ),
)
