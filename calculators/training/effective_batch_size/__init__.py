"""Effective batch size: sequences and tokens per optimizer step, and the steps a token budget takes.

Formulas (DeepSpeed configuration docs: `train_batch_size` = `train_micro_batch_size_per_gpu` ×
`gradient_accumulation_steps` × GPUs; Hugging Face Trainer's "total train batch size"):
sequences per step E = b·a·g, with g the data-parallel degree (GPUs ÷ (tensor × pipeline
parallel degrees)); tokens per step T = E·s for sequences of s tokens; optimizer steps for a
budget of D tokens = D / T.

Published batches (Kaplan et al., arXiv:2001.08361, §2.2: 512 sequences of 1024 tokens;
Llama 2 model card: "a global batch-size of 4M tokens" at a 4k context) are quoted in tokens,
and "M" there is binary: 1,024 sequences × 4,096 tokens = 4 × 2²⁰ = 4,194,304 tokens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from calculators.kernel.spec import Calculator, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

_BATCH = inputs.BATCH_SETUP
_RUN = inputs.TRAINING_RUN


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the sequences and tokens of one optimizer step and the steps the token budget takes.

    Kaplan et al. §2.2 train with 512 sequences of 1,024 tokens, 2¹⁹ tokens per step; Llama 2's
    "4M tokens" at 4,096 tokens per sequence is 1,024 sequences, and its 2T tokens take about
    476,837 steps:

    >>> kaplan = compute({"micro_batch": 512, "accumulation_steps": 1, "data_parallel": 1,
    ...                   "seq_len": 1024, "tokens_billion": 1})
    >>> kaplan["tokens_per_step"] == 2**19
    True
    >>> llama = compute({"micro_batch": 2, "accumulation_steps": 4, "data_parallel": 128,
    ...                  "seq_len": 4096, "tokens_billion": 2000})
    >>> llama["effective_batch"], llama["tokens_per_step"], round(llama["optimizer_steps"])
    (1024, 4194304, 476837)
    """
    sequences = values["micro_batch"] * values["accumulation_steps"] * values["data_parallel"]
    tokens = sequences * values["seq_len"]
    return {
        "effective_batch": sequences,
        "tokens_per_step": tokens,
        "optimizer_steps": values["tokens_billion"] * 1e9 / tokens,
    }


CALCULATOR = Calculator(
    title=N_("Effective batch size"),
    summary=N_(
        "Find how many sequences and tokens one optimizer step learns from, from the micro-batch, the "
        "gradient accumulation steps, the data-parallel degree and the sequence length, and how many "
        "steps a token budget takes.",
    ),
    inputs=(
        replace(
            inputs.MICRO_BATCH,
            group=_BATCH,
            help=N_(
                "Sequences one GPU processes in a single forward and backward pass: per_device_train_batch_size "
                "in Hugging Face, train_micro_batch_size_per_gpu in DeepSpeed.",
            ),
            default="2",
            unit=N_("sequences"),
        ),
        replace(
            inputs.ACCUMULATION_STEPS,
            group=_BATCH,
            label=N_("Gradient accumulation steps"),
            default="4",
        ),
        replace(
            inputs.DATA_PARALLEL,
            group=_BATCH,
            label=N_("Data-parallel degree"),
            help=N_(
                "Model replicas that each process their own micro-batches. This is the GPU count divided by the "
                "tensor-parallel and pipeline-parallel degrees: 16 GPUs with tensor parallelism 2 and pipeline "
                "parallelism 2 give 4, not 16.",
            ),
            default="128",
            unit=N_("replicas"),
        ),
        replace(inputs.SEQ_LEN, group=_BATCH, default="4096"),
        replace(inputs.TOKENS_BILLION, group=_RUN),
    ),
    outputs=(
        OutputSpec(
            name="tokens_per_step",
            label=N_("Tokens per optimizer step"),
            unit=N_("tokens"),
            # Translators: {tokens_per_step} is a formatted number of tokens, {effective_batch} a number of
            # sequences, {seq_len} the tokens in one sequence.
            sentence=N_(
                "Each optimizer step learns from sequences × sequence length = {effective_batch} × {seq_len} "
                "= {tokens_per_step} tokens.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="effective_batch",
            label=N_("Sequences per optimizer step"),
            unit=NP_("sequence", "sequences", count="effective_batch"),
            # Translators: {effective_batch}, {micro_batch}, {accumulation_steps} and {data_parallel} are
            # formatted whole numbers.
            sentence=NP_(
                "The global batch is {effective_batch} sequence: micro-batch × accumulation steps × "
                "data-parallel degree = {micro_batch} × {accumulation_steps} × {data_parallel}.",
                "The global batch is {effective_batch} sequences: micro-batch × accumulation steps × "
                "data-parallel degree = {micro_batch} × {accumulation_steps} × {data_parallel}.",
                count="effective_batch",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="optimizer_steps",
            label=N_("Optimizer steps"),
            unit=NP_("step", "steps", count="optimizer_steps"),
            # Translators: {optimizer_steps} is a formatted number of steps, {tokens_billion} a number
            # of billions of tokens, {tokens_per_step} a number of tokens.
            sentence=NP_(
                "A budget of {tokens_billion} billion tokens takes about {optimizer_steps} optimizer "
                "step of {tokens_per_step} tokens.",
                "A budget of {tokens_billion} billion tokens takes about {optimizer_steps} optimizer "
                "steps of {tokens_per_step} tokens.",
                count="optimizer_steps",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(r"E = b \cdot a \cdot g", r"T = E \cdot s", r"S = \frac{D}{T}"),
    related=("gradient-accumulation-memory", "lr-warmup", "training-flops", "dataset-tokens"),
)
