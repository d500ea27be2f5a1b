"""Training time and cost: how long a run takes on a cluster, its GPU-hours and what they cost.

The run's model FLOPs follow the site's training-flops convention, C = 6·N·D for N parameters and D tokens
(Kaplan et al., arXiv:2001.08361, §2.1). A cluster of n GPUs of peak throughput P delivers a share of that
peak to the model's FLOPs, the model FLOPs utilization (MFU) of PaLM (Chowdhery et al., arXiv:2204.02311,
§4.1 and Table 3, 46.2% for PaLM 540B). MFU counts model FLOPs only: recomputed activations are not in it.

    T = C / (n · P · MFU)        GPU-hours = n · T / 3600        cost = GPU-hours × price per GPU-hour

Narayanan et al. (arXiv:2104.04473, §5.1) write the same estimate with the achieved FLOP/s per GPU, X, of a
run that recomputes activations, T ≈ 8·T·P / (n·X): their X counts 8 FLOPs per parameter and token, so it
matches an MFU of (6/8)·X / P on this page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost, inputs, units

N_, NP_ = messages_of(__name__)

SECONDS_PER_HOUR = 3600.0
HOURS_PER_DAY = 24.0
_CLUSTER = N_("Cluster")

GPUS = InputSpec(
    name="gpus",
    kind=Kind.INTEGER,
    group=_CLUSTER,
    label=N_("GPUs"),
    help=N_(
        "Accelerators that train the model together, every data, tensor and pipeline parallel rank counted.",
    ),
    default="1024",
    unit=units.GPUS,
    minimum=Decimal(1),
    maximum=Decimal(10_000_000),
    fraction_digits=0,
)
PEAK_TFLOPS = InputSpec(
    name="peak_tflops",
    kind=Kind.DECIMAL,
    group=_CLUSTER,
    label=N_("Peak throughput per GPU"),
    help=N_(
        "The datasheet's dense BF16 tensor peak, without sparsity: 989.5 TFLOP/s for an H100 SXM, 312 for an A100.",
    ),
    default="989.5",
    unit=units.TFLOP_S,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(1_000_000),
    fraction_digits=3,
    preset="gpu.bf16_tflops",
)
MFU = InputSpec(
    name="mfu",
    kind=Kind.DECIMAL,
    group=_CLUSTER,
    label=N_("Model FLOPs utilization (MFU)"),
    help=N_(
        "The share of the peak that does the model's own FLOPs, recomputation left out. PaLM 540B reached "
        "46.2 percent on TPU v4; large GPU runs usually reach 35 to 45.",
    ),
    default="46.2",
    unit=units.PERCENT,
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100),
    fraction_digits=2,
)
# The shared GPU-hour price (its menu of cloud prices), defaulting to DeepSeek-V3's assumed rental price.
GPU_HOUR_PRICE = replace(
    cost.GPU_HOUR_PRICE,
    help=N_(
        "What one GPU costs for an hour, rented or as your own amortized cost. DeepSeek-V3's report assumed "
        "2 US dollars per H800 GPU-hour.",
    ),
    default="2",
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the run's FLOPs, wall-clock time, GPU-hours, cost and throughput.

    GPT-3 175B on 300 billion tokens on 1,024 A100s (312 TFLOP/s) at Narayanan et al.'s 140 TFLOP/s with
    recomputation, an MFU of 0.75 × 140 / 312: "34 days" (§5.1).

    >>> mfu = 100 * 0.75 * 140 / 312
    >>> r = compute({"params_billion": 175, "tokens_billion": 300, "gpus": 1024, "peak_tflops": 312,
    ...              "mfu": mfu, "gpu_hour_price": 2})
    >>> round(r["training_days"], 1), round(r["gpu_hours"])
    (33.9, 833333)
    """
    flops = 6.0 * values["params_billion"] * 1e9 * values["tokens_billion"] * 1e9
    achieved = values["gpus"] * values["peak_tflops"] * 1e12 * values["mfu"] / 100
    seconds = flops / achieved
    hours = seconds / SECONDS_PER_HOUR
    gpu_hours = values["gpus"] * hours
    return {
        "training_flops": flops,
        "training_days": hours / HOURS_PER_DAY,
        "training_hours": hours,
        "gpu_hours": gpu_hours,
        "total_cost": gpu_hours * values["gpu_hour_price"],
        "tokens_per_second": values["tokens_billion"] * 1e9 / seconds,
    }


CALCULATOR = Calculator(
    title=N_("Training time and cost"),
    summary=N_(
        "Estimate how many days a training run takes, its GPU-hours and what they cost, from the model size, "
        "the training tokens, the cluster and its model FLOPs utilization.",
    ),
    inputs=(
        replace(
            inputs.PARAMS_BILLION,
            help=N_(
                "The model's size in billions of parameters; for a mixture of experts, the parameters active "
                "for each token. The default is Llama-3.1-8B.",
            ),
            preset="model.active_params_billion",
        ),
        replace(
            inputs.TOKENS_BILLION,
            help=N_(
                "Tokens processed in training, in billions, repeats included. Llama 3 was trained on over "
                "15 trillion, 15,000 billion.",
            ),
            default="15000",
        ),
        GPUS,
        PEAK_TFLOPS,
        MFU,
        GPU_HOUR_PRICE,
        cost.CURRENCY,
    ),
    outputs=(
        OutputSpec(
            name="training_days",
            label=N_("Wall-clock time"),
            unit=N_("days"),
            # Translators: {gpus} is a number of GPUs; {peak_tflops} a formatted number of TFLOP/s; {mfu} a
            # formatted percentage (the % sign follows it); {training_days} and {training_hours} formatted numbers.
            sentence=N_(
                "On {gpus} GPUs of {peak_tflops} TFLOP/s each at an MFU of {mfu}%, the run takes "
                "{training_days} days ({training_hours} hours) without interruptions.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="gpu_hours",
            label=N_("GPU-hours"),
            unit=N_("GPU-hours"),
            # Translators: {gpu_hours} is a formatted number of GPU-hours.
            sentence=N_(
                "That is {gpu_hours} GPU-hours: every GPU of the cluster counted for every hour of the run.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="total_cost",
            label=N_("Compute cost"),
            # Translators: {gpu_hour_price} and {total_cost} are amounts of money with their currency code.
            sentence=N_(
                "At {gpu_hour_price} per GPU-hour the GPU time costs {total_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="training_flops",
            label=N_("Training compute"),
            unit=N_("FLOPs"),
            # Translators: {params_billion} and {tokens_billion} are formatted numbers of billions; {training_flops}
            # is a number of floating-point operations written like 7.23 × 10²³.
            sentence=N_(
                "{params_billion} billion parameters trained on {tokens_billion} billion tokens need "
                "6 × N × D = {training_flops} model FLOPs.",
            ),
            scientific=True,
        ),
        OutputSpec(
            name="tokens_per_second",
            label=N_("Cluster throughput"),
            unit=N_("tokens/s"),
            # Translators: {tokens_per_second} is a formatted number of tokens per second.
            sentence=N_(
                "The cluster processes {tokens_per_second} tokens per second, the figure training logs report "
                "to check the MFU against.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"T = \frac{6 N D}{n \, P \, \mathrm{MFU}}",
        r"\text{GPU-hours} = \frac{n \, T}{3600}",
        r"\text{cost} = \text{GPU-hours} \times p",
        r"\mathrm{MFU} = \frac{6}{8} \cdot \frac{X}{P}",
    ),
    related=("parallel-training-planner", "training-carbon", "training-flops", "gpu-cloud-cost", "gpu-count"),
)
