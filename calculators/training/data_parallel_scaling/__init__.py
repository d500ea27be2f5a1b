"""Data-parallel scaling: the time to all-reduce the gradients, and what it costs in efficiency.

Formula (NVIDIA nccl-tests, doc/PERFORMANCE.md, "AllReduce"): an all-reduce of S bytes over n
ranks needs 2(n - 1) transfers per element spread over n links of bandwidth B, so it takes at best
t = (S / B) · 2(n - 1) / n, where B is the per-rank "bus bandwidth" nccl-tests reports. Here S is
the gradient of every parameter at the gradient's precision. Without overlap of communication and
computation a step takes t_step = t_compute + t, and the weak-scaling efficiency (each GPU keeps its
own batch) is η = throughput_n / (n · throughput_1) = t_compute / t_step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL
_CLUSTER = N_("Cluster")
_STEP = N_("Training step")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the gradient size (GB), the all-reduce and step times (s), the efficiency (%) and the speed-up.

    The ring bound with S = 1 GB and B = 10 GB/s: 0.1 s on 2 GPUs, 0.196875 s on 64:

    >>> [round(compute({"params_billion": 0.5, "gradient_bytes": 2, "data_parallel": n, "bus_bandwidth_gb_s": 10,
    ...                 "compute_time_s": 1})["allreduce_time_s"], 9) for n in (2, 64)]
    [0.1, 0.196875]

    Llama-2-7B's 6,738,415,616 BF16 gradients (13.48 GB) on 8 GPUs at 100 GB/s take 0.2358 s:

    >>> result = compute({"params_billion": 6.738415616, "gradient_bytes": 2, "data_parallel": 8,
    ...                   "bus_bandwidth_gb_s": 100, "compute_time_s": 1.06})
    >>> round(result["gradient_gb"], 4), round(result["allreduce_time_s"], 4)
    (13.4768, 0.2358)
    """
    gradient_gb = values["params_billion"] * values["gradient_bytes"]  # 10⁹ parameters × bytes = GB
    ranks = values["data_parallel"]
    allreduce = gradient_gb / values["bus_bandwidth_gb_s"] * 2 * (ranks - 1) / ranks
    compute_time = values["compute_time_s"]
    step = compute_time + allreduce
    efficiency = compute_time / step
    return {
        "gradient_gb": gradient_gb,
        "allreduce_time_s": allreduce,
        "step_time_s": step,
        "scaling_efficiency": efficiency * 100,
        "speedup": efficiency * ranks,
    }


CALCULATOR = Calculator(
    title=N_("Data-parallel scaling"),
    summary=N_(
        "Estimate how long the gradient all-reduce of data-parallel training takes on your interconnect, "
        "how much it adds to each step, and the scaling efficiency that leaves.",
    ),
    inputs=(
        replace(
            inputs.PARAMS_BILLION,
            group=_MODEL,
            help=N_(
                "The model's size in billions of parameters: every one of them has a gradient to average. "
                "The default is Llama-2-7B's exact count.",
            ),
            default="6.738415616",
        ),
        InputSpec(
            name="gradient_bytes",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("Gradient precision"),
            help=N_(
                "The precision the gradients are all-reduced in. PyTorch DDP reduces them in the parameters' "
                "own precision, so automatic mixed precision with FP32 weights sends 4 bytes per parameter; "
                "BF16 weights, or FSDP with a BF16 reduce type, send 2.",
            ),
            default="2",
            choices=(
                Choice("4", N_("FP32 (4 bytes)")),
                Choice("2", N_("BF16 or FP16 (2 bytes)")),
            ),
            fraction_digits=0,
        ),
        replace(
            inputs.DATA_PARALLEL,
            group=_CLUSTER,
            help=N_(
                "GPUs that each hold a full copy of the model and average their gradients every step. "
                "With tensor or pipeline parallelism as well, this is the total GPUs divided by their product.",
            ),
            default="8",
        ),
        InputSpec(
            name="bus_bandwidth_gb_s",
            kind=Kind.DECIMAL,
            group=_CLUSTER,
            label=N_("Bus bandwidth per GPU"),
            help=N_(
                "The bandwidth each GPU has for the all-reduce, in gigabytes per second: the busbw column of "
                "NVIDIA's nccl-tests. Network links are sold in gigabits per second: divide by 8, so a "
                "400 Gbit/s InfiniBand port is 50 GB/s.",
            ),
            unit=N_("GB/s"),
            default="100",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=3,
        ),
        InputSpec(
            name="compute_time_s",
            kind=Kind.DECIMAL,
            group=_STEP,
            label=N_("Compute time per step"),
            help=N_(
                "Forward and backward time of one optimizer step on one GPU, every accumulated micro-batch "
                "included. The default, 1.06 s, is one 4,096-token sequence of Llama-2-7B at 6 FLOPs per "
                "parameter per token on a GPU that sustains 156 TFLOP/s, half of an A100's BF16 peak.",
            ),
            unit=N_("s"),
            default="1.06",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=4,
        ),
    ),
    outputs=(
        OutputSpec(
            name="allreduce_time_s",
            label=N_("All-reduce time"),
            unit=N_("s"),
            # Translators: {gradient_gb} is a formatted number of GB, {bus_bandwidth_gb_s} of GB/s,
            # {data_parallel} a number of GPUs, {allreduce_time_s} a number of seconds.
            sentence=N_(
                "At best, (S ÷ B) × 2(n - 1) ÷ n = ({gradient_gb} GB ÷ {bus_bandwidth_gb_s} GB/s) × "
                "2 × ({data_parallel} - 1) ÷ {data_parallel} = {allreduce_time_s} s for each all-reduce.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="gradient_gb",
            label=N_("Gradients per GPU"),
            unit=N_("GB"),
            # Translators: {params_billion} is billions of parameters (hence × 10⁹), {gradient_bytes} bytes per
            # gradient, {gradient_gb} their product in GB; all are formatted numbers.
            sentence=N_(
                "Every GPU holds {params_billion} × 10⁹ gradients × {gradient_bytes} bytes = {gradient_gb} GB, "
                "the size S that each all-reduce averages.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="step_time_s",
            label=N_("Step time without overlap"),
            unit=N_("s"),
            # Translators: {compute_time_s}, {allreduce_time_s} and {step_time_s} are formatted numbers of seconds.
            sentence=N_(
                "If communication does not overlap with computation, a step takes {compute_time_s} s of "
                "compute + {allreduce_time_s} s of all-reduce = {step_time_s} s.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="scaling_efficiency",
            label=N_("Scaling efficiency"),
            unit=N_("%"),
            # Translators: {compute_time_s} and {step_time_s} are formatted numbers of seconds,
            # {scaling_efficiency} a formatted percentage (the % sign follows the placeholder).
            sentence=N_(
                "Throughput of n GPUs ÷ (n × throughput of one GPU) = compute time ÷ step time = "
                "{compute_time_s} ÷ {step_time_s} = {scaling_efficiency}%.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="speedup",
            label=N_("Speed-up over one GPU"),
            # Translators: {data_parallel} is a number of GPUs, {speedup} a formatted number of times.
            sentence=N_(
                "{data_parallel} GPUs process {speedup} times as many samples per second as one GPU "
                "with the same batch per GPU.",
            ),
            fraction_digits=2,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"S = N \cdot b",
        r"t_{ar} = \frac{S}{B} \cdot \frac{2(n-1)}{n}",
        r"t_{step} = t_{compute} + t_{ar}",
        r"\eta = \frac{T_n}{n \cdot T_1} = \frac{t_{compute}}{t_{step}}",
    ),
    related=("parallel-training-planner", "pipeline-bubble", "training-flops", "effective-batch-size", "gpu-count"),
)
