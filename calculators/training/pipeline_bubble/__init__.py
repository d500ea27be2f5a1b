"""Pipeline bubble: the idle time of pipeline-parallel training, under both conventions in use.

With p stages and m micro-batches per step, every stage waits (p - 1) micro-batch slots while the
pipeline fills and drains. Narayanan et al. ("Efficient Large-Scale Language Model Training on GPU
Clusters Using Megatron-LM", arXiv:2104.04473, §2.2.1) divide that bubble by the ideal compute time:
(p - 1) / m; with v interleaved model chunks per device (§2.2.2) the bubble shrinks to
(1 / v) · (p - 1) / m. GPipe (Huang et al., arXiv:1811.06965, §2.3) states it as a share of the total
time, (K - 1) / (M + K - 1) for K stages and M micro-batches, and finds it negligible when M ≥ 4K.
Both describe the same bubble: with x = (p - 1) / (v · m), the share of total time is x / (1 + x) =
(p - 1) / (v · m + p - 1).

The interleaved formula holds only when m is a multiple of p, which Megatron-LM requires of its
interleaved schedule (megatron/core/pipeline_parallel/schedules.py,
forward_backward_pipelining_with_interleaving: "number of microbatches ... is not divisible by
pipeline-model-parallel-size ... when using interleaved schedule"; later versions keep the rule for
their default group of p micro-batches). Outside it the real schedule idles longer: p = 4, m = 2,
v = 2 idles 125% of the compute time, not 75%. The page refuses that combination.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, Rule, messages_of

N_, NP_ = messages_of(__name__)

_PIPELINE = N_("Pipeline")


def _interleaving_fits(values: Mapping[str, float]) -> bool:
    """Whether Megatron-LM runs its interleaved schedule here: one chunk, or m a multiple of p."""
    return values["model_chunks"] == 1 or values["micro_batches"] % values["pipeline_stages"] == 0


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the bubble relative to ideal compute time and as a share of total time, in percent.

    4 stages and 8 micro-batches: Megatron-LM's (p - 1) / m = 3/8, GPipe's (K - 1) / (M + K - 1) = 3/11;
    interleaving 2 chunks per device halves the first to 3/16:

    >>> result = compute({"pipeline_stages": 4, "micro_batches": 8, "model_chunks": 1})
    >>> result["bubble_vs_compute"], round(result["bubble_share"], 2)
    (37.5, 27.27)
    >>> compute({"pipeline_stages": 4, "micro_batches": 8, "model_chunks": 2})["bubble_vs_compute"]
    18.75
    """
    stages = values["pipeline_stages"]
    slots = values.get("model_chunks", 1) * values["micro_batches"]  # v·m chunk-sized slots per step
    idle = stages - 1
    return {
        "bubble_vs_compute": idle / slots * 100,
        "bubble_share": idle / (slots + idle) * 100,
        "gpipe_micro_batches": 4 * stages,
    }


CALCULATOR = Calculator(
    title=N_("Pipeline bubble"),
    summary=N_(
        "Work out how much time pipeline-parallel training spends idle while the pipeline fills and drains, "
        "from the number of stages, micro-batches and interleaved model chunks.",
    ),
    inputs=(
        InputSpec(
            name="pipeline_stages",
            kind=Kind.INTEGER,
            group=_PIPELINE,
            label=N_("Pipeline stages"),
            help=N_(
                "GPUs the layers are split across, one after the other: the pipeline-parallel size p "
                "(K in the GPipe paper).",
            ),
            unit=N_("stages"),
            default="8",
            minimum=Decimal(1),
            maximum=Decimal(10_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="micro_batches",
            kind=Kind.INTEGER,
            group=_PIPELINE,
            label=N_("Micro-batches per step"),
            help=N_(
                "How many micro-batches each batch is split into before it enters the pipeline: m "
                "(M in the GPipe paper). Per pipeline, this is the batch divided by the micro-batch size "
                "and by the data-parallel size.",
            ),
            unit=N_("micro-batches"),
            default="32",
            minimum=Decimal(1),
            maximum=Decimal(1_000_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="model_chunks",
            kind=Kind.INTEGER,
            group=_PIPELINE,
            label=N_("Model chunks per GPU"),
            help=N_(
                "Megatron-LM's interleaved schedule gives each GPU v smaller sets of layers instead of one, "
                "which divides the bubble by v at the cost of v times as much communication. "
                "Leave 1 for GPipe or the plain 1F1B schedule.",
            ),
            unit=N_("chunks"),
            default="1",
            minimum=Decimal(1),
            maximum=Decimal(1_000),
            fraction_digits=0,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="bubble_share",
            label=N_("Bubble, share of total time"),
            unit=N_("%"),
            # Translators: {pipeline_stages}, {model_chunks} and {micro_batches} are counts; {bubble_share} is a
            # formatted percentage (the % sign follows the placeholder).
            sentence=N_(
                "GPipe's convention: (p - 1) ÷ (v × m + p - 1) = ({pipeline_stages} - 1) ÷ ({model_chunks} × "
                "{micro_batches} + {pipeline_stages} - 1) = {bubble_share}%, the share of each step spent idle.",
            ),
        ),
        OutputSpec(
            name="bubble_vs_compute",
            label=N_("Bubble, relative to compute time"),
            unit=N_("%"),
            # Translators: {pipeline_stages}, {model_chunks} and {micro_batches} are counts;
            # {bubble_vs_compute} is a formatted percentage (the % sign follows the placeholder).
            sentence=N_(
                "Megatron-LM's convention: (p - 1) ÷ (v × m) = ({pipeline_stages} - 1) ÷ ({model_chunks} × "
                "{micro_batches}) = {bubble_vs_compute}%, added to the ideal compute time.",
            ),
        ),
        OutputSpec(
            name="gpipe_micro_batches",
            label=N_("Micro-batches for a negligible bubble"),
            unit=N_("micro-batches"),
            # Translators: {gpipe_micro_batches} and {pipeline_stages} are counts.
            sentence=NP_(
                "GPipe found the bubble negligible from 4 micro-batches per stage: {gpipe_micro_batches} or more "
                "for {pipeline_stages} stage.",
                "GPipe found the bubble negligible from 4 micro-batches per stage: {gpipe_micro_batches} or more "
                "for {pipeline_stages} stages.",
                count="pipeline_stages",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"\frac{t_{pb}}{t_{id}} = \frac{1}{v} \cdot \frac{p-1}{m}",
        r"\frac{t_{pb}}{t_{pb} + t_{id}} = \frac{p-1}{v \cdot m + p - 1}",
    ),
    related=(
        "parallel-training-planner",
        "data-parallel-scaling",
        "effective-batch-size",
        "training-flops",
        "llm-training-vram",
    ),
    rules=(
        Rule(
            "micro_batches",
            _interleaving_fits,
            # Translators: {pipeline_stages} and {model_chunks} are the numbers entered.
            N_(
                "With {model_chunks} model chunks per GPU, enter a multiple of the pipeline stages "
                "({pipeline_stages}): Megatron-LM's interleaved schedule runs only then, and the formula "
                "holds only then. Other counts need 1 model chunk per GPU.",
            ),
        ),
    ),
)
