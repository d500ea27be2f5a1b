"""Peak GPU memory of a fine-tune or of a served model, term by term, from the model's shape (issue 29).

Every term follows what PyTorch and the training libraries keep alive at the moment of the peak, counted
tensor by tensor; where a term comes from a paper, the paper is named beside it.

Training peaks at the end of the forward pass, when every saved activation is still held and the loss's
gradient begins the backward pass (Korthikanti et al. 2022, arXiv:2205.05198, §4: "activations ... stored
in the forward pass in order to compute the gradients during the back propagation"). Per layer and token,
a transformer block saves (in bytes, 16-bit activations; h hidden, q = heads·d_head, k = kv_heads·d_head,
f the MLP width):

- each RMSNorm its input upcast to fp32 (4h) and its 16-bit output (2h), which the next linear layer keeps
  as its input (transformers' `LlamaRMSNorm`, torchtune's and litgpt's `RMSNorm`); a LayerNorm its 16-bit
  input and output (2h + 2h);
- attention the rotated queries and keys, the values and the output (2q + 2k + 2k + 2q), which a fused
  kernel (FlashAttention, PyTorch's SDPA) keeps instead of the score matrix, plus its fp32 log-sum-exp
  (4 per head); eager attention also keeps the fp32 softmax and its 16-bit copy, 6 bytes per head and
  pair of tokens (`softmax(..., dtype=torch.float32).to(query.dtype)` in transformers);
- a gated (SwiGLU) MLP the gate, its SiLU, the up projection and their product (4 × 2f); a plain MLP
  (GeLU) the first projection and its activation (2 × 2f), as Korthikanti et al.'s Table 2 counts them;
- a linear layer keeps its input whether or not its weight is trained, so a frozen base saves as much as a
  full fine-tune; LoRA adds, per adapted matrix with dropout, the dropped copy of its input and the mask
  (3 bytes per input feature).

Gradient checkpointing keeps each layer's 16-bit input (2h) and recomputes one layer at a time; offloading
moves even those to the CPU. The loss keeps batch × sequence × vocabulary logits: transformers upcasts
them to fp32, keeps the log-probabilities and at the start of the backward holds two fp32 gradients beside
the 16-bit logits (2 + 4 + 4 + 4 bytes each); computed in chunks (torchtune's `CEWithChunkedOutputLoss`,
litgpt's `chunked_cross_entropy`) the 16-bit logits and the fp32 log-probabilities remain (2 + 4); a fused
kernel (Liger's `FusedLinearCrossEntropy`) keeps neither.

Model state per parameter (Rajbhandari et al., "ZeRO", arXiv:1910.02054, §3.1): mixed precision keeps fp32
weights, fp32 gradients and fp32 optimizer states, and autocast caches a 16-bit copy of each weight (4 + 4
+ 8 + 2 for AdamW); pure bf16 keeps all in bf16 (2 + 2 + 4). 8-bit AdamW keeps its two states in one byte
each (Dettmers et al. 2021, arXiv:2110.02861); paged optimizers keep them in CUDA unified memory, which
PyTorch's counters do not see and the driver moves to the CPU under pressure; Adafactor factors its second
moment into a row and a column vector (Shazeer & Stern 2018, arXiv:1804.04235) and keeps no first moment by
default. Optimizer-in-backward steps each parameter as its gradient arrives, so at most the largest
gradient is held. ZeRO stages 1, 2, 3 and FSDP shard states, gradients and weights over the data-parallel
GPUs; FSDP gathers one layer's weights at a time, and prefetches the next.

A frozen base in 4 bits (QLoRA, Dettmers et al. 2023, arXiv:2305.14314, §3) stores NF4 values with an fp32
absmax per block of 64 (0.5 extra bits per weight), or with double quantization an 8-bit absmax and an
fp32 constant per 256 blocks (8/64 + 32/(64·256) = 0.127 bits); GPTQ and AWQ store 4 or 8 bits with a
16-bit scale and a packed zero point per group of 128. Embeddings, the output head and the norms stay in 16
bits (bitsandbytes, GPTQ and AWQ quantize linear layers only), and each quantized matrix is dequantized to
16 bits while it is used.

Serving keeps the weights, the KV cache of every sequence (2 · layers · kv_heads · d_head · tokens · bytes,
Kwon et al. 2023, arXiv:2309.06180; windows, chunks and the fixed-size states of layers without attention as
`attention.cache_of` counts them) and, while the prompt is read, the MLP intermediates of the whole prompt
(or of one chunk with chunked prefill) beside a few copies of its hidden states.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .architecture import GPT2, PHI, count_parameters
from .attention import cache_of

__all__ = [
    "ADAFACTOR",
    "ADAMW",
    "ADAMW_8BIT",
    "ALL_LINEAR",
    "ATTENTION",
    "BF16",
    "COMPILED_LOSS_BYTES",
    "FORMATS",
    "FP32",
    "FULL",
    "FULL_CHECKPOINTING",
    "LORA",
    "LOSS_BYTES",
    "MIXED",
    "OFFLOADED_CHECKPOINTING",
    "OPTIMIZERS",
    "PAGED_ADAMW",
    "PAGED_ADAMW_8BIT",
    "PRECISIONS",
    "Q_V",
    "SELECTIVE_CHECKPOINTING",
    "SERVING",
    "SGD",
    "Breakdown",
    "activation_memory",
    "estimate",
    "largest_micro_batch",
    "longest_sequence",
    "reserved",
    "serving_overhead",
    "trainable_parameters",
]

# Methods (the numbers the `method` choice sends).
SERVING, FULL, LORA = 0.0, 1.0, 2.0

# Training precisions: (bytes of a weight, of its gradient, of one optimizer state, of autocast's copy).
MIXED, BF16, FP32 = 0.0, 1.0, 2.0
PRECISIONS = MappingProxyType({MIXED: (4.0, 4.0, 4.0, 2.0), BF16: (2.0, 2.0, 2.0, 0.0), FP32: (4.0, 4.0, 4.0, 0.0)})

# Optimizers: (states per parameter, bytes of one state or 0 for the precision's, kept in unified memory).
ADAMW, ADAMW_8BIT, PAGED_ADAMW, PAGED_ADAMW_8BIT, ADAFACTOR, SGD = 0.0, 1.0, 2.0, 3.0, 4.0, 5.0
OPTIMIZERS = MappingProxyType(
    {
        ADAMW: (2.0, 0.0, False),
        ADAMW_8BIT: (2.0, 1.0, False),
        PAGED_ADAMW: (2.0, 0.0, True),
        PAGED_ADAMW_8BIT: (2.0, 1.0, True),
        ADAFACTOR: (0.0, 0.0, False),
        SGD: (1.0, 0.0, False),
    }
)

# Weight formats: (bits per weight of a quantized linear layer, including its scales), 16 for none.
FORMATS = MappingProxyType(
    {
        0.0: 16.0,  # 16-bit
        1.0: 8.0 + 32 / 64,  # LLM.int8 (bitsandbytes): int8 with an fp32 scale per row of 64+ (rows are wider; bound)
        2.0: 4.0 + 32 / 64,  # NF4, fp32 absmax per 64
        3.0: 4.0 + 8 / 64 + 32 / (64 * 256),  # NF4 with double quantization
        4.0: 4.0 + (16 + 4) / 128,  # GPTQ / AWQ 4-bit, group 128: fp16 scale and 4-bit zero per group
        5.0: 8.0 + (16 + 8) / 128,  # GPTQ 8-bit, group 128
        6.0: 8.0 + 32 / (128 * 128),  # FP8 with an fp32 scale per 128 × 128 block
    }
)

# Gradient checkpointing.
FULL_CHECKPOINTING, SELECTIVE_CHECKPOINTING, OFFLOADED_CHECKPOINTING = 1.0, 2.0, 3.0  # 0: none

# The loss: bytes kept per logit, as run eagerly and compiled (`torch.compile` fuses the upcast and the softmax).
LOSS_BYTES = MappingProxyType({0.0: 14.0, 1.0: 6.0, 2.0: 0.0})
COMPILED_LOSS_BYTES = MappingProxyType({0.0: 10.0, 1.0: 2.0, 2.0: 0.0})

# LoRA targets: which matrices of a block are adapted.
Q_V, ATTENTION, ALL_LINEAR = 2.0, 4.0, 7.0

_ACTIVATION_BYTES = 2.0  # bf16 / fp16 activations


@dataclass(frozen=True)
class Breakdown:
    """A peak, term by term, in bytes on the most loaded GPU."""

    weights: float
    adapters: float
    gradients: float
    optimizer: float
    activations: float
    loss: float
    kv_cache: float
    buffers: float
    """Transient working memory: a dequantized matrix, a gathered FSDP layer, the prompt's MLP intermediates."""
    paged: float
    """Optimizer state in unified memory: not in PyTorch's counters, moved to the CPU under pressure."""

    @property
    def allocated(self) -> float:
        """What `torch.cuda.max_memory_allocated` reports."""
        return (
            self.weights
            + self.adapters
            + self.gradients
            + self.optimizer
            + self.activations
            + self.loss
            + self.kv_cache
            + self.buffers
        )


@dataclass(frozen=True)
class _Shape:
    """The facts of one block and of the model that memory depends on."""

    layers: float
    hidden: float
    heads: float
    query: float
    key_value: float
    mlp: float
    """Per token of one layer: the MLP's width as saved (the active experts' together in a mixture of experts)."""
    gated: bool
    norms: float
    """Norms per block: 2, or 1 for Phi's shared LayerNorm."""
    rms: bool
    vocab: float
    params: float
    tables: float
    """The token table and an untied output head."""
    embedding: float
    """Parameters that stay in 16 bits when the linear layers are quantized: tables, head, norms."""
    largest_matrix: float
    layer_params: float


def _shape(values: Mapping[str, float]) -> _Shape:
    count = count_parameters(values)
    hidden = values["hidden_size"]
    architecture = values.get("architecture", 0.0)
    plain = architecture in (GPT2, PHI)
    experts = values.get("experts", 0.0)
    if experts > 0:
        expert_width = values.get("expert_ffn_size", 0.0) or values["ffn_size"]
        shared = values.get("shared_experts", 0.0) * (values.get("shared_expert_ffn_size", 0.0) or expert_width)
        mlp = min(values.get("experts_per_token", 0.0), experts) * expert_width + shared
    else:
        mlp = values["ffn_size"]
    layers = values["layers"]
    return _Shape(
        layers=layers,
        hidden=hidden,
        heads=values["attention_heads"],
        query=values["attention_heads"] * values["head_dim"],
        key_value=values["kv_heads"] * values["head_dim"],
        mlp=mlp,
        gated=not plain,
        norms=1.0 if architecture == PHI else 2.0,
        rms=not plain,
        vocab=values["vocab_size"],
        params=count.total,
        tables=count.embedding,
        embedding=count.embedding + count.norms,
        largest_matrix=max(values["vocab_size"] * hidden, hidden * values["ffn_size"]),
        layer_params=(count.non_embedding - count.norms) / max(layers, 1.0),
    )


def _layer_activations(shape: _Shape, values: Mapping[str, float], tokens: float, sequence: float) -> float:
    """Bytes one block saves for the backward pass over `tokens` tokens, in sequences of `sequence`."""
    b = _ACTIVATION_BYTES
    compiled = bool(values.get("compiled", 0.0))
    if compiled:
        # torch.compile fuses the norm and the MLP's activation into the kernels around them: a norm keeps its
        # input, the MLP its projections, and the rest is recomputed in the backward pass.
        norm = b * shape.hidden
        mlp = (2 if shape.gated else 1) * b * shape.mlp
    else:
        norm = (4 + b) * shape.hidden if shape.rms else 2 * b * shape.hidden
        mlp = (4 if shape.gated else 2) * b * shape.mlp
    attention = b * (2 * shape.query + 2 * shape.key_value) + 4 * shape.heads
    lora = 0.0
    if values["method"] == LORA and values.get("lora_dropout", 0.0):
        lora = 3 * _adapted_inputs(shape, values["target_modules"])
    per_token = shape.norms * norm + attention + mlp + lora
    scores = 0.0
    if values.get("attention", 0.0) and values.get("checkpointing", 0.0) != SELECTIVE_CHECKPOINTING:
        # Eager attention: fp32 softmax and its 16-bit copy per head and pair of tokens.
        scores = 6 * shape.heads * sequence * tokens
    return per_token * tokens + scores


def _adapted_inputs(shape: _Shape, targets: float) -> float:
    """The input features of the adapted matrices of one block (a dropout copy each)."""
    if targets == Q_V:
        return 2 * shape.hidden
    if targets == ATTENTION:
        return 3 * shape.hidden + shape.query
    return 3 * shape.hidden + shape.query + 2 * shape.hidden + shape.mlp


def _adapter_params(shape: _Shape, values: Mapping[str, float]) -> float:
    """LoRA's trainable parameters: r · (d_in + d_out) per adapted matrix (Hu et al. 2021, §4.1)."""
    r = values["rank"]
    h, q, k, f = shape.hidden, shape.query, shape.key_value, shape.mlp
    targets = values["target_modules"]
    per_layer = r * ((h + q) + (h + k))  # q and v
    if targets >= ATTENTION:
        per_layer += r * ((h + k) + (q + h))
    if targets >= ALL_LINEAR:
        per_layer += r * (h + f) * (3 if shape.gated else 2)
    return per_layer * shape.layers


def trainable_parameters(values: Mapping[str, float]) -> float:
    """The parameters a fine-tune trains: all of them, or LoRA's adapters (and the embeddings when those train)."""
    shape = _shape(values)
    if values["method"] != LORA:
        return shape.params
    return _adapter_params(shape, values) + (shape.tables if values.get("lora_embeddings", 0.0) else 0.0)


def estimate(values: Mapping[str, float]) -> Breakdown:
    """Return the peak memory of one GPU, term by term, in bytes.

    `values` holds the model's shape (as `architecture.count_parameters` reads it), `method` (`SERVING`,
    `FULL`, `LORA`), `weight_format`, `micro_batch` and `seq_len` (training) or `batch_size`,
    `prompt_tokens` and `output_tokens` (serving), and the regime's choices.
    """
    return _estimate(_shape(values), values)


def _estimate(shape: _Shape, values: Mapping[str, float]) -> Breakdown:
    return _serving(shape, values) if values["method"] == SERVING else _training(shape, values)


def _quantized_head(shape: _Shape, values: Mapping[str, float]) -> float:
    """Parameters of an untied output head quantized with the linear layers (litgpt does; transformers does not)."""
    if not values.get("weight_format", 0.0) or not values.get("quantized_head", 0.0):
        return 0.0
    return 0.0 if values.get("tied_embeddings", 0.0) else shape.vocab * shape.hidden


def _weights(shape: _Shape, values: Mapping[str, float], bytes_per_weight: float) -> float:
    fmt = values.get("weight_format", 0.0)
    if fmt == 0.0:
        return shape.params * bytes_per_weight
    head = _quantized_head(shape, values)
    quantized = shape.params - shape.embedding + head
    # PEFT's prepare_model_for_kbit_training upcasts every part left unquantized to fp32.
    kept = 4.0 if values.get("upcast_unquantized", 0.0) else 2.0
    return quantized * FORMATS.get(fmt, 16.0) / 8 + (shape.embedding - head) * kept


def _dequantized(shape: _Shape, values: Mapping[str, float]) -> float:
    """Bytes of the 16-bit copies a quantized layer makes of its weight while it runs: the largest one counts.

    bitsandbytes dequantizes to fp16 and casts to the activations' dtype (two copies); GPTQ's and AWQ's kernels
    expand a layer into one fp16 scratch buffer (exllama's temp_dq).
    """
    fmt = values.get("weight_format", 0.0)
    if not fmt:
        return 0.0
    largest = max(_quantized_head(shape, values), shape.hidden * max(shape.mlp, shape.hidden))
    copies = 2 if fmt in (1.0, 2.0, 3.0) else 1
    return copies * 2 * largest


def _prompt_bytes_per_token(hidden: float, mlp: float, gated: bool) -> float:
    """Reading a prompt, per token: the MLP's intermediates (gate·up and their product: 3f; plain: 2f) beside four
    copies of the hidden states (residual, normed, attention output, MLP output), in 16 bits."""
    return ((3 if gated else 2) * mlp + 4 * hidden) * _ACTIVATION_BYTES


def _cache(values: Mapping[str, float], tokens: float) -> float:
    """What one sequence of `tokens` tokens keeps: keys and values as its layers keep them, and any fixed-size state
    (`attention.cache_of`)."""
    cache = cache_of({**values, "context_tokens": tokens, "bytes_per_element": values.get("bytes_per_element", 2.0)})
    return cache.keys_values + cache.state


def _serving(shape: _Shape, values: Mapping[str, float]) -> Breakdown:
    batch = values["batch_size"]
    prompt = values["prompt_tokens"]
    total_tokens = prompt + values["output_tokens"]
    chunk = values.get("prefill_chunk", 0.0)
    read_at_once = min(prompt, chunk) if chunk > 0 else prompt
    prefill = batch * read_at_once * _prompt_bytes_per_token(shape.hidden, shape.mlp, shape.gated)
    if values.get("attention", 0.0):
        prefill += batch * shape.heads * read_at_once * prompt * 8
    weights = _weights(shape, values, 2.0)
    prefill += _dequantized(shape, values)
    kv_at_prefill = _cache(values, prompt) * batch
    kv_full = _cache(values, total_tokens) * batch
    # A cache kept as tuples (transformers before 4.36) is concatenated into new tensors at each step while the
    # previous step's tuple is still referenced: for a moment, a second copy of the whole cache.
    copy = (
        _cache(values, total_tokens - 1) * batch
        if values.get("kv_cache_growth", 0.0) and values["output_tokens"] > 1
        else 0.0
    )
    # The peak is whichever is larger: the prompt being read, or the cache at its longest.
    buffers = max(prefill + kv_at_prefill - kv_full, copy, 0.0)
    return Breakdown(
        weights=weights,
        adapters=0.0,
        gradients=0.0,
        optimizer=0.0,
        activations=0.0,
        loss=0.0,
        kv_cache=kv_full,
        buffers=buffers,
        paged=0.0,
    )


def _training(shape: _Shape, values: Mapping[str, float]) -> Breakdown:
    precision = PRECISIONS.get(values.get("precision", MIXED), PRECISIONS[MIXED])
    weight_bytes, gradient_bytes, state_bytes, autocast_bytes = precision
    states, state_size, paged = OPTIMIZERS.get(values.get("optimizer", ADAMW), OPTIMIZERS[ADAMW])
    state_size = state_size or state_bytes
    gpus = max(values.get("data_parallel", 1.0), 1.0)
    stage = values.get("zero_stage", 0.0)
    shard_states = gpus if stage >= 1 else 1.0
    shard_gradients = gpus if stage >= 2 else 1.0
    shard_weights = gpus if stage >= 3 else 1.0
    in_backward = bool(values.get("optimizer_in_backward", 0.0))
    offloaded_states = bool(values.get("optimizer_offload", 0.0))
    buffers = 0.0
    if values["method"] == LORA:
        frozen_bytes = 2.0 if values.get("precision", MIXED) != FP32 else 4.0
        weights = _weights(shape, values, frozen_bytes) / shard_weights
        # With PEFT's modules_to_save, a trainable copy of the embedding and the output head beside the frozen ones.
        trainable = trainable_parameters(values)
        adapters = trainable * weight_bytes
        largest = trainable / max(shape.layers, 1.0)
        buffers += _dequantized(shape, values)
    else:
        weights = shape.params * (weight_bytes + autocast_bytes) / shard_weights
        trainable = shape.params
        adapters = 0.0
        largest = shape.largest_matrix
    gradients = (largest if in_backward else trainable / shard_gradients) * gradient_bytes
    state_memory = trainable * states * state_size / shard_states
    optimizer = 0.0 if (paged or offloaded_states) else state_memory
    if stage >= 3 and gpus > 1:
        # FSDP gathers a layer's full weights before using it, and the next one ahead of time.
        buffers += 2 * shape.layer_params * 2.0
    activations, loss = _activations(shape, values)
    return Breakdown(
        weights=weights,
        adapters=adapters,
        gradients=gradients,
        optimizer=optimizer,
        activations=activations,
        loss=loss,
        kv_cache=0.0,
        buffers=buffers,
        paged=state_memory if paged and not offloaded_states else 0.0,
    )


def _activations(shape: _Shape, values: Mapping[str, float]) -> tuple[float, float]:
    """What a training step keeps for its backward pass at the peak: the layers' activations, and the loss's logits."""
    batch, sequence = values["micro_batch"], values["seq_len"]
    tokens = batch * sequence
    checkpointing = values.get("checkpointing", 0.0)
    layer = _layer_activations(shape, values, tokens, sequence)
    edges = (2 + 4 + 2 + 2) * shape.hidden * tokens  # the embedding's output, the final norm, the head's input
    if checkpointing in (FULL_CHECKPOINTING, OFFLOADED_CHECKPOINTING):
        kept = 0.0 if checkpointing == OFFLOADED_CHECKPOINTING else shape.layers * 2 * shape.hidden * tokens
        activations = kept + layer + edges
    else:
        activations = shape.layers * layer + edges
    per_logit = COMPILED_LOSS_BYTES if values.get("compiled", 0.0) else LOSS_BYTES
    loss = tokens * shape.vocab * per_logit.get(values.get("cross_entropy", 0.0), 14.0)
    return activations, loss


def activation_memory(values: Mapping[str, float]) -> float:
    """Bytes a training step keeps for its backward pass: activations and the loss's logits (`method` FULL or LORA).

    For pages that count the model state their own way and need only this term; the shape facts a page leaves out
    take their Llama-style defaults (untied head, no biases).
    """
    shape = _shape({"tied_embeddings": 0.0, **values})
    return sum(_activations(shape, values))


def largest_micro_batch(values: Mapping[str, float], limit: float) -> float:
    """Return the largest micro-batch (or concurrent sequences) whose peak stays within `limit` bytes, 0 if none."""
    name = "batch_size" if values["method"] == SERVING else "micro_batch"
    shape = _shape(values)  # the batch does not change the model: counted once for both
    one = _estimate(shape, {**values, name: 1.0}).allocated
    two = _estimate(shape, {**values, name: 2.0}).allocated
    each = two - one
    if one > limit:
        return 0.0
    if each <= 0:
        return math.inf
    return float(1 + math.floor((limit - one) / each + 1e-9))


def longest_sequence(values: Mapping[str, float], limit: float) -> float:
    """Return the longest sequence (or prompt) whose peak stays within `limit` bytes, 0 if none; by bisection."""
    name = "prompt_tokens" if values["method"] == SERVING else "seq_len"
    shape = _shape(values)  # the length does not change the model: counted once for the whole search

    def fits(length: float) -> bool:
        return _estimate(shape, {**values, name: length}).allocated <= limit

    low, high = 0.0, 1.0
    if not fits(1.0):
        return 0.0
    while fits(high):
        low, high = high, high * 2
        if high > 2**40:
            return math.inf
    while high - low > 1:
        middle = math.floor((low + high) / 2)
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


def reserved(allocated: float) -> float:
    """What `torch.cuda.max_memory_reserved` reports for a peak of `allocated` bytes: the caching allocator's slack."""
    return allocated * 1.1


def serving_overhead(values: Mapping[str, float], tokens: float) -> float:
    """Bytes a served Llama-style model holds beyond its weights at Q bits and its KV cache, as counted for the planner.

    While `tokens` prompt tokens of each of `batch_size` sequences are read: the MLP's intermediates and four copies
    of the hidden states; for weights below 16 bits, the embeddings and output head a quantized checkpoint keeps in
    16 bits (beyond Q bits each) and the 16-bit copy of the largest layer being run; the CUDA context.
    """
    hidden, width, bits = values["hidden_size"], values["ffn_size"], values["bits_per_weight"]
    prompt = values["batch_size"] * tokens * _prompt_bytes_per_token(hidden, width, gated=True)
    quantized = 0.0
    if bits < 16:
        tables = values["vocab_size"] * hidden * (1 if values["tied_embeddings"] else 2)
        quantized = tables * (16 - bits) / 8 + 2 * hidden * width
    return prompt + quantized + values["cuda_context_gb"] * 1e9
