"""LoRA parameters: the adapter's trainable parameters, their share of the model, and training memory.

Formula (Hu et al., "LoRA: Low-Rank Adaptation of Large Language Models", arXiv:2106.09685, §4.1
and §5.1): a frozen matrix W of shape d_out × d_in gets the update B·A with A of shape r × d_in and
B of shape d_out × r, so r·(d_in + d_out) trainable parameters per adapted matrix, times the
layers. The paper's square case is |Θ| = 2 · L̂ · d_model · r. With grouped-query attention the
key and value projections output n_kv · d_head, not d_model. The share follows Hugging Face PEFT's
`print_trainable_parameters` (https://huggingface.co/docs/peft/quicktour): trainable ÷ all, where
"all" counts the adapters too.

Which matrices: Hugging Face PEFT adapts each nn.Linear or Conv1D module it targets, whole, with
r·(in_features + out_features) parameters (`LoraLayer.update_layer`; `target_modules="all-linear"`
takes every such module but the output head, `_maybe_include_all_linear_layers` in
`peft/tuners/tuners_utils.py`). So the count follows the model's own modules: separate q, k, v, o and
gate, up, down in Llama-style code; GPT-2's fused c_attn (d → 3d), c_proj, c_fc (d → d_ff) and c_proj
(`modeling_gpt2.py`, Conv1D); Phi-3's fused qkv_proj (d → (h + 2·kv)·d_head) and gate_up_proj
(d → 2·d_ff) (`modeling_phi3.py`); Phi-2's separate projections and two-matrix fc1, fc2
(`modeling_phi.py`). A fused projection is adapted whole, even when only q and v are
asked for. In a mixture-of-experts layer "all-linear" adapts every expert's w1, w2, w3 and the router
gate, Linear(d, E), as in transformers 4.x (`MixtralSparseMoeBlock` in `modeling_mixtral.py`); shared
experts are one MLP of n_shared × their width, as DeepSeek and Qwen2-MoE build them.

transformers 5 stacks each layer's experts into two nn.Parameter tensors, gate_up_proj (E, 2·d_ff, d) and
down_proj (E, d, d_ff), and makes the router a module holding an (E, d) parameter
(`Qwen2MoeExperts` and `Qwen2MoeTopKRouter`, `models/qwen2_moe/modeling_qwen2_moe.py` lines 271-318 at
transformers v5.24.0); neither is an nn.Linear, so "all-linear" alone skips them. PEFT ≥ 0.20 converts
the config for the model types `_MODEL_TO_CONVERSION_PATTERN` (`transformers/conversion_mapping.py`
lines 48-78 at v5.24.0) sends to Mixtral's or Qwen2-MoE's pattern, and for "mixtral", which PEFT adds
(`peft/utils/transformers_weight_conversion.py` lines 44-45, 332-352 and 402-482 at peft v0.21.2):
"all-linear" becomes the nn.Linear modules not named like an expert projection, plus target_parameters
gate_up_proj at rank 2r, down_proj at r and the router's gate.weight at r, each stacked tensor with
r·E·(d_in + d_out) parameters (`ParamWrapper.update_layer`, `peft/tuners/lora/layer.py` lines 2455-2456),
the "fused" choice. The names gate_proj, up_proj and down_proj leave target_modules, and a target
parameter matches only a "<module>.<parameter>" key ending in it (`_inject_parameters`,
`peft/tuners/tuners_utils.py` lines 1248-1250), never "….down_proj.weight": the nn.Linear projections
of shared experts and dense layers lose their adapters, while a shared-expert gate keeps its own.
"qwen2_moe" itself is no key of that table: for Qwen1.5-MoE and Qwen2-MoE PEFT converts nothing, and
"all-linear" adapts the attention, the shared expert, its gate and the dense layers but no routed
expert and no router, the "skipped" choice; so do other MoE types the table leaves out, though where
their router is still an nn.Linear (Phi-3.5-MoE, Llama 4) it is adapted too. PEFT 0.21.2 with
transformers 5.24.0 prints 15,925,632 trainable parameters for Qwen1.5-MoE-A2.7B with r = 16 on
"all-linear", and the counts of the "fused" choice for Mixtral, Qwen3-MoE and DeepSeek-V3's experts.

Training memory: the frozen base weights at their storage precision (2 bytes for BF16, 1 for 8-bit,
0.5 for 4-bit as in QLoRA) plus, per adapter parameter, 16 bytes for weights, gradients and Adam's
two moments in mixed precision. Activations are left out by default, as in the sources; on request they are
computed from the model's shape, the micro-batch and the sequence length with the GPU memory planner's count
(`vocabulary/memory.py`: each layer's saved tensors, which a frozen layer keeps as a trained one does, and the
loss's logits).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, ChartPart, Choice, InputSpec, Kind, MemoryChart, OutputSpec, messages_of
from calculators.vocabulary import inputs, memory
from calculators.vocabulary.architecture import GPT2, LLAMA, PHI, SHARED_EXPERT_FFN_SIZE, SHARED_EXPERT_GATE

N_, NP_ = messages_of(__name__)

_MODEL = inputs.MODEL
_ADAPTER = N_("Adapter")
_MEMORY = N_("Training memory")

# The target choices carry the number of adapted matrices per layer.
_Q_V = 2
_ATTENTION = 4
_ALL_LINEAR = 7

# The module layouts: which linear modules a block's code has (the numbers are `model.module_layout`).
_SEPARATE = 0
_GPT2 = 1
_PHI = 2
_PHI3 = 3

# How transformers stores the experts and what PEFT adapts of them: nn.Linear modules (4.x), stacked tensors that
# PEFT converts its config for (5.x, Mixtral's and Qwen2-MoE's patterns) or stacked tensors it leaves out (5.x, others).
_EXPERT_MODULES = 0
_FUSED_EXPERTS = 1
_SKIPPED_EXPERTS = 2

# Where the activations come from: left out (the sources' count) or computed from the shape.
_LEFT_OUT, _COMPUTED = 0.0, 1.0


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the trainable adapter parameters, their share, and the training memory in the chosen unit.

    PEFT's printed counts: Llama-2-7B with r = 8 on q_proj and v_proj, "trainable params: 4,194,304
    || all params: 6,742,609,920 || trainable%: 0.0622"; Llama-3-8B with r = 16 on all seven linear
    layers, 41,943,040 trainable parameters:

    >>> llama2 = {"layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 32, "head_dim": 128,
    ...           "ffn_size": 11008, "params_billion": 6.738415616, "target_modules": 2, "rank": 8,
    ...           "base_bytes_per_param": 2, "adapter_bytes_per_param": 16, "memory_unit": 1e9}
    >>> result = compute(llama2)
    >>> result["lora_params"], round(result["trainable_percent"], 4)
    (4194304, 0.0622)
    >>> llama3 = {**llama2, "kv_heads": 8, "ffn_size": 14336, "params_billion": 8.030261248,
    ...           "target_modules": 7, "rank": 16}
    >>> compute(llama3)["lora_params"]
    41943040

    The LoRA paper's GPT-3 175B (96 layers, d_model 12,288) with r = 1 on W_q and W_v, 4.7M (Table 4):

    >>> gpt3 = {**llama2, "layers": 96, "hidden_size": 12288, "attention_heads": 96, "kv_heads": 96,
    ...         "ffn_size": 49152, "params_billion": 175, "rank": 1}
    >>> compute(gpt3)["lora_params"]
    4718592

    GPT-2 small with PEFT's defaults (r = 8 on the fused c_attn, 768 → 2,304), "trainable params: 294,912
    || all params: 124,734,720":

    >>> gpt2 = {**llama2, "module_layout": 1, "layers": 12, "hidden_size": 768, "attention_heads": 12,
    ...         "kv_heads": 12, "head_dim": 64, "ffn_size": 3072, "params_billion": 0.124439808}
    >>> compute(gpt2)["lora_params"]
    294912

    Qwen1.5-MoE-A2.7B with r = 16 on "all-linear" under transformers 5, whose stacked experts PEFT skips
    (expert_weights 2): PEFT 0.21.2 with transformers 5.24.0 prints 15,925,632 trainable parameters:

    >>> qwen = {**llama3, "layers": 24, "hidden_size": 2048, "attention_heads": 16, "kv_heads": 16,
    ...         "ffn_size": 5632, "experts": 60, "expert_ffn_size": 1408, "shared_experts": 1,
    ...         "shared_expert_ffn_size": 5632, "shared_expert_gate": 1, "params_billion": 14.315784192}
    >>> int(compute({**qwen, "expert_weights": 2})["lora_params"])
    15925632
    """
    rank = values["rank"]
    hidden = values["hidden_size"]
    query_width = values["attention_heads"] * values["head_dim"]
    kv_width = values["kv_heads"] * values["head_dim"]
    targets = values["target_modules"]
    layout = values.get("module_layout", _SEPARATE)
    layers = values["layers"]
    # r·(d_in + d_out) for each adapted matrix.
    if layout in (_SEPARATE, _PHI):
        # q maps hidden → query heads, k and v hidden → key-value heads (smaller under grouped-query
        # attention), o maps the query heads back to hidden.
        attention = (hidden + query_width) + (hidden + kv_width)
        if targets >= _ATTENTION:
            attention += (hidden + kv_width) + (query_width + hidden)
    else:
        # One fused matrix computes q, k and v (GPT-2's c_attn, Phi-3's qkv_proj): PEFT adapts it whole.
        attention = hidden + query_width + 2 * kv_width
        if targets >= _ATTENTION:
            attention += query_width + hidden
    lora_params = rank * attention * layers
    if targets >= _ALL_LINEAR:
        lora_params += rank * _mlp_matrices(values, layout)
    base_params = values["params_billion"] * 1e9
    unit = values["memory_unit"]
    base_memory = base_params * values["base_bytes_per_param"] / unit
    adapter_memory = lora_params * values["adapter_bytes_per_param"] / unit
    activations = 0.0
    if values.get("activation_source", _LEFT_OUT) == _COMPUTED:
        # The planner's shapes: Phi-3's fused modules are a Llama-style block.
        architecture = GPT2 if layout == _GPT2 else PHI if layout == _PHI else LLAMA
        activations = memory.activation_memory({**values, "architecture": architecture, "method": memory.LORA}) / unit
    return {
        "lora_params": lora_params,
        # The same in every layer, except where leading dense layers sit before the expert layers (an average then).
        "lora_params_per_layer": lora_params / layers,
        # PEFT divides by all parameters, the adapters included.
        "trainable_percent": 100 * lora_params / (base_params + lora_params),
        "base_weights_memory": base_memory,
        "adapter_memory": adapter_memory,
        "training_memory": base_memory + adapter_memory,
        "activations_memory": activations,
        "peak_training_memory": base_memory + adapter_memory + activations,
    }


def _mlp_matrices(values: Mapping[str, float], layout: float) -> float:
    """Return Σ (d_in + d_out) over every MLP matrix of the model: dense MLPs, experts and routers."""
    hidden = values["hidden_size"]

    def mlp(width: float) -> float:
        if layout in (_GPT2, _PHI):
            return (hidden + width) + (width + hidden)  # c_fc (fc1) hidden → width, c_proj (fc2) width → hidden
        if layout == _PHI3:
            return (hidden + 2 * width) + (width + hidden)  # gate_up_proj hidden → 2 × width, down_proj
        return 3 * (hidden + width)  # gate and up hidden → width, down width → hidden

    layers = values["layers"]
    experts = values.get("experts", 0.0)
    if experts <= 0:
        return layers * mlp(values["ffn_size"])
    moe_layers = layers - min(values.get("dense_layers", 0.0), layers)
    expert_width = values.get("expert_ffn_size", 0.0) or values["ffn_size"]
    shared = values.get("shared_experts", 0.0)
    shared_width = shared * (values.get("shared_expert_ffn_size", 0.0) or expert_width)
    # Qwen2-MoE's shared_expert_gate, Linear(hidden, 1), keeps its adapter under every choice: its name is its own.
    shared_gate = (hidden + 1) if shared > 0 and values.get("shared_expert_gate", 0.0) else 0.0
    # Shared experts are one MLP of shared × their width, as DeepSeek and Qwen2-MoE build them.
    shared_mlp = mlp(shared_width) if shared > 0 else 0.0
    dense_mlp = mlp(values["ffn_size"])
    weights = values.get("expert_weights", _EXPERT_MODULES)
    if weights == _SKIPPED_EXPERTS:
        # transformers 5 without PEFT's conversion: the stacked experts and the router's parameter are no nn.Linear,
        # so "all-linear" adapts only the shared expert, its gate and the dense layers' MLPs.
        return (layers - moe_layers) * dense_mlp + moe_layers * (shared_mlp + shared_gate)
    router = hidden + experts  # the router's hidden → experts matrix, a Linear in 4.x, gate.weight in 5.x
    if weights == _FUSED_EXPERTS and layout in (_SEPARATE, _PHI3):
        # transformers 5 stacks each expert's gate and up projections into one gate_up_proj (hidden → 2 × width) and
        # PEFT adapts it at twice the rank, then down_proj (width → hidden) at the rank. The names gate_proj, up_proj
        # and down_proj move from target_modules to target_parameters, which match no nn.Linear weight, so the
        # shared experts and the dense layers, built of nn.Linear modules of those names, get no adapters.
        expert = 2 * (hidden + 2 * expert_width) + (expert_width + hidden)
        return moe_layers * (experts * expert + router + shared_gate)
    # transformers 4: every expert has its own adapters, and so has the router.
    moe = experts * mlp(expert_width) + router + shared_mlp + shared_gate
    return (layers - moe_layers) * dense_mlp + moe_layers * moe


CALCULATOR = Calculator(
    title=N_("LoRA parameters and memory"),
    summary=N_(
        "Count the trainable parameters a LoRA adapter adds to a transformer for a given rank and set of "
        "target layers, their share of the model, and the GPU memory for the frozen weights and the "
        "adapter's training state.",
    ),
    inputs=(
        InputSpec(
            name="target_modules",
            kind=Kind.CHOICE,
            group=_ADAPTER,
            label=N_("Target layers"),
            help=N_(
                "Which linear layers of every transformer block get an adapter. The LoRA paper adapted the "
                "query and value projections; QLoRA and many recipes adapt all linear layers "
                '(target_modules="all-linear" in PEFT: every linear layer but the output head, experts and '
                "routers included).",
            ),
            default="all",
            choices=(
                Choice("qv", N_("Query and value (q_proj, v_proj)"), number=str(_Q_V)),
                Choice(
                    "qkvo",
                    N_("All attention projections (q, k, v, o)"),
                    number=str(_ATTENTION),
                ),
                Choice(
                    "all",
                    N_("All linear layers (q, k, v, o, gate, up, down)"),
                    number=str(_ALL_LINEAR),
                ),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="rank",
            kind=Kind.INTEGER,
            group=_ADAPTER,
            label=N_("Rank r"),
            help=N_(
                "The inner dimension of the low-rank update, r in LoraConfig. Common values are 8, 16 and 64; "
                "the parameter count grows in proportion to it.",
            ),
            default="16",
            minimum=Decimal(1),
            maximum=Decimal(100_000),
            fraction_digits=0,
        ),
        InputSpec(
            name="module_layout",
            kind=Kind.CHOICE,
            group=_MODEL,
            label=N_("Module layout"),
            help=N_(
                "How the model's code splits its linear layers, which sets the matrices PEFT adapts. "
                "Llama and most recent models have separate q_proj, k_proj, v_proj and o_proj and a gate_proj, "
                "up_proj and down_proj MLP. GPT-2 computes q, k and v with one c_attn and has a two-matrix MLP "
                "(c_fc, c_proj), as Pythia does; Phi-2 has separate projections and fc1, fc2; Phi-3 fuses "
                "qkv_proj and gate_up_proj. A fused matrix gets one adapter, so choosing query and value adapts "
                "the whole fused projection.",
            ),
            default="llama",
            choices=(
                Choice(
                    "llama",
                    N_("Separate q, k, v and gate, up, down (Llama, Mistral, Qwen, Gemma)"),
                    number=str(_SEPARATE),
                ),
                Choice(
                    "gpt2",
                    N_("Fused q, k, v and a two-matrix MLP (GPT-2 c_attn, Pythia)"),
                    number=str(_GPT2),
                ),
                Choice(
                    "phi",
                    N_("Separate q, k, v and a two-matrix MLP, fc1 and fc2 (Phi-2)"),
                    number=str(_PHI),
                ),
                Choice("phi3", N_("Fused qkv_proj and gate_up_proj (Phi-3)"), number=str(_PHI3)),
            ),
            fraction_digits=0,
            optional=True,
            preset="model.module_layout",
        ),
        replace(inputs.LAYERS, group=_MODEL),
        replace(inputs.HIDDEN_SIZE, group=_MODEL),
        replace(
            inputs.ATTENTION_HEADS,
            group=_MODEL,
            help=N_(
                "Query heads, num_attention_heads in config.json. With the head dimension it sets the output "
                "width of the query projection and the input width of the output projection.",
            ),
        ),
        replace(
            inputs.KV_HEADS,
            group=_MODEL,
            help=N_(
                "num_key_value_heads in config.json. With grouped-query attention the key and value "
                "projections are narrower than the query projection; without it, enter the number of "
                "attention heads.",
            ),
        ),
        replace(inputs.HEAD_DIM, group=_MODEL),
        replace(
            inputs.FFN_SIZE,
            group=_MODEL,
            label=N_("Feed-forward size"),
            help=N_(
                "intermediate_size in config.json (for GPT-2, n_inner or else 4 × the hidden size): the inner "
                "width of the MLP. It only counts when all linear layers are adapted.",
            ),
        ),
        replace(inputs.VOCAB_SIZE, group=_MODEL, default="128256", optional=True),
        replace(
            inputs.PARAMS_BILLION,
            group=_MODEL,
            label=N_("Base model parameters"),
            help=N_(
                "The base model's size in billions of parameters, without adapters. The default is "
                "the exact count of Llama-3-8B.",
            ),
        ),
        replace(
            inputs.EXPERTS,
            default="0",
            optional=True,
            help=N_(
                "Expert MLPs per mixture-of-experts layer: num_local_experts (Mixtral) or num_experts (Qwen3) in "
                "config.json, 0 for a dense model. Adapting all linear layers gives every expert its own "
                "adapters, and the router too, except where transformers 5 stacks experts that PEFT skips (see "
                "Expert weights).",
            ),
        ),
        replace(inputs.EXPERT_FFN_SIZE, default="0", optional=True),
        replace(inputs.SHARED_EXPERTS, optional=True),
        replace(inputs.DENSE_LAYERS, optional=True),
        replace(SHARED_EXPERT_FFN_SIZE, optional=True),
        replace(SHARED_EXPERT_GATE, optional=True),
        InputSpec(
            name="expert_weights",
            kind=Kind.CHOICE,
            group=inputs.MIXTURE_OF_EXPERTS,
            label=N_("Expert weights"),
            help=N_(
                "How transformers stores the experts, which changes what PEFT adapts. In transformers 4 every "
                "expert has its own linear layers (w1, w2 and w3 in Mixtral), each adapted at the rank, and so is "
                "the router. Since transformers 5 each layer's experts are stacked tensors, which all-linear "
                "alone does not adapt. For Mixtral, Qwen3-MoE, DeepSeek, OLMoE and the other model types "
                "transformers converts like them, PEFT 0.20 or later adapts the stacked experts, the fused gate "
                "and up projection at twice the rank, and the router, but no longer the shared experts or the "
                "dense layers. For Qwen1.5-MoE and Qwen2-MoE, and MoE types PEFT does not convert, it adapts no "
                "routed expert and no router.",
            ),
            default="modules",
            choices=(
                Choice(
                    "modules",
                    N_("One linear layer per expert projection (transformers 4)"),
                    number=str(_EXPERT_MODULES),
                ),
                Choice(
                    "fused",
                    N_("Stacked tensors PEFT adapts (transformers 5: Mixtral, Qwen3-MoE, DeepSeek, OLMoE)"),
                    number=str(_FUSED_EXPERTS),
                ),
                Choice(
                    "skipped",
                    N_("Stacked tensors PEFT skips (transformers 5: Qwen1.5-MoE, Qwen2-MoE)"),
                    number=str(_SKIPPED_EXPERTS),
                ),
            ),
            fraction_digits=0,
            advanced=True,
        ),
        InputSpec(
            name="base_bytes_per_param",
            kind=Kind.CHOICE,
            group=_MEMORY,
            label=N_("Base weight precision"),
            help=N_(
                "How the frozen base weights are stored during training: BF16 for plain LoRA, "
                "8-bit or 4-bit (NF4, as in QLoRA) to save memory.",
            ),
            default="2",
            choices=(
                Choice("2", N_("BF16 or FP16 (2 bytes)")),
                Choice("1", N_("8-bit (1 byte)")),
                Choice("0.5", N_("4-bit, QLoRA (0.5 bytes)")),
            ),
            fraction_digits=1,
        ),
        InputSpec(
            name="adapter_bytes_per_param",
            kind=Kind.DECIMAL,
            group=_MEMORY,
            label=N_("Bytes per adapter parameter"),
            help=N_(
                "Training state of each adapter parameter. 16 in mixed precision with Adam: 4 bytes of "
                "FP32 weight, 4 of gradient and 8 for Adam's two moments.",
            ),
            unit=N_("bytes"),
            default="16",
            minimum=Decimal(0),
            maximum=Decimal(64),
            fraction_digits=2,
            advanced=True,
        ),
        replace(inputs.MEMORY_UNIT, group=_MEMORY),
        InputSpec(
            name="activation_source",
            kind=Kind.CHOICE,
            group=_MEMORY,
            label=N_("Activations"),
            help=N_(
                "Left out, as the LoRA papers count memory; or computed from the model's shape, the micro-batch "
                "and the sequence length, as the GPU memory planner counts them: each layer's saved tensors (a "
                "frozen layer keeps as many as a trained one) and the loss's logits.",
            ),
            default="computed",
            choices=(
                Choice("left-out", N_("left out"), number="0"),
                Choice("computed", N_("computed"), number="1"),
            ),
            fraction_digits=0,
            optional=True,
        ),
        *inputs.advanced_groups(
            (inputs.BATCH_SETUP, (replace(inputs.MICRO_BATCH, default="1"), inputs.SEQ_LEN)),
            (inputs.MEMORY_SAVERS, inputs.MEMORY_SAVER_INPUTS),
        ),
    ),
    outputs=(
        OutputSpec(
            name="lora_params",
            label=N_("Trainable parameters"),
            # Translators: {lora_params_per_layer} and {lora_params} are formatted parameter counts,
            # {layers} the number of layers, {rank} the LoRA rank, {target_modules_label} the chosen layers,
            # {module_layout_label} the chosen module layout (such as "Fused qkv_proj and gate_up_proj (Phi-3)").
            sentence=N_(
                "Adapted layers: {target_modules_label}, in the layout {module_layout_label}. With rank {rank}, "
                "each layer trains {lora_params_per_layer} parameters, so {layers} layers train {lora_params}.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="trainable_percent",
            label=N_("Share of all parameters"),
            unit=N_("%"),
            # Translators: {trainable_percent} is a formatted percentage, {lora_params} a parameter count,
            # {params_billion} billions of parameters.
            sentence=N_(
                "Counted as PEFT does, trainable ÷ (base + trainable) = {lora_params} ÷ ({params_billion} × 10⁹ "
                "+ {lora_params}) = {trainable_percent}%.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="training_memory",
            label=N_("Training memory before activations"),
            unit_choice="memory_unit",
            # Translators: {training_memory}, {base_weights_memory} and {adapter_memory} are formatted amounts
            # of memory, {memory_unit_label} their unit (GB or GiB).
            sentence=N_(
                "Frozen weights and adapter training state take {training_memory} {memory_unit_label}: "
                "{base_weights_memory} {memory_unit_label} of base weights plus {adapter_memory} "
                "{memory_unit_label} for the adapters. Activations come on top.",
            ),
        ),
        OutputSpec(
            name="peak_training_memory",
            label=N_("Training memory with activations"),
            unit_choice="memory_unit",
            # Translators: {peak_training_memory} and {activations_memory} are formatted amounts in
            # {memory_unit_label} (GB or GiB); {activation_source_label} is "left out" or how they are computed.
            sentence=N_(
                "With the activations and the loss's logits ({activation_source_label}: {activations_memory} "
                "{memory_unit_label}), training takes {peak_training_memory} {memory_unit_label}.",
            ),
        ),
        OutputSpec(
            name="base_weights_memory",
            label=N_("Base weights"),
            unit_choice="memory_unit",
            # Translators: {params_billion} is billions of parameters, {base_bytes_per_param} bytes per
            # parameter, {base_weights_memory} the product and {memory_unit_label} its unit (GB or GiB).
            sentence=N_(
                "The frozen base model takes {params_billion} × 10⁹ parameters × {base_bytes_per_param} "
                "bytes = {base_weights_memory} {memory_unit_label}. It has no gradients or optimizer state.",
            ),
        ),
        OutputSpec(
            name="adapter_memory",
            label=N_("Adapter training state"),
            unit_choice="memory_unit",
            # Translators: {lora_params} is a parameter count, {adapter_bytes_per_param} bytes per parameter,
            # {adapter_memory} the product and {memory_unit_label} its unit (GB or GiB).
            sentence=N_(
                "Adapter weights, gradients and Adam moments take {lora_params} × {adapter_bytes_per_param} "
                "bytes = {adapter_memory} {memory_unit_label}.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="lora_params_per_layer",
            label=N_("Trainable parameters per layer"),
            # Translators: {lora_params_per_layer} is a formatted parameter count, {rank} the LoRA rank.
            sentence=N_(
                "Each adapted matrix of d_out rows and d_in columns adds r × (d_in + d_out) parameters; "
                "with r = {rank} they add up to {lora_params_per_layer} per layer.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-06",
    formulas=(
        r"|\Theta| = L \cdot \sum_{W} r \left( d_{in} + d_{out} \right)",
        r"p = \frac{|\Theta|}{N + |\Theta|}",
        r"M = N \cdot B_{base} + B_{adapter} \cdot |\Theta|",
    ),
    related=("gpu-memory-planner", "llm-training-vram", "quantized-model-size", "transformer-params"),
    chart=MemoryChart(
        parts=(
            ChartPart("base_weights_memory", N_("Base weights")),
            ChartPart("adapter_memory", N_("Adapter weights, gradients and Adam states")),
            ChartPart("activations_memory", N_("Activations and logits")),
        )
    ),
)
