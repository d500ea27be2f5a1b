"""Parallel training planner: how a model lays out over N GPUs, what each GPU holds, and how fast a step runs.

The arithmetic is in `vocabulary/parallel.py`, with its sources: memory per GPU after Korthikanti et al. 2022
(arXiv:2205.05198, Table 2 and §4.2.3) and Fujii et al. 2024 (arXiv:2411.06465), as Megatron-LM keeps it;
time per step from the model's FLOPs (Narayanan et al. 2021, arXiv:2104.04473, Eq. 3), the pipeline's
bubble (§2.2) and each parallelism's communication over its link. The search tries every layout of the
GPUs and ranks those that fit by their step time; the chosen one is written out as launch arguments.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from html import escape
from types import MappingProxyType

from calculators.drawing.table import draw_code, draw_list, draw_table
from calculators.kernel.spec import (
    Calculator,
    ChartPart,
    Choice,
    InputSpec,
    Kind,
    MemoryChart,
    Message,
    OutputSpec,
    Rule,
    TableChart,
    Writer,
    messages_of,
)
from calculators.vocabulary import cost, inputs, parallel, roofline, units
from calculators.vocabulary.architecture import ARCHITECTURE, GPT2, KV_HEADS_RULE, PHI, SHAPE_INPUTS

N_, NP_ = messages_of(__name__)

_LAYOUT = N_("Layout")
_CLUSTER = N_("Cluster")
_TRAINING = N_("Training run")
_KERNELS = N_("Precision and kernels")

_GIB = 2.0**30
_SECONDS_PER_DAY = 86_400.0
_LISTED = 10
"""Layouts the table shows; the count of all that fit is in its caption."""


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the chosen layout's peak memory per GPU by term, its step time, MFU, throughput, days and cost.

    GPT-3 175B as Narayanan et al. 2021 lay it out (§5.1): 96 layers, h 12,288, 96 heads, t 8, p 8, a global
    batch of 1,536 sequences of 2,048 tokens on 1,024 A100s, full recomputation, fp32 gradients, no sharded
    optimizer. From the 140 TFLOP/s per GPU they measured, they estimate 34 days for 300 billion tokens; the
    planner, at its default 60% of the peak, gives 31, with the most loaded GPU at 52 of its 80 GiB:

    >>> gpt3 = {"architecture": 1, "layers": 96, "hidden_size": 12288, "attention_heads": 96, "kv_heads": 96,
    ...         "head_dim": 128, "ffn_size": 49152, "vocab_size": 51200, "tied_embeddings": 1, "positions": 2048,
    ...         "gpus": 1024, "gpus_per_node": 8, "gpu_memory_gb": 80, "peak_tflops": 312, "nvlink_gb_s": 300,
    ...         "network_gb_s": 25, "matmul_efficiency": 60, "safety_margin": 80, "seq_len": 2048,
    ...         "global_batch": 1536, "micro_batch": 1, "tokens_billion": 300, "gpu_hour_price": 2, "currency": 0,
    ...         "dropout": 1, "attention": 1, "gradient_precision": 0, "zero_stage": 0, "overlap_communication": 0,
    ...         "tensor_parallel_size": 8, "pipeline_parallel_size": 8, "virtual_stages": 1,
    ...         "context_parallel_size": 1, "expert_parallel_size": 1, "sequence_parallel": 0, "recompute": 2,
    ...         "memory_unit": 2**30}
    >>> result = compute(gpt3)
    >>> round(result["peak_memory"]), round(result["training_days"])
    (52, 31)
    """
    model, run = parallel.model_of(values), parallel.run_of(values)
    found = parallel.search(model, run, int(values["micro_batch"]), _pins(values))
    chosen = found.plans[0] if found.plans else found.closest
    assert chosen is not None  # the rule `_runnable` keeps values without any runnable layout from here
    layout, memory, timing = chosen.layout, chosen.memory, chosen.timing
    _, plain = parallel.flops_per_token(model, run, parallel.NO_RECOMPUTE)
    _, rerun = parallel.flops_per_token(model, run, layout.recompute)
    unit = values["memory_unit"]
    capacity = inputs.seen_bytes(values, _GIB)
    step = timing.step
    tokens = values["global_batch"] * values["seq_len"]
    seconds = values["tokens_billion"] * 1e9 / tokens * step
    gpu_hours = seconds / 3600 * layout.gpus
    peak = layout.gpus * values["peak_tflops"] * 1e12
    return _search_results(found, run) | {
        "peak_memory": memory.total / unit,
        "usage_percent": 100 * memory.total / capacity,
        "headroom_memory": max(run.capacity - memory.total, 0.0) / unit,
        "shortfall_memory": max(memory.total - run.capacity, 0.0) / unit,
        "stage": float(layout.pipeline if memory.stage else 1),
        "chosen_tensor": float(layout.tensor),
        "chosen_pipeline": float(layout.pipeline),
        "chosen_context": float(layout.context),
        "chosen_expert": float(layout.expert),
        "chosen_chunks": float(layout.chunks),
        "data_parallel": float(layout.data),
        "recompute_percent": 100 * (rerun / plain - 1),
        "micro_batches": parallel.micro_batches(run, layout),
        "step_time_s": step,
        "bubble_share": 100 * timing.bubble / step,
        "communication_share": 100 * (step - timing.compute - timing.bubble) / step,
        "mfu": 100 * timing.model_flops / (step * peak),
        "achieved_tflops": timing.hardware_flops / (step * layout.gpus) / 1e12,
        "tokens_per_second": tokens / step,
        "training_days": seconds / _SECONDS_PER_DAY,
        "gpu_hours": gpu_hours,
        "total_cost": gpu_hours * values["gpu_hour_price"],
        "parameters_billion": model.parameters / 1e9,
        "weights_memory": memory.weights / unit,
        "gradients_memory": memory.gradients / unit,
        "optimizer_memory": memory.optimizer / unit,
        "activations_memory": memory.activations / unit,
        "loss_memory": memory.logits / unit,
        "buffers_memory": memory.buffers / unit,
    }


_AUTO_RECOMPUTE = 3
"""`recompute`'s number for "the least that fits"."""


def _pins(values: Mapping[str, float]) -> parallel.Pins:
    """The sizes the reader fixed; 0 leaves a size, and "least that fits" the recomputation, to the search."""
    recompute = int(values["recompute"])
    return parallel.Pins(
        tensor=int(values["tensor_parallel_size"]),
        pipeline=int(values["pipeline_parallel_size"]),
        chunks=int(values["virtual_stages"]),
        context=int(values["context_parallel_size"]),
        expert=int(values["expert_parallel_size"]),
        recompute=-1 if recompute == _AUTO_RECOMPUTE else recompute,
        sequence_parallel=bool(values["sequence_parallel"]),
    )


# Translators: a layout in the search's table: {tensor}, {pipeline} and {data} are the tensor-, pipeline- and
# data-parallel sizes; keep the abbreviations TP, PP, DP.
_LAYOUT_NAME = N_("TP {tensor} × PP {pipeline} × DP {data}")
# Translators: added to a layout's name when it splits the sequence; {context} is the context-parallel size
# (keep CP).
_WITH_CONTEXT = N_("{layout} × CP {context}")
# Translators: added to a layout's name when it spreads the experts; {expert} is the expert-parallel size
# (keep EP).
_WITH_EXPERTS = N_("{layout} × EP {expert}")
# Translators: added to a layout's name when the pipeline is interleaved; {chunks} is the chunks per GPU.
_INTERLEAVED = N_("{layout}, interleaved ×{chunks}")
_RECOMPUTE_NAMES = MappingProxyType(
    {
        parallel.NO_RECOMPUTE: N_("none"),
        parallel.SELECTIVE_RECOMPUTE: N_("selective"),
        parallel.FULL_RECOMPUTE: N_("full"),
    }
)
# Translators: the search table's caption; {count} layouts fit on {gpus} GPUs (whole numbers).
_FOUND = NP_(
    "{count} layout of the {gpus} GPUs fits; the fastest first.",
    "{count} layouts of the {gpus} GPUs fit; the fastest first.",
    count="count",
)
# Translators: when no layout of {gpus} GPUs (a whole number) fits.
_NONE_FOUND = N_(
    "No layout of the {gpus} GPUs fits, even with full recomputation: add GPUs, shorten the sequence or shard "
    "the optimizer."
)
_COLUMNS = (N_("Layout"), N_("Recomputation"), N_("Memory per GPU"), N_("Step"), N_("MFU"))
# Translators: a cell of the search table: {value} is a formatted number, {unit} GB or GiB.
_AMOUNT = N_("{value} {unit}")
# Translators: a step time in the search table; {value} is a formatted number of seconds.
_SECONDS = N_("{value} s")
# Translators: a share in the search table; {value} is a formatted percentage (the % sign follows it).
_PERCENT = N_("{value}%")
_REFUSED = N_("Layouts left out, and why:")
_REASONS = MappingProxyType(
    {
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "heads": NP_(
            "{count} layout: the attention or key-value heads do not divide by the tensor-parallel size.",
            "{count} layouts: the attention or key-value heads do not divide by the tensor-parallel size.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "node": NP_(
            "{count} layout: tensor parallelism would cross nodes.",
            "{count} layouts: tensor parallelism would cross nodes.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "layers": NP_(
            "{count} layout: more pipeline stages and chunks than layers.",
            "{count} layouts: more pipeline stages and chunks than layers.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "gpus": NP_(
            "{count} layout: the GPUs do not divide by its size.",
            "{count} layouts: the GPUs do not divide by their size.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "batch": NP_(
            "{count} layout: the global batch does not divide into its micro-batches.",
            "{count} layouts: the global batch does not divide into their micro-batches.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "experts": NP_(
            "{count} layout: the experts do not divide by the expert-parallel size.",
            "{count} layouts: the experts do not divide by the expert-parallel size.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "sequence": NP_(
            "{count} layout: the sequence does not divide into twice the context-parallel size.",
            "{count} layouts: the sequence does not divide into twice the context-parallel size.",
            count="count",
        ),
        # Translators: why the search left layouts out; {count} is how many (a whole number).
        "memory": NP_(
            "{count} layout: more memory than the margin allows, even with full recomputation.",
            "{count} layouts: more memory than the margin allows, even with full recomputation.",
            count="count",
        ),
    }
)
_COPY = N_("Copy")
_COPIED = N_("Copied")
# Translators: the title of the launch arguments; {tool} is Megatron-LM, torchtitan or DeepSpeed.
_ARGUMENTS = N_("The fastest layout as {tool} arguments")


_ROW_FIELDS = ("tensor", "pipeline", "chunks", "context", "expert", "data", "recompute", "memory", "step", "mfu")


def _search_results(found: parallel.Search, run: parallel.Run) -> dict[str, float]:
    """The search as results the chart reads (internal, not outputs): the count that fit, the first rows, the
    count each reason refused. The chart draws from them, so a recalculation searches once."""
    results = {"search_fits": float(found.fits)}
    for index, item in enumerate(found.plans[:_LISTED]):
        layout, peak = item.layout, run.gpus * run.peak_flops
        row = (layout.tensor, layout.pipeline, layout.chunks, layout.context, layout.expert, layout.data,
               layout.recompute, item.memory.total, item.timing.step,
               100 * item.timing.model_flops / (item.timing.step * peak))  # fmt: skip
        results |= {f"search_{index}_{field}": float(value) for field, value in zip(_ROW_FIELDS, row, strict=True)}
    return results | {f"search_refused_{reason}": float(count) for reason, count in found.refused}


def _draw(values: Mapping[str, float], write: Writer) -> str:
    """The search's table of the layouts that fit, the reasons for the rest, and the fastest layout to copy."""
    fits = int(values["search_fits"])
    gpus = write.number(values["gpus"], 0)
    unit = "GiB" if values["memory_unit"] == _GIB else "GB"
    parts = []
    layouts = [_row_layout(values, index) for index in range(min(fits, _LISTED))]
    if layouts:
        caption = write.text(_FOUND, {"count": write.number(fits, 0), "gpus": gpus}, {"count": fits})
        rows = [
            [
                _name(layout, write),
                write.text(_RECOMPUTE_NAMES[layout.recompute], {}, {}),
                write.keep(write.text(_AMOUNT, {"value": write.number(
                    values[f"search_{index}_memory"] / values["memory_unit"], 1), "unit": unit}, {})),
                write.keep(write.text(_SECONDS, {"value": write.number(values[f"search_{index}_step"], 2)}, {})),
                write.keep(write.text(_PERCENT, {"value": write.number(values[f"search_{index}_mfu"], 1)}, {})),
            ]
            for index, layout in enumerate(layouts)
        ]  # fmt: skip
        parts.append(draw_table(write.keep(caption), [write.text(column, {}, {}) for column in _COLUMNS], rows))
    else:
        parts.append(f'<p class="chart-note">{escape(write.text(_NONE_FOUND, {"gpus": gpus}, {}))}</p>')
    refused = sorted(
        ((reason, int(values.get(f"search_refused_{reason}", 0))) for reason in _REASONS), key=lambda item: -item[1]
    )
    reasons = [
        write.keep(write.text(_REASONS[reason], {"count": write.number(count, 0)}, {"count": count}))
        for reason, count in refused
        if count
    ]
    parts.append(draw_list(write.text(_REFUSED, {}, {}), reasons))
    copy, copied = write.text(_COPY, {}, {}), write.text(_COPIED, {}, {})
    if layouts:
        for tool, text in launch_arguments(values, layouts[0]).items():
            parts.append(draw_code(write.text(_ARGUMENTS, {"tool": tool}, {}), text, copy, copied))
    return "".join(parts)


def _row_layout(values: Mapping[str, float], index: int) -> parallel.Layout:
    """The layout in row `index` of the search, read back from the results."""
    size = {field: int(values[f"search_{index}_{field}"]) for field in _ROW_FIELDS[:7]}
    return parallel.Layout(
        size["tensor"], size["pipeline"], size["chunks"], size["context"], size["expert"], size["data"],
        int(values["micro_batch"]), size["recompute"], bool(values["sequence_parallel"]) and size["tensor"] > 1,
    )  # fmt: skip


_ISOLATE, _END_ISOLATE = "\u2068", "\u2069"
"""First-strong isolate: in a right-to-left page the sizes read as one left-to-right run, whole."""


def _name(layout: parallel.Layout, write: Writer) -> str:
    """A layout's short name: TP, PP and DP always, CP, EP and interleaving where they are used."""
    sizes = {"tensor": layout.tensor, "pipeline": layout.pipeline, "data": layout.data}
    name = write.text(_LAYOUT_NAME, {key: write.number(size, 0) for key, size in sizes.items()}, {})
    for message, key, size in ((_WITH_CONTEXT, "context", layout.context), (_WITH_EXPERTS, "expert", layout.expert)):
        if size > 1:
            name = write.text(message, {"layout": name, key: write.number(size, 0)}, {})
    name = _ISOLATE + name + _END_ISOLATE
    if layout.chunks > 1:
        name = write.text(_INTERLEAVED, {"layout": name, "chunks": write.number(layout.chunks, 0)}, {})
    return name


def launch_arguments(values: Mapping[str, float], layout: parallel.Layout) -> dict[str, str]:
    """A layout as Megatron-LM's command-line arguments, torchtitan's TOML and DeepSpeed's JSON.

    Megatron-LM's names are those of `megatron/training/arguments.py`; torchtitan's those of its
    `job_config.py` ([parallelism], [training], [activation_checkpoint]); DeepSpeed's those of its
    configuration JSON. Where a tool has no such setting, its text leaves it out.
    """
    model = parallel.model_of(values)
    gpt = values["architecture"] in (GPT2, PHI)
    flags = [
        f"--num-layers {model.layers}",
        f"--hidden-size {int(model.hidden)}",
        f"--ffn-hidden-size {int(model.ffn)}",
        f"--num-attention-heads {model.heads}",
        f"--kv-channels {int(values['head_dim'])}",
    ]
    if model.kv_heads != model.heads:
        flags.append(f"--group-query-attention --num-query-groups {model.kv_heads}")
    if not gpt:
        flags.append("--swiglu --normalization RMSNorm --position-embedding-type rope --disable-bias-linear")
    if not model.tied:
        flags.append("--untie-embeddings-and-output-weights")
    if model.experts:
        flags.append(
            f"--num-experts {model.experts} --moe-router-topk {int(model.top_k)} "
            f"--moe-ffn-hidden-size {int(model.expert_ffn)}"
        )
    flags += [
        f"--seq-length {int(values['seq_len'])}",
        f"--micro-batch-size {layout.micro_batch}",
        f"--global-batch-size {int(values['global_batch'])}",
        f"--tensor-model-parallel-size {layout.tensor}",
        f"--pipeline-model-parallel-size {layout.pipeline}",
    ]
    full = parallel.stage_layers(model, layout)
    if layout.chunks > 1:
        flags.append(f"--num-layers-per-virtual-pipeline-stage {full // layout.chunks}")
    elif layout.pipeline > 1 and model.layers % layout.pipeline and model.layers - (layout.pipeline - 2) * full >= 2:
        # An uneven split: the middle stages full, the rest shared by the first and the last.
        rest = model.layers - (layout.pipeline - 2) * full
        flags.append(
            f"--decoder-first-pipeline-num-layers {rest // 2} --decoder-last-pipeline-num-layers {rest - rest // 2}"
        )
    if layout.context > 1:
        flags.append(f"--context-parallel-size {layout.context}")
    if layout.expert > 1:
        flags.append(f"--expert-model-parallel-size {layout.expert}")
    if layout.sequence_parallel:
        flags.append("--sequence-parallel")
    if layout.recompute == parallel.SELECTIVE_RECOMPUTE:
        flags.append("--recompute-granularity selective")
    elif layout.recompute == parallel.FULL_RECOMPUTE:
        flags.append("--recompute-granularity full --recompute-method uniform --recompute-num-layers 1")
    if values["zero_stage"] >= parallel.DISTRIBUTED_OPTIMIZER:
        flags.append("--use-distributed-optimizer")
    if values["overlap_communication"]:
        flags.append("--overlap-grad-reduce" + (" --overlap-param-gather" if values["zero_stage"] else ""))
    if values["gradient_precision"] == 0:
        flags.append("--accumulate-allreduce-grads-in-fp32")
    flags.append("--bf16" + (" --use-flash-attn" if values["attention"] == 0 else ""))
    if values["dropout"] == 0:
        flags.append("--attention-dropout 0 --hidden-dropout 0")
    megatron = " \\\n  ".join(flags)

    sharded = values["zero_stage"] >= parallel.SHARDED_WEIGHTS
    mode = {parallel.NO_RECOMPUTE: "none", parallel.SELECTIVE_RECOMPUTE: "selective"}.get(layout.recompute, "full")
    schedule = "Interleaved1F1B" if layout.chunks > 1 else "1F1B"
    torchtitan = "\n".join(
        [
            "[parallelism]",
            f"data_parallel_replicate_degree = {1 if sharded else layout.data}",
            f"data_parallel_shard_degree = {layout.data if sharded else 1}",
            f"tensor_parallel_degree = {layout.tensor}",
            f"pipeline_parallel_degree = {layout.pipeline}",
            f'pipeline_parallel_schedule = "{schedule}"',
            f"context_parallel_degree = {layout.context}",
            f"expert_parallel_degree = {layout.expert}",
            "",
            "[training]",
            f"local_batch_size = {int(values['global_batch']) // layout.data}",
            f"global_batch_size = {int(values['global_batch'])}",
            f"seq_len = {int(values['seq_len'])}",
            "",
            "[activation_checkpoint]",
            f'mode = "{mode}"',
        ]
    )
    steps = max(int(parallel.micro_batches(parallel.run_of(values), layout)), 1)
    deepspeed = json.dumps(
        {
            "train_batch_size": int(values["global_batch"]),
            "train_micro_batch_size_per_gpu": layout.micro_batch,
            "gradient_accumulation_steps": steps,
            "bf16": {"enabled": True},
            "zero_optimization": {"stage": int(values["zero_stage"])},
        },
        indent=2,
    )
    return {"Megatron-LM": megatron, "torchtitan": torchtitan, "DeepSpeed": deepspeed}


def _pinned(values: Mapping[str, float], name: str) -> int:
    """A size the reader fixed, or 1 where the search chooses it (0): what the fixed sizes alone require."""
    return int(values[name]) or 1


def _divides(values: Mapping[str, float], number: str, *sizes: str) -> bool:
    product = 1
    for size in sizes:
        product *= _pinned(values, size)
    return int(values[number]) % product == 0


def _experts_divide(values: Mapping[str, float]) -> bool:
    size = int(values["expert_parallel_size"])
    if not size:
        return True
    if values.get("experts", 0.0) <= 0:
        return size == 1
    return int(values["experts"]) % size == 0


def _runnable(values: Mapping[str, float]) -> bool:
    model, run = parallel.model_of(values), parallel.run_of(values)
    return parallel.runnable(model, run, int(values["micro_batch"]), _pins(values))


_RULES = (
    KV_HEADS_RULE,
    inputs.SEEN_MEMORY_RULE,
    Rule(
        "tensor_parallel_size",
        lambda v: (
            _divides(v, "attention_heads", "tensor_parallel_size") and _divides(v, "kv_heads", "tensor_parallel_size")
        ),
        # Translators: beside the input; the names in braces are inputs as the reader typed them.
        N_(
            "Megatron-LM splits the {attention_heads} attention heads and {kv_heads} key-value heads evenly over "
            "the tensor-parallel GPUs: choose a size that divides both, or 0 to let the planner choose."
        ),
    ),
    Rule(
        "pipeline_parallel_size",
        lambda v: v["layers"] >= _pinned(v, "pipeline_parallel_size") * _pinned(v, "virtual_stages"),
        # Translators: beside the input; the names in braces are inputs as the reader typed them.
        N_(
            "Each of the {pipeline_parallel_size} stages needs at least one of the {layers} layers in each of its "
            "{virtual_stages} chunks."
        ),
    ),
    Rule(
        "gpus",
        lambda v: _divides(v, "gpus", "tensor_parallel_size", "pipeline_parallel_size", "context_parallel_size"),
        # Translators: beside the input; the names in braces are inputs as the reader typed them.
        N_(
            "The {gpus} GPUs must divide by tensor × pipeline × context parallel sizes; what is left is the "
            "data-parallel size."
        ),
    ),
    Rule(
        "expert_parallel_size",
        _experts_divide,
        # Translators: beside the input; the names in braces are inputs as the reader typed them.
        N_(
            "The {experts} experts must divide by the expert-parallel size, which must divide the data × context "
            "parallel ranks; a dense model takes 1."
        ),
    ),
    Rule(
        "context_parallel_size",
        lambda v: v["context_parallel_size"] <= 1 or int(v["seq_len"]) % (2 * int(v["context_parallel_size"])) == 0,
        # Translators: beside the input; the names in braces are inputs as the reader typed them.
        N_(
            "Context parallelism gives each GPU two chunks of the sequence: {seq_len} must divide by twice "
            "{context_parallel_size}."
        ),
    ),
    Rule(
        "global_batch",
        _runnable,
        # Translators: beside the input; the names in braces are inputs as the reader typed them.
        N_(
            "No layout of the {gpus} GPUs can run this: the global batch of {global_batch} must split evenly into "
            "micro-batches of {micro_batch} on every data-parallel rank (interleaved, into a multiple of the "
            "pipeline stages), and tensor parallelism must stay within a node. Change the batch or the GPUs, or "
            "leave more sizes at 0."
        ),
    ),
)


def _size_input(name: str, label: Message, help_text: Message) -> InputSpec:
    """A parallel size the reader may fix; 0, the default, leaves it to the search."""
    return InputSpec(
        name=name,
        kind=Kind.INTEGER,
        group=_LAYOUT,
        label=label,
        help=help_text,
        default="0",
        unit=units.GPUS,
        minimum=Decimal(0),
        maximum=Decimal(1_000_000),
        fraction_digits=0,
    )


def _bandwidth(name: str, label: Message, help_text: Message, default: str) -> InputSpec:
    return InputSpec(
        name=name,
        kind=Kind.DECIMAL,
        group=_CLUSTER,
        label=label,
        help=help_text,
        default=default,
        unit=N_("GB/s"),
        minimum=Decimal(0),
        minimum_exclusive=True,
        maximum=Decimal(1_000_000),
        fraction_digits=3,
        advanced=True,
    )


CALCULATOR = Calculator(
    title=N_("Parallel training planner"),
    summary=N_(
        "Lay a model out over a cluster: the memory each GPU holds under tensor, pipeline, context, expert and "
        "data parallelism, the time per step and MFU, every layout of your GPUs that fits, fastest first, and "
        "the chosen one as Megatron-LM, torchtitan or DeepSpeed settings.",
    ),
    inputs=(
        InputSpec(
            name="gpus",
            kind=Kind.INTEGER,
            group=_CLUSTER,
            label=N_("GPUs"),
            help=N_("Every GPU of the job: tensor × pipeline × context × data parallel sizes."),
            default="256",
            unit=units.GPUS,
            minimum=Decimal(1),
            maximum=Decimal(10_000_000),
            fraction_digits=0,
        ),
        replace(roofline.GPU_MEMORY, group=_CLUSTER),
        replace(inputs.SEEN_MEMORY, group=_CLUSTER, advanced=True),
        replace(roofline.PEAK_TFLOPS, group=_CLUSTER),
        InputSpec(
            name="gpus_per_node",
            kind=Kind.INTEGER,
            group=_CLUSTER,
            label=N_("GPUs per node"),
            help=N_(
                "GPUs in one server, joined by NVLink (8 in a DGX or HGX system). Tensor and context "
                "parallelism inside a node use NVLink; traffic between nodes uses the network.",
            ),
            unit=units.GPUS,
            default="8",
            minimum=Decimal(1),
            maximum=Decimal(10_000),
            fraction_digits=0,
        ),
        _bandwidth(
            "nvlink_gb_s",
            N_("NVLink bandwidth per GPU, each way"),
            N_(
                "Half the datasheet's NVLink figure, which counts both directions: 450 for an H100 SXM (900 GB/s), "
                "300 for an A100 SXM (600 GB/s), 900 for a B200.",
            ),
            "450",
        ),
        _bandwidth(
            "network_gb_s",
            N_("Network bandwidth per GPU"),
            N_(
                "Each GPU's own network port, in gigabytes per second: 400 Gbit/s InfiniBand NDR is 50, "
                "200 Gbit/s HDR (DGX A100) is 25.",
            ),
            "50",
        ),
        replace(
            InputSpec(
                name="matmul_efficiency",
                kind=Kind.DECIMAL,
                group=_CLUSTER,
                label=N_("Share of peak the kernels reach"),
                help=N_(
                    "The share of the dense peak the GPU sustains on this model's layers, before the bubble "
                    "and communication. At the default 60%, each of the ten layouts of Narayanan et al.'s Table 1 "
                    "comes within a factor of 1.15 of its measured throughput.",
                ),
                unit=units.PERCENT,
                default="60",
                minimum=Decimal(0),
                minimum_exclusive=True,
                maximum=Decimal(100),
                fraction_digits=1,
            ),
            advanced=True,
        ),
        replace(
            InputSpec(
                name="safety_margin",
                kind=Kind.DECIMAL,
                group=_CLUSTER,
                label=N_("Plan within"),
                help=N_(
                    "The share of each GPU's memory a layout may use and still count as fitting. Fujii et al. "
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
        replace(inputs.MEMORY_UNIT, group=_CLUSTER),
        _size_input(
            "tensor_parallel_size",
            N_("Tensor-parallel size (TP)"),
            N_(
                "GPUs that split every weight matrix and each layer's work; it stays within a node. 0 lets the "
                "planner choose the fastest that fits."
            ),
        ),
        inputs.choice_input(
            "sequence_parallel",
            _LAYOUT,
            N_("Sequence parallelism"),
            N_(
                "Splits the norms, dropouts and residual stream over the tensor-parallel GPUs too, so no "
                "activation is kept whole on each (Korthikanti et al.). It costs no extra communication.",
            ),
            "1",
            units.YES_NO,
        ),
        _size_input(
            "pipeline_parallel_size",
            N_("Pipeline stages (PP)"),
            N_(
                "GPUs the layers are split across, each holding a run of consecutive layers. 0 lets the planner choose."
            ),
        ),
        InputSpec(
            name="virtual_stages",
            kind=Kind.INTEGER,
            group=_LAYOUT,
            label=N_("Chunks per stage (interleaved)"),
            help=N_(
                "Megatron-LM's interleaved schedule gives each pipeline GPU v smaller runs of layers: the "
                "bubble shrinks v times, communication grows v times, and the first stage holds more "
                "micro-batches. 1 is the plain 1F1B schedule; 0 lets the planner choose 1, 2 or 4.",
            ),
            default="0",
            minimum=Decimal(0),
            maximum=Decimal(1_000),
            fraction_digits=0,
        ),
        _size_input(
            "context_parallel_size",
            N_("Context-parallel size (CP)"),
            N_(
                "GPUs that split each sequence, passing keys and values around a ring; for long sequences. 0 lets "
                "the planner choose."
            ),
        ),
        _size_input(
            "expert_parallel_size",
            N_("Expert-parallel size (EP)"),
            N_(
                "GPUs the experts of a mixture-of-experts layer are spread over; 1 for a dense model. 0 lets the "
                "planner choose."
            ),
        ),
        inputs.choice_input(
            "recompute",
            _LAYOUT,
            N_("Recomputation"),
            N_(
                "Selective recomputes the attention's softmax and dropout, which a fused attention kernel never "
                "keeps (Korthikanti et al.); full keeps only each layer's input and reruns the layer's forward "
                "pass, a third more compute.",
            ),
            "auto",
            (
                Choice("auto", N_("The least that fits"), number="3"),
                Choice("none", N_("None"), number="0"),
                Choice("selective", N_("Selective"), number="1"),
                Choice("full", N_("Full, every layer"), number="2"),
            ),
        ),
        replace(
            inputs.MICRO_BATCH,
            group=_LAYOUT,
            default="1",
            help=N_(
                "Sequences each GPU runs through one forward and backward pass. The global batch is split into "
                "micro-batches per data-parallel rank, and they fill the pipeline.",
            ),
        ),
        replace(inputs.SEQ_LEN, group=_TRAINING, default="8192", help=N_("Tokens in each training sequence.")),
        InputSpec(
            name="global_batch",
            kind=Kind.INTEGER,
            group=_TRAINING,
            label=N_("Global batch"),
            help=N_("Sequences per optimizer step over all GPUs: 512 of 8,192 tokens is about 4 million tokens."),
            default="512",
            unit=units.SEQUENCES,
            minimum=Decimal(1),
            maximum=Decimal(100_000_000),
            fraction_digits=0,
        ),
        replace(
            inputs.TOKENS_BILLION,
            group=_TRAINING,
            help=N_("Tokens the whole run trains on, in billions: Llama 3 70B saw over 15,000 billion."),
            default="1000",
        ),
        replace(cost.GPU_HOUR_PRICE, group=_TRAINING),
        replace(cost.CURRENCY, group=_TRAINING),
        inputs.choice_input(
            "zero_stage",
            _KERNELS,
            N_("Sharded state"),
            N_(
                "What is split over the data- and context-parallel GPUs that hold the same weights: Megatron-LM's "
                "distributed optimizer and ZeRO-1 split the fp32 master weights and Adam's moments; ZeRO-2 the "
                "gradients too; ZeRO-3 and FSDP the weights too, gathered one layer at a time.",
            ),
            "1",
            (
                Choice("0", N_("Nothing: every rank keeps all")),
                Choice("1", N_("Optimizer: distributed optimizer, ZeRO-1")),
                Choice("2", N_("Optimizer and gradients: ZeRO-2")),
                Choice("3", N_("Everything: ZeRO-3, FSDP")),
            ),
        ),
        inputs.choice_input(
            "gradient_precision",
            _KERNELS,
            N_("Gradients kept in"),
            N_(
                "Megatron-LM accumulates and reduces bf16 models' gradients in fp32 (4 bytes a parameter) unless "
                "told otherwise; bf16 halves them and their traffic.",
            ),
            "fp32",
            (Choice("fp32", N_("fp32"), number="0"), Choice("bf16", N_("bf16"), number="1")),
        ),
        inputs.choice_input(
            "attention",
            _KERNELS,
            N_("Attention kernel"),
            N_(
                "A fused kernel (FlashAttention, cuDNN) keeps no score matrix; an unfused one keeps the softmax, "
                "and with dropout its mask and output, per head and pair of tokens.",
            ),
            "fused",
            (Choice("fused", N_("Fused (FlashAttention)"), number="0"), Choice("unfused", N_("Unfused"), number="1")),
        ),
        inputs.choice_input(
            "dropout",
            _KERNELS,
            N_("Dropout"),
            N_(
                "GPT-3 and Megatron's GPT models train with dropout, which keeps a mask; Llama and most recent "
                "models do not."
            ),
            "0",
            units.YES_NO,
        ),
        replace(
            inputs.choice_input(
                "overlap_communication",
                _KERNELS,
                N_("Overlap gradient reduction"),
                N_(
                    "Megatron-LM's --overlap-grad-reduce reduces each bucket of gradients while the backward pass "
                    "of the last micro-batch goes on; without it, the reduction waits for the end of the step.",
                ),
                "1",
                units.YES_NO,
            ),
            advanced=True,
        ),
        ARCHITECTURE,
        replace(inputs.LAYERS, default="80"),
        replace(inputs.HIDDEN_SIZE, default="8192"),
        replace(inputs.ATTENTION_HEADS, default="64"),
        replace(inputs.KV_HEADS, default="8"),
        replace(inputs.HEAD_DIM, default="128"),
        replace(inputs.FFN_SIZE, default="28672"),
        replace(inputs.VOCAB_SIZE, default="128256"),
        replace(inputs.TIED_EMBEDDINGS, default="0"),
        *SHAPE_INPUTS,
        *inputs.MOE_SHAPE,
    ),
    outputs=(
        OutputSpec(
            name="peak_memory",
            label=N_("Memory per GPU"),
            unit_choice="memory_unit",
            # Translators: {peak_memory} is a formatted amount in {memory_unit_label} (GB or GiB); {stage} and
            # {chosen_pipeline} are whole numbers (the stage that holds the most, of the pipeline's stages).
            sentence=N_(
                "The most loaded GPU, on pipeline stage {stage} of {chosen_pipeline}, holds {peak_memory} "
                "{memory_unit_label} at its peak, as PyTorch counts allocated tensors.",
            ),
        ),
        OutputSpec(
            name="chosen_tensor",
            label=N_("Tensor-parallel size (TP)"),
            unit=units.GPUS,
            # Translators: {chosen_tensor}, {chosen_pipeline}, {chosen_context}, {chosen_expert} and {data_parallel}
            # are the layout's tensor-, pipeline-, context-, expert- and data-parallel sizes (keep TP, PP, CP, EP,
            # DP); {chosen_chunks} the chunks per pipeline stage; {micro_batches} a number of micro-batches;
            # {recompute_percent} a formatted percentage (the % sign follows).
            sentence=N_(
                "The layout: TP {chosen_tensor} × PP {chosen_pipeline} × CP {chosen_context} × EP {chosen_expert} "
                "× DP {data_parallel}, {chosen_chunks} chunks per pipeline stage and {micro_batches} micro-batches "
                "per step; recomputation adds this to the compute: {recompute_percent}%.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="usage_percent",
            label=N_("Share of the GPU"),
            unit=units.PERCENT,
            # Translators: {usage_percent} and {safety_margin} are formatted percentages (the % sign follows).
            sentence=N_(
                "Of the GPU's memory, that is {usage_percent}%. A layout fits when it stays within {safety_margin}%.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="shortfall_memory",
            label=N_("Memory to save"),
            unit_choice="memory_unit",
            # Translators: {shortfall_memory} and {headroom_memory} are formatted amounts in {memory_unit_label}.
            sentence=N_(
                "Above 0, the layout does not fit: save {shortfall_memory} {memory_unit_label} per GPU. Below the "
                "margin, {headroom_memory} {memory_unit_label} are left.",
            ),
        ),
        OutputSpec(
            name="step_time_s",
            label=N_("Time per step"),
            unit=N_("s"),
            # Translators: {step_time_s} is a formatted number of seconds; {bubble_share} and
            # {communication_share} formatted percentages (the % sign follows).
            sentence=N_(
                "Each optimizer step takes {step_time_s} s. Of it, the pipeline's bubble takes {bubble_share}%, and "
                "communication that computation does not hide {communication_share}%.",
            ),
        ),
        OutputSpec(
            name="mfu",
            label=N_("Model FLOPs utilization (MFU)"),
            unit=units.PERCENT,
            # Translators: {mfu} is a formatted percentage (the % sign follows); {achieved_tflops} a formatted
            # number of TFLOP/s.
            sentence=N_(
                "Share of the GPUs' peak that does the model's own FLOPs: {mfu}%. Counting recomputation, each GPU "
                "runs {achieved_tflops} TFLOP/s.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="tokens_per_second",
            label=N_("Cluster throughput"),
            unit=N_("tokens/s"),
            # Translators: {tokens_per_second} is a formatted number of tokens per second.
            sentence=N_("The cluster trains on {tokens_per_second} tokens per second."),
            fraction_digits=0,
        ),
        OutputSpec(
            name="training_days",
            label=N_("Training time"),
            unit=N_("days"),
            # Translators: {tokens_billion} is a formatted number of billions; {training_days} a number of days;
            # {gpu_hours} a number of GPU-hours; {total_cost} an amount of money with its currency code.
            sentence=N_(
                "{tokens_billion} billion tokens take {training_days} days without interruptions: {gpu_hours} "
                "GPU-hours, which cost {total_cost}.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("Model state"),
            unit_choice="memory_unit",
            # Translators: {weights_memory}, {gradients_memory} and {optimizer_memory} are formatted amounts in
            # {memory_unit_label}; {parameters_billion} a number of billions.
            sentence=N_(
                "Of the model's {parameters_billion} billion parameters, this GPU keeps weights of "
                "{weights_memory} {memory_unit_label}, gradients of {gradients_memory} {memory_unit_label} and "
                "optimizer states of {optimizer_memory} {memory_unit_label}.",
            ),
        ),
        OutputSpec(
            name="activations_memory",
            label=N_("Activations"),
            unit_choice="memory_unit",
            # Translators: {activations_memory}, {loss_memory} and {buffers_memory} are formatted amounts in
            # {memory_unit_label}.
            sentence=N_(
                "Activations of the micro-batches in flight take {activations_memory} {memory_unit_label}, the "
                "output layer's logits {loss_memory} {memory_unit_label}, gathering buffers {buffers_memory} "
                "{memory_unit_label}.",
            ),
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"M = (2 + g + 12/d_{opt}) \cdot \frac{P_{stage}}{t} + a_{layer} \cdot \frac{L}{p} \cdot n_{flight}"
        r" + 4 s b (h + V)/t",
        r"a_{layer} = s b \left(\frac{8h + 2h_{drop}}{t_{sp}} + \frac{4q + 4k + c_f f}{t}\right), \quad "
        r"n_{flight} = p\left(1 + \frac{p-1}{p v}\right)",
        r"T_{step} = \frac{F}{n \cdot \eta \cdot F_{peak}}\left(1 + \frac{p-1}{v m}\right)"
        r" + T_{TP} + T_{PP} + T_{DP} + T_{CP} + T_{EP}",
        r"\mathrm{MFU} = \frac{6 N_{active} + 12 L s q}{T_{step} \cdot n \cdot F_{peak}} \cdot B s",
    ),
    related=("gpu-memory-planner", "pipeline-bubble", "data-parallel-scaling", "training-time-cost", "mfu"),
    chart=TableChart(
        memory=MemoryChart(
            parts=(
                ChartPart("weights_memory", N_("Weights")),
                ChartPart("gradients_memory", N_("Gradients")),
                ChartPart("optimizer_memory", N_("Optimizer states")),
                ChartPart("activations_memory", N_("Activations")),
                ChartPart("loss_memory", N_("Logits")),
                ChartPart("buffers_memory", N_("Buffers")),
            )
        ),
        draw=_draw,
    ),
    rules=_RULES,
    money=("total_cost",),
)
