"""A transformer laid out over a cluster: memory per GPU, time per step, the layouts that fit (issue 30).

A layout splits the model and the batch five ways (Narayanan et al. 2021, arXiv:2104.04473, §2; Korthikanti
et al. 2022, arXiv:2205.05198, §4): tensor parallelism (t) splits every weight matrix and the activations
inside a layer, and with sequence parallelism also the norms, dropouts and residual stream; pipeline
parallelism (p) gives each GPU L/p layers, in v chunks with the interleaved schedule; context parallelism
(c) splits the sequence and passes keys and values around a ring; expert parallelism (e) spreads the
experts of a mixture-of-experts layer; data parallelism (d = GPUs / (t·p·c)) repeats the rest, and the
distributed optimizer (ZeRO-1) or ZeRO-2/3 shard the model state over the d·c ranks that hold the same
weights (experts over d·c/e).

Memory is counted on the most loaded GPU, in bytes, the way Megatron-LM keeps it (16-bit weights and
activations, fp32 gradients and Adam, fused kernels):

- model state per parameter: a 16-bit weight (2), an fp32 gradient (4, or 2 with bf16 accumulation), an
  fp32 master weight and two Adam moments (12); the distributed optimizer divides the last 12 by d·c;
- activations per layer and token (Korthikanti et al., Table 2, whose GPT counts these exactly): the
  norms' and both blocks' inputs and the dropout masks, 8h + 2h, which only sequence parallelism divides by
  t; queries, keys, values and the attention output, 4q + 4k; the MLP's first activation and the second
  projection's input (4f, or 6f for SwiGLU, whose fused kernel keeps the gate and up projections and their
  product: Fujii et al. 2024, arXiv:2411.06465, §3); an unfused attention's softmax (2 per head and key)
  and its dropout (3 more); all of these divided by t, and by c, whose ranks keep s/c tokens each;
- the first pipeline stage keeps min(p, m) micro-batches in flight with 1F1B, p·(1 + (p-1)/(p·v)) with the
  interleaved schedule (Korthikanti §4.2.3), so its L/p layers weigh as much as L; the last stage keeps one,
  with the output layer's logits (4h + 4V per token, over t);
- selective recomputation drops the attention scores; full recomputation keeps each layer's input (2h) and
  rebuilds one layer at a time in the backward pass.

Time: the model's FLOPs (Narayanan et al. Eq. 3 for GPT, counted from the parameters that a token
multiplies for any other shape, attention over the whole sequence) at a share of the GPU's peak, the
pipeline's bubble ((p-1)/(v·m) of the compute), and each parallelism's communication over the link its
GPUs share (NVLink inside a node, the network across nodes), with ring collectives moving 2(n-1)/n of
their bytes (Thakur et al. 2005).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .architecture import GPT2, PHI, count_parameters
from .inputs import seen_bytes

__all__ = [
    "DISTRIBUTED_OPTIMIZER",
    "FULL_RECOMPUTE",
    "NO_RECOMPUTE",
    "SELECTIVE_RECOMPUTE",
    "SHARDED_GRADIENTS",
    "SHARDED_WEIGHTS",
    "Layout",
    "Memory",
    "Model",
    "Pins",
    "Plan",
    "Run",
    "Search",
    "Timing",
    "flops_per_token",
    "in_flight",
    "layer_activations",
    "memories",
    "memory_per_gpu",
    "micro_batches",
    "model_of",
    "plan",
    "refusal",
    "run_of",
    "runnable",
    "search",
    "stage_layers",
    "step_time",
]

NO_RECOMPUTE, SELECTIVE_RECOMPUTE, FULL_RECOMPUTE = 0, 1, 2
"""`recompute`: keep every activation, recompute the attention scores (Korthikanti §5), or whole layers."""
DISTRIBUTED_OPTIMIZER, SHARDED_GRADIENTS, SHARDED_WEIGHTS = 1, 2, 3
"""`zero_stage`: what is sharded over the data-parallel ranks (0: nothing)."""

_WEIGHT_BYTES = 2.0
_MASTER_AND_ADAM = 12.0
"""An fp32 master weight and Adam's two fp32 moments (Rajbhandari et al. 2020, arXiv:1910.02054, §3.1)."""
_TOKEN_ID_BYTES = 8.0
"""The first stage keeps each micro-batch's token ids, int64 (Megatron's theoretical_memory_usage.py)."""


@dataclass(frozen=True)
class Layout:
    """How the GPUs split the work: sizes of each parallelism, the micro-batch and the recomputation."""

    tensor: int
    pipeline: int
    chunks: int
    context: int
    expert: int
    data: int
    micro_batch: int
    recompute: int
    sequence_parallel: bool

    @property
    def gpus(self) -> int:
        """The GPUs the layout occupies."""
        return self.tensor * self.pipeline * self.context * self.data


@dataclass(frozen=True)
class Model:
    """The facts of a model the layout arithmetic needs, counted once."""

    layers: int
    hidden: float
    heads: int
    kv_heads: int
    query_width: float
    kv_width: float
    ffn: float
    vocab: float
    tied: bool
    gated: bool
    experts: int
    top_k: float
    expert_ffn: float
    shared_ffn: float
    moe_layers: int
    layer_matmul: float
    """Parameters a token multiplies in the layers (attention, MLPs, the experts it is routed to, routers)."""
    attention: float
    """Attention weights of one layer."""
    dense_mlp: float
    """MLP weights of one dense layer."""
    moe_replicated: float
    """Weights of one mixture-of-experts layer outside the routed experts: shared experts and the router."""
    expert_weights: float
    """The routed experts of one mixture-of-experts layer, all of them."""
    norms: float
    """Norm weights of one layer (not split by tensor parallelism)."""
    parameters: float
    """Every parameter of the model."""


@dataclass(frozen=True)
class Run:
    """The training run's facts beside the model: the batch, the precision, the cluster."""

    seq_len: float
    global_batch: float
    dropout: bool
    fused_attention: bool
    gradient_bytes: float
    zero_stage: int
    overlap: bool
    gpus: int
    gpus_per_node: float
    capacity: float
    """Bytes a plan may use on one GPU: its memory times the safety margin."""
    peak_flops: float
    efficiency: float
    nvlink: float
    network: float


def model_of(values: Mapping[str, float]) -> Model:
    """Read the model's shape from the inputs and count what the layout arithmetic needs."""
    count = count_parameters(values)
    layers = int(values["layers"])
    experts = int(values.get("experts", 0.0))
    moe_layers = layers - min(int(values.get("dense_layers", 0.0)), layers) if experts > 0 else 0
    dense_layers = layers - moe_layers
    plain = values.get("architecture", 0.0) in (GPT2, PHI)
    return Model(
        layers=layers,
        hidden=values["hidden_size"],
        heads=int(values["attention_heads"]),
        kv_heads=int(values["kv_heads"]),
        query_width=values["attention_heads"] * values["head_dim"],
        kv_width=values["kv_heads"] * values["head_dim"],
        ffn=values["ffn_size"],
        vocab=values["vocab_size"],
        tied=bool(values["tied_embeddings"]),
        gated=not plain,
        experts=experts,
        top_k=min(values.get("experts_per_token", 0.0), experts),
        expert_ffn=values.get("expert_ffn_size", 0.0) or values["ffn_size"],
        shared_ffn=values.get("shared_experts", 0.0) * (values.get("expert_ffn_size", 0.0) or values["ffn_size"]),
        moe_layers=moe_layers,
        layer_matmul=count.attention
        + count.dense_mlp
        + count.shared_experts
        + count.active_routed_experts
        + count.routers,
        attention=count.attention / layers,
        dense_mlp=count.dense_mlp / dense_layers if dense_layers else 0.0,
        moe_replicated=(count.shared_experts + count.routers) / moe_layers if moe_layers else 0.0,
        expert_weights=count.routed_experts / moe_layers if moe_layers else 0.0,
        norms=count.norms / (layers + 1),
        parameters=count.total,
    )


def run_of(values: Mapping[str, float]) -> Run:
    """Read the run and the cluster from the inputs."""
    return Run(
        seq_len=values["seq_len"],
        global_batch=values["global_batch"],
        dropout=bool(values["dropout"]),
        fused_attention=values["attention"] == 0,
        gradient_bytes=2.0 if values["gradient_precision"] else 4.0,
        zero_stage=int(values["zero_stage"]),
        overlap=bool(values["overlap_communication"]),
        gpus=int(values["gpus"]),
        gpus_per_node=values["gpus_per_node"],
        capacity=seen_bytes(values, 2.0**30) * values["safety_margin"] / 100,
        peak_flops=values["peak_tflops"] * 1e12,
        efficiency=values["matmul_efficiency"] / 100,
        nvlink=values["nvlink_gb_s"] * 1e9,
        network=values["network_gb_s"] * 1e9,
    )


@dataclass(frozen=True)
class Memory:
    """The bytes one GPU holds at its peak, by kind, on the stage that holds the most (0 first, 1 last)."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    logits: float
    buffers: float
    stage: int
    total: float = field(init=False)
    """Everything the GPU holds at its peak (summed once: the search compares it often)."""

    def __post_init__(self) -> None:
        total = self.weights + self.gradients + self.optimizer + self.activations + self.logits + self.buffers
        object.__setattr__(self, "total", total)


def micro_batches(run: Run, layout: Layout) -> float:
    """Micro-batches each pipeline runs per step: the global batch over data parallelism and the micro-batch."""
    return run.global_batch / (layout.data * layout.micro_batch)


def in_flight(layout: Layout, count: float) -> float:
    """Micro-batches whose activations the first stage holds at once, in units of its L/p layers.

    1F1B keeps p (fewer when the step has fewer micro-batches); the interleaved schedule keeps
    p·(1 + (p-1)/(p·v)) (Korthikanti §4.2.3), and the first stage keeps all of them.

    >>> in_flight(Layout(8, 8, 1, 1, 1, 16, 1, 0, True), 64), in_flight(Layout(8, 4, 2, 1, 1, 16, 1, 0, True), 64)
    (8, 5.5)
    """
    p = layout.pipeline
    if p == 1:
        return 1
    if layout.chunks > 1:
        return p * (1 + (p - 1) / (p * layout.chunks))
    return min(p, count)


def _layer_bytes_per_token(model: Model, run: Run, layout: Layout, moe: bool) -> tuple[float, float]:
    """One layer's saved activations per token of a micro-batch, on one GPU: (kept as is, recomputed away).

    The first part stays under selective recomputation; the second is the attention's score matrix, which
    selective recomputation rebuilds. Korthikanti et al.'s Table 2 for a GPT (f = 4h, dropout, unfused
    attention): sbh(10 + 24/t + 5as/(ht)) with tensor parallelism, sbh(34/t + 5as/(ht)) with sequence
    parallelism too.
    """
    h, t = model.hidden, layout.tensor
    s = run.seq_len / layout.context
    replicated = 8 * h + (2 * h if run.dropout else 0.0)  # norms' inputs, both blocks' inputs, dropout masks
    if moe:
        width = model.expert_ffn * (6 if model.gated else 4)
        # Each routed copy of a token keeps its permuted input and its expert's intermediates; the shared
        # experts act as a dense MLP; the router keeps fp32 logits per expert.
        mlp = model.top_k * (2 * h + width) + model.shared_ffn * (6 if model.gated else 4) + 4 * model.experts
    else:
        mlp = model.ffn * (6 if model.gated else 4)
    split = 4 * model.query_width + 4 * model.kv_width + mlp
    if run.fused_attention:
        scores = 0.0
        split += 4 * model.heads  # FlashAttention's fp32 log-sum-exp per head
    else:
        scores = model.heads * s * (5 if run.dropout else 2)  # softmax (2), dropout mask (1) and output (2)
    if layout.sequence_parallel:
        return (replicated + split) / t, scores / t
    return replicated + split / t, scores / t


def layer_activations(model: Model, run: Run, layout: Layout, moe: bool) -> float:
    """One layer's saved activations for one micro-batch on one GPU, after recomputation."""
    kept, scores = _layer_bytes_per_token(model, run, layout, moe)
    return (
        _after_recompute(model, layout, layout.recompute, kept, scores)
        * layout.micro_batch
        * run.seq_len
        / layout.context
    )


def _after_recompute(model: Model, layout: Layout, recompute: int, kept: float, scores: float) -> float:
    """Bytes per token a layer keeps under `recompute`, from what it keeps and its attention scores."""
    if recompute == FULL_RECOMPUTE:
        return 2 * model.hidden / (layout.tensor if layout.sequence_parallel else 1)
    if recompute == SELECTIVE_RECOMPUTE:
        return kept
    return kept + scores


def memory_per_gpu(model: Model, run: Run, layout: Layout) -> Memory:
    """The peak on the most loaded GPU: the first pipeline stage or, when the output layer weighs more, the last.

    Korthikanti et al.'s 530B model (Table 3: 105 layers, h 20,480, 128 heads, t 8, p 35, sequence
    parallelism and selective recomputation, micro-batches of one 2,048-token sequence): the first stage keeps
    sbhL·34/t for its layers (Eq. 5), and for each of the 35 micro-batches in flight the token ids (8 bytes
    each) and the embedding's dropout mask (sbh/t):

    >>> gpt = {"architecture": 1, "layers": 105, "hidden_size": 20480, "attention_heads": 128, "kv_heads": 128,
    ...        "head_dim": 160, "ffn_size": 81920, "vocab_size": 51200, "tied_embeddings": 1, "positions": 2048}
    >>> run = Run(2048, 280, True, False, 4.0, 1, False, 280, 8, 80 * 2**30 * 0.8, 312e12, 0.6, 300e9, 25e9)
    >>> memory = memory_per_gpu(model_of(gpt), run, Layout(8, 35, 1, 1, 1, 1, 1, 1, True))
    >>> 2048 * 20480 * 105 * 34 // 8 + 35 * (8 * 2048 + 2048 * 20480 // 8) == memory.activations
    True
    """
    return memories(model, run, layout, (layout.recompute,))[0]


def memories(model: Model, run: Run, layout: Layout, levels: tuple[int, ...]) -> tuple[Memory, ...]:
    """The most loaded GPU's peak under each recomputation of `levels`, the layout's state counted once."""
    stages = _stages(model, run, layout)
    return tuple(_peak(model, layout, stages, recompute) for recompute in levels)


def _stages(model: Model, run: Run, layout: Layout) -> tuple[_Stage, ...]:
    """The first stage, and the last when there is a pipeline."""
    first = _stage_memory(model, run, layout, last=False)
    return (first,) if layout.pipeline == 1 else (first, _stage_memory(model, run, layout, last=True))


def _peak(model: Model, layout: Layout, stages: tuple[_Stage, ...], recompute: int) -> Memory:
    """The stage that holds more under `recompute`, as a Memory."""
    stage = max(stages, key=lambda item: item.state + _activations(model, layout, item, recompute))
    activations = _activations(model, layout, stage, recompute) - stage.logits - stage.buffers
    return Memory(stage.weights, stage.gradients, stage.optimizer, activations, stage.logits, stage.buffers, stage.last)


def stage_layers(model: Model, layout: Layout) -> int:
    """Layers on the fullest pipeline stage: L/p when p divides L, else one more chunk's worth.

    Megatron-LM (--decoder-first-pipeline-num-layers, --decoder-last-pipeline-num-layers) and torchtitan split
    layers unevenly when p does not divide them, as Llama 3 405B's 126 layers ran on 16 stages (Dubey et al. 2024,
    arXiv:2407.21783, §3.3.2); the fullest stage sets the pace and holds the most.

    >>> llama = model_of({"layers": 126, "hidden_size": 16384, "attention_heads": 128, "kv_heads": 8,
    ...                   "head_dim": 128, "ffn_size": 53248, "vocab_size": 128256, "tied_embeddings": 0})
    >>> stage_layers(llama, Layout(8, 16, 1, 1, 1, 128, 1, 1, True))
    8
    >>> stage_layers(llama, Layout(8, 6, 3, 1, 1, 2, 1, 1, True))  # 18 chunks of 7 layers: 21 per stage
    21
    """
    chunks = layout.pipeline * layout.chunks
    return -(-model.layers // chunks) * layout.chunks


def _stage_layers(model: Model, layout: Layout, last: bool) -> tuple[float, float]:
    """Dense and mixture-of-experts layers on a stage; dense layers come first in the model (DeepSeek)."""
    per_stage = float(stage_layers(model, layout))
    dense = model.layers - model.moe_layers
    dense_here = max(min(dense - (model.layers - per_stage), per_stage), 0.0) if last else min(dense, per_stage)
    return dense_here, per_stage - dense_here


def _stage_parameters(
    model: Model, layout: Layout, last: bool, layers: tuple[float, float] | None = None
) -> tuple[float, float]:
    """Parameters one GPU of a stage holds: (those shared by the d·c data and context ranks, its experts')."""
    t = layout.tensor
    dense_layers, moe_layers = layers or _stage_layers(model, layout, last)
    table = model.vocab * model.hidden / t
    holds_output = last or layout.pipeline == 1
    embeddings = (0.0 if last else table) + (table if holds_output and not (model.tied and layout.pipeline == 1) else 0)
    shared = (
        dense_layers * (model.attention + model.dense_mlp) / t
        + moe_layers * (model.attention + model.moe_replicated) / t
        + (dense_layers + moe_layers) * model.norms
        + embeddings
        + (model.norms / 2 if holds_output else 0.0)
    )
    return shared, moe_layers * model.expert_weights / (layout.expert * t)


@dataclass(frozen=True)
class _Stage:
    """What a stage holds whatever the recomputation, and what its activations are made of."""

    weights: float
    gradients: float
    optimizer: float
    logits: float
    buffers: float
    embedding: float
    tokens: float
    held: float
    layers: tuple[float, float]
    dense: tuple[float, float]
    moe: tuple[float, float]
    last: int
    state: float = field(init=False)
    """Weights, gradients and optimizer states."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "state", self.weights + self.gradients + self.optimizer)


def _activations(model: Model, layout: Layout, stage: _Stage, recompute: int) -> float:
    """A stage's activations under `recompute`, with its logits and buffers (all that is not model state)."""
    dense = _after_recompute(model, layout, recompute, *stage.dense)
    moe = _after_recompute(model, layout, recompute, *stage.moe)
    activations = stage.held * stage.tokens * (stage.layers[0] * dense + stage.layers[1] * moe) + stage.embedding
    if recompute == FULL_RECOMPUTE:
        # The backward pass rebuilds one layer at a time, for one micro-batch.
        activations += stage.tokens * sum(stage.moe if stage.layers[1] else stage.dense)
    return activations + stage.logits + stage.buffers


def _stage_memory(model: Model, run: Run, layout: Layout, last: bool) -> _Stage:
    """One stage's model state, logits, buffers and the makings of its activations."""
    d = layout.data * layout.context
    t = layout.tensor
    dense_layers, moe_layers = _stage_layers(model, layout, last)
    holds_output = last or layout.pipeline == 1
    shared, experts = _stage_parameters(model, layout, last, (dense_layers, moe_layers))
    expert_ranks = max(d / layout.expert, 1.0)
    stage = run.zero_stage
    sharded = shared / d + experts / expert_ranks
    whole = shared + experts
    weights = _WEIGHT_BYTES * (sharded if stage >= SHARDED_WEIGHTS else whole)
    gradients = run.gradient_bytes * (sharded if stage >= SHARDED_GRADIENTS else whole)
    optimizer = _MASTER_AND_ADAM * (sharded if stage >= DISTRIBUTED_OPTIMIZER else whole)

    tokens = layout.micro_batch * run.seq_len / layout.context
    held = 1.0 if last else in_flight(layout, micro_batches(run, layout))
    embedding = 0.0
    if not last:
        ids = _TOKEN_ID_BYTES * tokens
        # The embedding's dropout mask, scattered over the tensor-parallel ranks with sequence parallelism.
        mask = tokens * model.hidden / (t if layout.sequence_parallel else 1) if run.dropout else 0.0
        embedding = held * (ids + mask)
    logits = 0.0
    if holds_output:
        logits = tokens * (4 * model.hidden / (t if layout.sequence_parallel else 1) + 4 * model.vocab / t)
    # Sequence parallelism gathers a layer's input to full length before each projection; ZeRO-3 gathers a
    # layer's weights before using them.
    buffers = 2 * tokens * model.hidden * layout.context if layout.sequence_parallel else 0.0
    if stage >= SHARDED_WEIGHTS:
        buffers += _WEIGHT_BYTES * (model.attention + max(model.dense_mlp, model.moe_replicated)) / t
    return _Stage(
        weights, gradients, optimizer, logits, buffers, embedding, tokens, held, (dense_layers, moe_layers),
        _layer_bytes_per_token(model, run, layout, moe=False),
        _layer_bytes_per_token(model, run, layout, moe=True) if moe_layers else (0.0, 0.0),
        int(last),
    )  # fmt: skip


@dataclass(frozen=True)
class Timing:
    """Seconds per optimizer step, by cause, and the FLOPs the step does."""

    compute: float
    bubble: float
    tensor: float
    context: float
    pipeline: float
    data: float
    expert: float
    model_flops: float
    """FLOPs of the step without recomputation: what model FLOPs utilization (MFU) divides."""
    hardware_flops: float
    """FLOPs the GPUs run, recomputation included."""

    @property
    def step(self) -> float:
        """The step's wall time."""
        return self.compute + self.bubble + self.tensor + self.context + self.pipeline + self.data + self.expert


def flops_per_token(model: Model, run: Run, recompute: int) -> tuple[float, float]:
    """Training FLOPs per token: (model, hardware).

    Forward: 2 per parameter a token multiplies, the output layer included, and 4·s·q per layer for the
    scores and their sum over values (the whole sequence, as Narayanan et al. and PaLM count it); the
    backward pass twice that. Full recomputation runs the layers' forward once more (Narayanan Eq. 3's 96
    instead of 72); selective recomputation the attention scores' forward.
    """
    attention = 4 * run.seq_len * model.query_width * model.layers
    layers = 2 * model.layer_matmul + attention
    forward = layers + 2 * model.hidden * model.vocab
    extra = layers if recompute == FULL_RECOMPUTE else attention if recompute == SELECTIVE_RECOMPUTE else 0.0
    return 3 * forward, 3 * forward + extra


def _data_parallel(run: Run, parameters: float, ranks: int, count: float, bandwidth: float) -> float:
    """Seconds a step spends reducing `parameters`' gradients over `ranks` (and, sharded, gathering weights)."""
    gradients = parameters * run.gradient_bytes
    if run.zero_stage < DISTRIBUTED_OPTIMIZER:
        return _ring(ranks, gradients, bandwidth)
    # Reduce-scatter the gradients, all-gather the updated weights: half an all-reduce each.
    seconds = _ring(ranks, gradients, bandwidth) / 2 + _ring(ranks, parameters * _WEIGHT_BYTES, bandwidth) / 2
    if run.zero_stage >= SHARDED_WEIGHTS:
        seconds += count * _ring(ranks, parameters * _WEIGHT_BYTES, bandwidth)  # gathered again per micro-batch
    return seconds


def _ring(ranks: float, size: float, bandwidth: float) -> float:
    """Seconds for a ring all-reduce of `size` bytes over `ranks` GPUs: 2(n-1)/n of the bytes cross each link."""
    return 2 * (ranks - 1) / ranks * size / bandwidth if ranks > 1 else 0.0


def _link(run: Run, span: float) -> float:
    """The bandwidth between GPUs `span` ranks apart or fewer: NVLink within a node, else the network."""
    return run.nvlink if span <= run.gpus_per_node else run.network


def _busy(model: Model, run: Run, layout: Layout, hardware_token: float) -> tuple[float, float]:
    """A step's compute and its pipeline bubble, in seconds: the time no communication can shorten."""
    compute = hardware_token * run.global_batch * run.seq_len / (layout.gpus * run.peak_flops * run.efficiency)
    # Stages wait for the fullest one: an uneven split runs at its pace.
    compute *= stage_layers(model, layout) * layout.pipeline / model.layers
    return compute, compute * (layout.pipeline - 1) / (layout.chunks * micro_batches(run, layout))


def _tensor_traffic(model: Model, run: Run, layout: Layout) -> float:
    """Seconds of tensor-parallel collectives a step waits for: two all-reduces (or an all-gather and a
    reduce-scatter) forward and two backward per layer, two more when full recomputation reruns the forward."""
    collectives = 4 + (2 if layout.recompute == FULL_RECOMPUTE else 0)
    activation = 2 * layout.micro_batch * run.seq_len / layout.context * model.hidden
    ring = _ring(layout.tensor, activation, _link(run, layout.tensor))
    return micro_batches(run, layout) * stage_layers(model, layout) * collectives * ring


def step_time(
    model: Model,
    run: Run,
    layout: Layout,
    flops: tuple[float, float] | None = None,
    parameters: tuple[float, float] | None = None,
) -> Timing:
    """Seconds per step: compute at the given share of the peak, the pipeline's bubble, and communication.

    Ranks are ordered as Megatron-LM orders them, tensor innermost, then context, data, and pipeline
    outermost, so a group of t·c GPUs shares a node's NVLink while data and pipeline traffic crosses nodes once
    the job does. `flops` (model and hardware FLOPs per token) and `parameters` (the first stage's, shared and
    experts') spare a search from working them out again.
    """
    model_token, hardware_token = flops or flops_per_token(model, run, layout.recompute)
    tokens = run.global_batch * run.seq_len
    speed = run.peak_flops * run.efficiency
    compute, bubble = _busy(model, run, layout, hardware_token)
    count = micro_batches(run, layout)
    t, c = layout.tensor, layout.context
    layers_here = stage_layers(model, layout)
    micro_tokens = layout.micro_batch * run.seq_len / c
    activation = 2 * micro_tokens * model.hidden
    tensor = _tensor_traffic(model, run, layout)
    # Context parallelism passes keys and values around the ring, forward and (with their gradients) backward,
    # under the attention's own compute.
    context = 0.0
    if c > 1:
        kv = 2 * micro_tokens * model.kv_width / t * 2
        passing = 3 * (c - 1) * kv / _link(run, t * c)
        attention = 3 * 4 * micro_tokens * run.seq_len * model.query_width / t / speed
        context = count * layers_here * max(passing - attention, 0.0)
    # Pipeline: each micro-batch's activations forward and their gradients backward, once per chunk, split
    # over the tensor-parallel ranks (scatter-gather).
    pipeline = 0.0
    if layout.pipeline > 1:
        pipeline = count * layout.chunks * 2 * activation / t / _link(run, layout.gpus)
    # Data parallelism: the gradients, reduced once per step; the distributed optimizer reduce-scatters them
    # and all-gathers the updated weights; overlapped with the last micro-batch's backward pass when allowed.
    shared, experts = parameters or _stage_parameters(model, layout, last=False)
    ranks = layout.data * c
    bandwidth = _link(run, t * c * layout.data)
    data = _data_parallel(run, shared, ranks, count, bandwidth)
    data += _data_parallel(run, experts, max(ranks // layout.expert, 1), count, bandwidth)
    if run.overlap:
        data = max(data - compute / count * 2 / 3, 0.0)
    # Expert parallelism: tokens to their experts and back, forward and backward.
    expert = 0.0
    if layout.expert > 1 and model.moe_layers:
        moved = micro_tokens / (t if layout.sequence_parallel else 1) * model.top_k * model.hidden * 2
        share = (layout.expert - 1) / layout.expert
        expert = count * model.moe_layers / layout.pipeline * 4 * moved * share / _link(run, t * layout.expert)
    return Timing(
        compute=compute,
        bubble=bubble,
        tensor=tensor,
        context=context,
        pipeline=pipeline,
        data=data,
        expert=expert,
        model_flops=model_token * tokens,
        hardware_flops=hardware_token * tokens,
    )


def refusal(model: Model, run: Run, layout: Layout) -> str:
    """The first reason this layout cannot run as Megatron-LM requires, or "" when it can.

    Codes: "heads" (attention or key-value heads not divisible by t), "node" (tensor parallelism across
    nodes), "layers" (fewer layers than p·v chunks), "gpus" (GPUs not divisible by t·p·c), "batch" (global
    batch not divisible by d × micro-batch, or too few micro-batches to interleave), "experts" (experts not
    divisible by e, or e not dividing d·c), "sequence" (sequence not divisible by 2c).
    """
    t, p, c = layout.tensor, layout.pipeline, layout.context
    if model.heads % t or model.kv_heads % t:
        return "heads"
    if t > run.gpus_per_node:
        return "node"
    if model.layers < p * layout.chunks:
        return "layers"
    if run.gpus % (t * p * c):
        return "gpus"
    if run.global_batch % (layout.data * layout.micro_batch):
        return "batch"
    if layout.chunks > 1 and micro_batches(run, layout) % p:
        return "batch"
    if model.experts and (model.experts % layout.expert or (layout.data * c) % layout.expert):
        return "experts"
    if not model.experts and layout.expert > 1:
        return "experts"
    if c > 1 and run.seq_len % (2 * c):
        return "sequence"
    return ""


@dataclass(frozen=True)
class Plan:
    """A layout that fits, with its peak memory and its step."""

    layout: Layout
    memory: Memory
    timing: Timing


def plan(model: Model, run: Run, layout: Layout) -> Plan:
    """The memory and the time of one layout."""
    return Plan(layout, memory_per_gpu(model, run, layout), step_time(model, run, layout))


@dataclass(frozen=True)
class Pins:
    """The sizes the reader fixed; 0 (or -1 for the recomputation) leaves one to the search."""

    tensor: int = 0
    pipeline: int = 0
    chunks: int = 0
    context: int = 0
    expert: int = 0
    recompute: int = -1
    sequence_parallel: bool = True


@dataclass(frozen=True)
class Search:
    """The fastest layouts that fit, fastest first, and how many fit in all; how many of the others each reason
    refused; and, when none fits, the valid layout that comes closest (the least memory)."""

    plans: tuple[Plan, ...]
    fits: int
    refused: tuple[tuple[str, int], ...]
    closest: Plan | None


_CHUNKS = (1, 2, 4)
_RECOMPUTE = (NO_RECOMPUTE, SELECTIVE_RECOMPUTE, FULL_RECOMPUTE)


def _divisors(number: int) -> Iterator[int]:
    return (k for k in range(1, number + 1) if number % k == 0)


def _powers_of_two(limit: int) -> Iterator[int]:
    size = 1
    while size <= limit:
        yield size
        size *= 2


def search(model: Model, run: Run, micro_batch: int, pins: Pins = Pins(), keep: int = 10) -> Search:
    """Try every tensor × pipeline × context × expert size (and interleaving) on the run's GPUs that `pins` allows.

    For each, the least recomputation that fits (or the pinned one); then rank by step time and keep the `keep`
    fastest. Tensor and context sizes are powers of two, as the heads and sequence lengths that divide them are;
    pipeline sizes are every divisor of the GPUs left. The micro-batch is the reader's: this time model does not
    see how larger ones run faster per GPU.
    """
    refused: dict[str, int] = {}
    closest: tuple[Layout, float] | None = None
    levels: tuple[int, ...] = _RECOMPUTE if pins.recompute < 0 else (pins.recompute,)
    if pins.recompute < 0 and run.fused_attention:
        # A fused kernel keeps no scores, so selective recomputation saves nothing and costs time: never chosen.
        levels = (NO_RECOMPUTE, FULL_RECOMPUTE)
    caches: _Caches = ({}, {})
    flops = {level: flops_per_token(model, run, level) for level in _RECOMPUTE}
    ranked: list[tuple[float, float, Layout, Timing]] = []
    fits = 0
    for layout in _layouts(run, model, micro_batch, pins):
        reason = refusal(model, run, layout)
        if not reason:
            recompute, total = _least_recompute(model, run, layout, levels, caches)
            if recompute < 0:
                reason = "memory"
                if closest is None or total < closest[1]:
                    closest = (_with_recompute(layout, levels[-1]), total)
            else:
                fits += 1
                candidate = _with_recompute(layout, recompute)
                # The step is at least its compute, bubble and tensor-parallel traffic: a layout that cannot
                # rank among the first `keep` is not worked out further.
                if len(ranked) == keep:
                    floor = sum(_busy(model, run, candidate, flops[recompute][1]))
                    if floor + _tensor_traffic(model, run, candidate) > ranked[-1][0]:
                        continue
                stage = caches[0][(layout.tensor, layout.pipeline, layout.chunks, layout.expert, False)]
                timing = step_time(model, run, candidate, flops[recompute], stage[2:])
                bisect.insort(ranked, (timing.step, total, candidate, timing), key=lambda item: (item[0], item[1]))
                del ranked[keep:]
        if reason:
            refused[reason] = refused.get(reason, 0) + 1
    # Only the layouts shown are counted term by term.
    best = tuple(Plan(layout, memory_per_gpu(model, run, layout), timing) for _, _, layout, timing in ranked)
    nearest = plan(model, run, closest[0]) if not best and closest is not None else None
    return Search(best, fits, tuple(sorted(refused.items(), key=lambda item: -item[1])), nearest)


def _sizes(pinned: int, free: Iterator[int]) -> Iterator[int]:
    return iter((pinned,)) if pinned > 0 else free


def _layouts(run: Run, model: Model, micro_batch: int, pins: Pins) -> Iterator[Layout]:
    gpus = run.gpus
    experts = tuple(_divisors(model.experts)) if model.experts else (1,)
    for tensor in _sizes(pins.tensor, _powers_of_two(min(gpus, max(model.heads, 1)))):
        left = gpus // tensor if gpus % tensor == 0 else 0
        for pipeline in _sizes(pins.pipeline, _divisors(left)) if left else ():
            if left % pipeline:
                continue
            for context in _sizes(pins.context, _powers_of_two(left // pipeline)):
                if not pins.context and context > 1 and run.seq_len / context < 1024:
                    break
                if (left // pipeline) % context:
                    continue
                data = left // (pipeline * context)
                for chunks in _sizes(pins.chunks, iter(_CHUNKS if pipeline > 1 else (1,))):
                    for expert in _sizes(pins.expert, iter(experts)):
                        if not pins.expert and expert > data * context:
                            break
                        sequence = pins.sequence_parallel and tensor > 1
                        yield Layout(tensor, pipeline, chunks, context, expert, data, micro_batch, 0, sequence)


def _with_recompute(layout: Layout, recompute: int) -> Layout:
    return Layout(
        layout.tensor, layout.pipeline, layout.chunks, layout.context, layout.expert, layout.data,
        layout.micro_batch, recompute, layout.sequence_parallel,
    )  # fmt: skip


def _least_recompute(
    model: Model, run: Run, layout: Layout, levels: tuple[int, ...], caches: _Caches
) -> tuple[int, float]:
    """The least recomputation of `levels` that fits and its total, or -1 and the total of the most."""
    totals = _totals(model, run, layout, levels, caches)
    for recompute, total in zip(levels, totals, strict=True):
        if total <= run.capacity:
            return recompute, total
    return -1, totals[-1]


_Caches = tuple[
    dict[tuple[int, int, int, int, bool], tuple[float, float, float, float]],
    dict[tuple[int, int, bool], tuple[float, ...]],
]
"""What layouts share, worked out once per search: a stage's layers and parameters by (t, p, v, e, last), and a
layer's bytes per token by (t, c, sequence parallelism)."""


def _totals(model: Model, run: Run, layout: Layout, levels: tuple[int, ...], caches: _Caches) -> list[float]:
    """The most loaded GPU's total under each of `levels`: `memories`' arithmetic, trimmed for the search.

    The test `test_the_search_counts_memory_as_memories_does` holds the two to the same numbers.
    """
    parameters, per_token = caches
    t, c, sp = layout.tensor, layout.context, layout.sequence_parallel
    key = (t, c, sp)
    if key not in per_token:
        per_token[key] = (
            *_layer_bytes_per_token(model, run, layout, moe=False),
            *_layer_bytes_per_token(model, run, layout, moe=True),
        )
    dense_kept, dense_scores, moe_kept, moe_scores = per_token[key]
    d = layout.data * c
    expert_ranks = max(d / layout.expert, 1.0)
    tokens = layout.micro_batch * run.seq_len / c
    sp_split = t if sp else 1
    gathered = 2 * tokens * model.hidden * c if sp else 0.0
    if run.zero_stage >= SHARDED_WEIGHTS:
        gathered += _WEIGHT_BYTES * (model.attention + max(model.dense_mlp, model.moe_replicated)) / t
    full = 2 * model.hidden / sp_split
    best = [0.0] * len(levels)
    for last in (False, True) if layout.pipeline > 1 else (False,):
        stage_key = (t, layout.pipeline, layout.chunks, layout.expert, last)
        if stage_key not in parameters:
            layers = _stage_layers(model, layout, last)
            parameters[stage_key] = (*layers, *_stage_parameters(model, layout, last, layers))
        dense_layers, moe_layers, shared, experts = parameters[stage_key]
        sharded = shared / d + experts / expert_ranks
        whole = shared + experts
        state = _WEIGHT_BYTES * (sharded if run.zero_stage >= SHARDED_WEIGHTS else whole)
        state += run.gradient_bytes * (sharded if run.zero_stage >= SHARDED_GRADIENTS else whole)
        state += _MASTER_AND_ADAM * (sharded if run.zero_stage >= DISTRIBUTED_OPTIMIZER else whole)
        held = 1.0 if last else in_flight(layout, micro_batches(run, layout))
        fixed = state + gathered
        if not last:
            mask = tokens * model.hidden / sp_split if run.dropout else 0.0
            fixed += held * (_TOKEN_ID_BYTES * tokens + mask)
        if last or layout.pipeline == 1:
            fixed += tokens * (4 * model.hidden / sp_split + 4 * model.vocab / t)
        for index, recompute in enumerate(levels):
            if recompute == FULL_RECOMPUTE:
                kept = held * tokens * full * (dense_layers + moe_layers)
                kept += tokens * (moe_kept + moe_scores if moe_layers else dense_kept + dense_scores)
            elif recompute == SELECTIVE_RECOMPUTE:
                kept = held * tokens * (dense_layers * dense_kept + moe_layers * moe_kept)
            else:
                dense = dense_layers * (dense_kept + dense_scores)
                kept = held * tokens * (dense + moe_layers * (moe_kept + moe_scores))
            best[index] = max(best[index], fixed + kept)
    return best


def runnable(model: Model, run: Run, micro_batch: int, pins: Pins) -> bool:
    """Whether any layout `pins` allows can run at all, memory aside: a quick check before the search."""
    return any(not refusal(model, run, layout) for layout in _layouts(run, model, micro_batch, pins))
