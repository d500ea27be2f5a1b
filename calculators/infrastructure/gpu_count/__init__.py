"""GPU count: how many GPUs a model needs to fit, and the tensor-parallel size that makes it run.

Formula: n = ⌈M / (G · u)⌉ for M GB of required memory on GPUs of G GB of which a fraction u is
usable (vLLM's gpu_memory_utilization, 0.9 by default). Tensor parallelism then needs a size t that
divides the attention heads: vLLM refuses to start unless num_attention_heads % tensor_parallel_size
== 0 (vllm/config.py, ModelConfig.verify_with_parallel_config). vLLM also splits the key-value heads
(vllm/model_executor/layers/linear.py, QKVParallelLinear): evenly when t is below their number,
otherwise by copying each to t / n_kv GPUs, so t must divide n_kv or be a multiple of it. vLLM's
"Distributed Inference and Serving" guide (docs.vllm.ai/en/v0.8.3/serving/distributed_serving.html)
keeps tensor parallelism within a node and adds pipeline stages across nodes: "The tensor parallel
size is the number of GPUs you want to use in each node, and the pipeline parallel size is the number
of nodes". So the tensor-parallel size here is the smallest valid t of at least n that fits in a node
of g GPUs (8 unless set); when none does, the largest valid t that fits is chained into
⌈n / t⌉ pipeline stages. The default, 168 GB, is Sam Stoelinga's estimate for
Llama 2 70B served in 16 bits: 70 × 4 bytes / (32 / 16) × 1.2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import inputs, units

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL
_GPU = N_("GPU")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the GPUs needed, a valid tensor-parallel size, the pipeline stages and the memory per GPU.

    Stoelinga's Llama 2 70B in 16 bits, 168 GB, on 80 GB GPUs: 3 GPUs by memory, but its 64 attention
    heads split evenly only over 1, 2, 4, 8... GPUs, so tensor parallelism takes 4:

    >>> result = compute({"required_memory_gb": 168, "attention_heads": 64, "kv_heads": 8,
    ...                   "gpu_memory_gb": 80, "gpu_memory_utilization": 1})
    >>> result["gpu_count"], result["tensor_parallel_size"], result["pipeline_parallel_size"]
    (3, 4, 1)

    A model with 28 attention heads and 4 key-value heads (Qwen2.5-7B's) that needs 5 GPUs: within a node
    of 8, 4 is the largest valid size (7 and 14 do not spread 4 key-value heads), so 2 stages of 4:

    >>> result = compute({"required_memory_gb": 400, "attention_heads": 28, "kv_heads": 4,
    ...                   "gpu_memory_gb": 80, "gpu_memory_utilization": 1, "gpus_per_node": 8})
    >>> result["gpu_count"], result["tensor_parallel_size"], result["pipeline_parallel_size"]
    (5, 4, 2)
    """
    seen = inputs.seen_bytes(values, 1e9) / 1e9
    usable = seen * values.get("gpu_memory_utilization", 1)
    # Round away float noise first, so that 144 GB on 72 usable GB is 2 GPUs and not 3.
    needed = max(1, math.ceil(round(values["required_memory_gb"] / usable, 9)))
    heads = int(values["attention_heads"])
    kv_heads = int(values.get("kv_heads", heads))
    node = int(values.get("gpus_per_node", 8))
    valid = [
        size for size in range(1, min(heads, node) + 1) if heads % size == 0 and _splits_kv_heads(size, kv_heads)
    ]  # never empty: 1 is always valid
    tensor = next((size for size in valid if size >= needed), valid[-1])
    pipeline = math.ceil(needed / tensor)
    return {
        "gpu_count": needed,
        "tensor_parallel_size": tensor,
        "pipeline_parallel_size": pipeline,
        "memory_per_gpu_gb": values["required_memory_gb"] / (tensor * pipeline),
        "seen_memory_gb": seen,
    }


def _splits_kv_heads(size: int, kv_heads: int) -> bool:
    """Whether vLLM can spread `kv_heads` key-value heads over `size` GPUs: split them, or copy each one."""
    return kv_heads % size == 0 if size < kv_heads else size % kv_heads == 0


CALCULATOR = Calculator(
    title=N_("GPU count"),
    summary=N_(
        "Find how many GPUs a model needs to fit in memory, and the smallest tensor-parallel size that "
        "divides its attention heads, as vLLM requires.",
    ),
    inputs=(
        InputSpec(
            name="required_memory_gb",
            kind=Kind.DECIMAL,
            group=_MODEL,
            label=N_("Memory required"),
            help=N_(
                "Everything the model needs on the GPUs, in GB: weights, KV cache and overhead, as the LLM "
                "inference VRAM calculator works it out. A model preset does not fill it: enter it for your "
                "model. The default, 168 GB, is Llama 2 70B in 16 bits plus 20 percent of overhead: 70 × 2 × 1.2.",
            ),
            unit=N_("GB"),
            default="168",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=3,
        ),
        replace(
            inputs.ATTENTION_HEADS,
            group=_MODEL,
            help=N_(
                "num_attention_heads in the model's config.json (64 for Llama 2 70B). Tensor parallelism "
                "gives each GPU an equal share of them.",
            ),
            default="64",
        ),
        replace(
            inputs.KV_HEADS,
            group=_MODEL,
            help=N_(
                "num_key_value_heads in config.json (8 for Llama 2 70B); the same as the attention heads "
                "without grouped-query attention. vLLM splits them evenly, or copies each one to several GPUs.",
            ),
        ),
        InputSpec(
            name="gpu_memory_gb",
            kind=Kind.DECIMAL,
            group=_GPU,
            label=N_("Memory per GPU"),
            help=N_("Each GPU's memory as its datasheet states it: 80 for an A100 80GB or an H100."),
            unit=units.GB,
            default="80",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1_000_000),
            fraction_digits=3,
            preset="gpu.memory_gb",
        ),
        replace(inputs.SEEN_MEMORY, group=_GPU, advanced=True),
        InputSpec(
            name="gpus_per_node",
            kind=Kind.INTEGER,
            group=_GPU,
            label=N_("GPUs per node"),
            help=N_(
                "GPUs in one server, joined by its fast interconnect (8 in a DGX or HGX system). Tensor "
                "parallelism stays within a node, as vLLM advises; more GPUs are added as pipeline stages.",
            ),
            unit=units.GPUS,
            default="8",
            minimum=Decimal(1),
            maximum=Decimal(10_000),
            fraction_digits=0,
            optional=True,
        ),
        InputSpec(
            name="gpu_memory_utilization",
            kind=Kind.DECIMAL,
            group=_GPU,
            label=N_("Usable fraction of GPU memory"),
            help=N_(
                "The share of each GPU's memory the model may take: vLLM's gpu_memory_utilization, 0.9 unless "
                "set, leaves the other tenth of each GPU unused. Use 1 to count every byte.",
            ),
            default="0.9",
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(1),
            fraction_digits=3,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="gpu_count",
            label=N_("GPUs needed"),
            unit=NP_("GPU", "GPUs", count="gpu_count"),
            # Translators: {required_memory_gb} and {seen_memory_gb} are formatted numbers of GB,
            # {gpu_memory_utilization} a fraction such as 0.9, {gpu_count} a whole number of GPUs.
            sentence=NP_(
                "{required_memory_gb} GB ÷ ({seen_memory_gb} GB × {gpu_memory_utilization}), rounded up, "
                "is {gpu_count} GPU.",
                "{required_memory_gb} GB ÷ ({seen_memory_gb} GB × {gpu_memory_utilization}), rounded up, "
                "is {gpu_count} GPUs.",
                count="gpu_count",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="tensor_parallel_size",
            label=N_("Tensor-parallel size"),
            unit=NP_("GPU", "GPUs", count="tensor_parallel_size"),
            # Translators: {attention_heads} and {kv_heads} are numbers of heads, {gpu_count},
            # {tensor_parallel_size} and {gpus_per_node} (the GPUs in one server) whole numbers of GPUs.
            sentence=N_(
                "vLLM needs the {attention_heads} attention heads and the {kv_heads} key-value heads to spread "
                "evenly over the tensor-parallel GPUs, which stay within a node of {gpus_per_node}: "
                "{tensor_parallel_size} is the smallest such count of at least {gpu_count} GPUs or, when there "
                "is none, the largest such count.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="pipeline_parallel_size",
            label=N_("Pipeline stages"),
            # Translators: {pipeline_parallel_size} is a number of pipeline stages, {tensor_parallel_size} a
            # number of GPUs in each stage.
            sentence=NP_(
                "{pipeline_parallel_size} pipeline stage of {tensor_parallel_size} tensor-parallel GPUs holds "
                "the model.",
                "{pipeline_parallel_size} pipeline stages of {tensor_parallel_size} tensor-parallel GPUs each "
                "hold the model.",
                count="pipeline_parallel_size",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="memory_per_gpu_gb",
            label=N_("Memory per GPU used"),
            unit=N_("GB"),
            # Translators: {required_memory_gb} and {memory_per_gpu_gb} are formatted numbers of GB,
            # {tensor_parallel_size} and {pipeline_parallel_size} whole numbers.
            sentence=N_(
                "Spread evenly over {tensor_parallel_size} × {pipeline_parallel_size} GPUs, the "
                "{required_memory_gb} GB take {memory_per_gpu_gb} GB on each.",
            ),
        ),
        OutputSpec(
            name="seen_memory_gb",
            label=N_("Memory planned on"),
            unit=N_("GB"),
            # Translators: {seen_memory_gb} is a formatted number of GB.
            sentence=N_("Each GPU gives the framework {seen_memory_gb} GB."),
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"n = \left\lceil \frac{M}{G \cdot u} \right\rceil",
        r"t = \min \{ d \ge n : d \le g,\ d \mid h,\ (d \mid n_{kv} \lor n_{kv} \mid d) \}",
        r"p = \left\lceil \frac{n}{t} \right\rceil",
    ),
    related=("llm-inference-vram", "kv-cache-size", "quantized-model-size", "model-download-time"),
    rules=(inputs.SEEN_MEMORY_RULE,),
)
