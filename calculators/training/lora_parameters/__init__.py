"""LoRA parameters: the adapter's trainable parameters, their share of the model, and training memory.

Formula (Hu et al., "LoRA: Low-Rank Adaptation of Large Language Models", arXiv:2106.09685, §4.1
and §5.1): a frozen matrix W of shape d_out × d_in gets the update B·A with A of shape r × d_in and
B of shape d_out × r, so r·(d_in + d_out) trainable parameters per adapted matrix, times the
layers. The paper's square case is |Θ| = 2 · L̂ · d_model · r. With grouped-query attention the
key and value projections output n_kv · d_head, not d_model. The share follows Hugging Face PEFT's
`print_trainable_parameters` (https://huggingface.co/docs/peft/quicktour): trainable ÷ all, where
"all" counts the adapters too.

Training memory: the frozen base weights at their storage precision (2 bytes for BF16, 1 for 8-bit,
0.5 for 4-bit as in QLoRA) plus, per adapter parameter, 16 bytes for weights, gradients and Adam's
two moments in mixed precision. Activations are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.core import inputs
from calculators.core.spec import N_, Calculator, ChartPart, Choice, InputSpec, Kind, MemoryChart, OutputSpec

SLUG = "lora-parameters"
_MODEL = inputs.MODEL
_ADAPTER = N_("lora-parameters", "Adapter")
_MEMORY = N_("lora-parameters", "Training memory")

# The target choices carry the number of adapted matrices per layer.
_Q_V = 2
_ATTENTION = 4
_ALL_LINEAR = 7


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
    """
    rank = values["rank"]
    hidden = values["hidden_size"]
    query_width = values["attention_heads"] * values["head_dim"]
    kv_width = values["kv_heads"] * values["head_dim"]
    targets = values["target_modules"]
    # r·(d_in + d_out) for each adapted matrix: q maps hidden → query heads, k and v hidden → key-value
    # heads (smaller under grouped-query attention), o maps the query heads back to hidden.
    per_layer = rank * ((hidden + query_width) + (hidden + kv_width))
    if targets >= _ATTENTION:
        per_layer += rank * ((hidden + kv_width) + (query_width + hidden))
    if targets >= _ALL_LINEAR:
        # gate and up map hidden → FFN, down maps FFN → hidden: three matrices of the same size.
        per_layer += 3 * rank * (hidden + values["ffn_size"])
    lora_params = per_layer * values["layers"]
    base_params = values["params_billion"] * 1e9
    unit = values["memory_unit"]
    base_memory = base_params * values["base_bytes_per_param"] / unit
    adapter_memory = lora_params * values["adapter_bytes_per_param"] / unit
    return {
        "lora_params": lora_params,
        "lora_params_per_layer": per_layer,
        # PEFT divides by all parameters, the adapters included.
        "trainable_percent": 100 * lora_params / (base_params + lora_params),
        "base_weights_memory": base_memory,
        "adapter_memory": adapter_memory,
        "training_memory": base_memory + adapter_memory,
    }


CALCULATOR = Calculator(
    slug=SLUG,
    category="training",
    title=N_("lora-parameters", "LoRA parameters and memory"),
    summary=N_(
        "lora-parameters",
        "Count the trainable parameters a LoRA adapter adds to a transformer for a given rank and set of "
        "target layers, their share of the model, and the GPU memory for the frozen weights and the "
        "adapter's training state.",
    ),
    inputs=(
        InputSpec(
            name="target_modules",
            kind=Kind.CHOICE,
            group=_ADAPTER,
            label=N_("lora-parameters", "Target layers"),
            help=N_(
                "lora-parameters",
                "Which linear layers of every transformer block get an adapter. The LoRA paper adapted the "
                "query and value projections; QLoRA and many recipes adapt all linear layers "
                '(target_modules="all-linear" in PEFT).',
            ),
            default="all",
            choices=(
                Choice("qv", N_("lora-parameters", "Query and value (q_proj, v_proj)"), number=str(_Q_V)),
                Choice(
                    "qkvo",
                    N_("lora-parameters", "All attention projections (q, k, v, o)"),
                    number=str(_ATTENTION),
                ),
                Choice(
                    "all",
                    N_("lora-parameters", "All linear layers (q, k, v, o, gate, up, down)"),
                    number=str(_ALL_LINEAR),
                ),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="rank",
            kind=Kind.INTEGER,
            group=_ADAPTER,
            label=N_("lora-parameters", "Rank r"),
            help=N_(
                "lora-parameters",
                "The inner dimension of the low-rank update, r in LoraConfig. Common values are 8, 16 and 64; "
                "the parameter count grows in proportion to it.",
            ),
            default="16",
            minimum=Decimal(1),
            maximum=Decimal(100_000),
            fraction_digits=0,
        ),
        replace(inputs.LAYERS, group=_MODEL),
        replace(inputs.HIDDEN_SIZE, group=_MODEL),
        replace(
            inputs.ATTENTION_HEADS,
            group=_MODEL,
            help=N_(
                "lora-parameters",
                "Query heads, num_attention_heads in config.json. With the head dimension it sets the output "
                "width of the query projection and the input width of the output projection.",
            ),
        ),
        replace(
            inputs.KV_HEADS,
            group=_MODEL,
            help=N_(
                "lora-parameters",
                "num_key_value_heads in config.json. With grouped-query attention the key and value "
                "projections are narrower than the query projection; without it, enter the number of "
                "attention heads.",
            ),
        ),
        replace(inputs.HEAD_DIM, group=_MODEL),
        replace(
            inputs.FFN_SIZE,
            group=_MODEL,
            label=N_("lora-parameters", "Feed-forward size"),
            help=N_(
                "lora-parameters",
                "intermediate_size in config.json: the width of the gate and up projections. "
                "It only counts when all linear layers are adapted.",
            ),
        ),
        replace(
            inputs.PARAMS_BILLION,
            group=_MODEL,
            label=N_("lora-parameters", "Base model parameters"),
            help=N_(
                "lora-parameters",
                "The base model's size in billions of parameters, without adapters. The default is "
                "the exact count of Llama-3-8B.",
            ),
        ),
        InputSpec(
            name="base_bytes_per_param",
            kind=Kind.CHOICE,
            group=_MEMORY,
            label=N_("lora-parameters", "Base weight precision"),
            help=N_(
                "lora-parameters",
                "How the frozen base weights are stored during training: BF16 for plain LoRA, "
                "8-bit or 4-bit (NF4, as in QLoRA) to save memory.",
            ),
            default="2",
            choices=(
                Choice("2", N_("lora-parameters", "BF16 or FP16 (2 bytes)")),
                Choice("1", N_("lora-parameters", "8-bit (1 byte)")),
                Choice("0.5", N_("lora-parameters", "4-bit, QLoRA (0.5 bytes)")),
            ),
            fraction_digits=1,
        ),
        InputSpec(
            name="adapter_bytes_per_param",
            kind=Kind.DECIMAL,
            group=_MEMORY,
            label=N_("lora-parameters", "Bytes per adapter parameter"),
            help=N_(
                "lora-parameters",
                "Training state of each adapter parameter. 16 in mixed precision with Adam: 4 bytes of "
                "FP32 weight, 4 of gradient and 8 for Adam's two moments.",
            ),
            unit=N_("lora-parameters", "bytes"),
            default="16",
            minimum=Decimal(0),
            maximum=Decimal(64),
            fraction_digits=2,
            advanced=True,
        ),
        replace(inputs.MEMORY_UNIT, group=_MEMORY),
    ),
    outputs=(
        OutputSpec(
            name="lora_params",
            label=N_("lora-parameters", "Trainable parameters"),
            # Translators: {lora_params_per_layer} and {lora_params} are formatted parameter counts,
            # {layers} the number of layers, {rank} the LoRA rank, {target_modules_label} the chosen layers.
            sentence=N_(
                "lora-parameters",
                "Adapted layers: {target_modules_label}. With rank {rank}, each layer trains "
                "{lora_params_per_layer} parameters, so {layers} layers train {lora_params}.",
            ),
            fraction_digits=0,
        ),
        OutputSpec(
            name="trainable_percent",
            label=N_("lora-parameters", "Share of all parameters"),
            unit=N_("lora-parameters", "%"),
            # Translators: {trainable_percent} is a formatted percentage, {lora_params} a parameter count,
            # {params_billion} billions of parameters.
            sentence=N_(
                "lora-parameters",
                "Counted as PEFT does, trainable ÷ (base + trainable) = {lora_params} ÷ ({params_billion} × 10⁹ "
                "+ {lora_params}) = {trainable_percent}%.",
            ),
            fraction_digits=4,
        ),
        OutputSpec(
            name="training_memory",
            label=N_("lora-parameters", "Training memory before activations"),
            unit_choice="memory_unit",
            # Translators: {training_memory}, {base_weights_memory} and {adapter_memory} are formatted amounts
            # of memory, {memory_unit_label} their unit (GB or GiB).
            sentence=N_(
                "lora-parameters",
                "Frozen weights and adapter training state take {training_memory} {memory_unit_label}: "
                "{base_weights_memory} {memory_unit_label} of base weights plus {adapter_memory} "
                "{memory_unit_label} for the adapters. Activations come on top.",
            ),
        ),
        OutputSpec(
            name="base_weights_memory",
            label=N_("lora-parameters", "Base weights"),
            unit_choice="memory_unit",
            # Translators: {params_billion} is billions of parameters, {base_bytes_per_param} bytes per
            # parameter, {base_weights_memory} the product and {memory_unit_label} its unit (GB or GiB).
            sentence=N_(
                "lora-parameters",
                "The frozen base model takes {params_billion} × 10⁹ parameters × {base_bytes_per_param} "
                "bytes = {base_weights_memory} {memory_unit_label}. It has no gradients or optimizer state.",
            ),
        ),
        OutputSpec(
            name="adapter_memory",
            label=N_("lora-parameters", "Adapter training state"),
            unit_choice="memory_unit",
            # Translators: {lora_params} is a parameter count, {adapter_bytes_per_param} bytes per parameter,
            # {adapter_memory} the product and {memory_unit_label} its unit (GB or GiB).
            sentence=N_(
                "lora-parameters",
                "Adapter weights, gradients and Adam moments take {lora_params} × {adapter_bytes_per_param} "
                "bytes = {adapter_memory} {memory_unit_label}.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="lora_params_per_layer",
            label=N_("lora-parameters", "Trainable parameters per layer"),
            # Translators: {lora_params_per_layer} is a formatted parameter count, {rank} the LoRA rank.
            sentence=N_(
                "lora-parameters",
                "Each adapted matrix of d_out rows and d_in columns adds r × (d_in + d_out) parameters; "
                "with r = {rank} they add up to {lora_params_per_layer} per layer.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-11-30",
    formulas=(
        r"|\Theta| = L \cdot \sum_{W} r \left( d_{in} + d_{out} \right)",
        r"p = \frac{|\Theta|}{N + |\Theta|}",
        r"M = N \cdot B_{base} + B_{adapter} \cdot |\Theta|",
    ),
    related=("llm-training-vram", "quantized-model-size", "transformer-params"),
    chart=MemoryChart(
        parts=(
            ChartPart("base_weights_memory", N_("lora-parameters", "Base weights")),
            ChartPart("adapter_memory", N_("lora-parameters", "Adapter weights, gradients and Adam states")),
        )
    ),
)
