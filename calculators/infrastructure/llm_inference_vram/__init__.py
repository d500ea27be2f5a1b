"""LLM inference VRAM: the weights, the KV cache and an overhead allowance for serving a model.

Weights take parameters × bits ÷ 8 bytes. The KV cache takes 2 · L · n_kv · d_head · s · b bytes per
element (Kwon et al., vLLM, arXiv:2309.06180, §3), where a layer with a sliding window keeps at most
the window's tokens of s (Mistral 7B's rolling buffer cache, arXiv:2310.06825, §2; `inputs.cached_tokens`).
The overhead follows the rule of thumb from
EleutherAI's "Transformer Math 101" (https://blog.eleuther.ai/transformer-math/), quoted by Hugging
Face Accelerate ("When performing inference you can expect to add up to an additional 20%",
https://huggingface.co/docs/accelerate/usage_guides/model_size_estimator) and written by Sam
Stoelinga as M = P · 4 B ÷ (32 / Q) · 1.2: 20% on top of the weights.

The overhead is counted by default (issue 29: held to Qwen's speed benchmarks, the 20% came out 16% off at the
median, from 44% low to 20% high, the count 2%): `memory.serving_overhead`, the working memory of reading the
prompt (the MLP's intermediates of every token and four copies of its hidden states, (3f + 4h) × 2 bytes), the
embeddings and head a quantized checkpoint keeps in 16 bits with the 16-bit copy of the layer being run, and the
CUDA context. The rule of thumb stays one choice away: the 20% applies to the weights by default, as in those
sources, and the KV cache, which they leave out, is added at its exact size; the advanced options change the
percentage or apply it to the cache too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, ChartPart, Choice, InputSpec, Kind, MemoryChart, OutputSpec, messages_of
from calculators.vocabulary import attention, inputs, memory

N_, NP_ = messages_of(__name__)

_RULE_OF_THUMB, _COUNTED = 0.0, 1.0

_MODEL = inputs.MODEL
_WORKLOAD = inputs.WORKLOAD
_OVERHEAD = N_("Overhead")


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the weights, KV cache, overhead and total, in the chosen unit.

    Stoelinga's example: a 70B model loaded in 16 bits needs 70 × 4 ÷ (32 ÷ 16) × 1.2 = 168 GB
    (no context, so no KV cache):

    >>> llama70 = {"params_billion": 70, "bits_per_weight": 16, "layers": 80, "kv_heads": 8, "head_dim": 128,
    ...            "context_tokens": 0, "batch_size": 1, "bytes_per_element": 2, "overhead_percent": 20,
    ...            "overhead_applies_to": 0, "memory_unit": 1e9}
    >>> round(compute(llama70)["total_memory"], 6)
    168.0

    Llama-3.1-8B in BF16 with 8,192 tokens of context: 16.06 GB of weights, 1.07 GB of cache, 3.21 GB
    of overhead:

    >>> llama8 = {**llama70, "params_billion": 8.030261248, "layers": 32, "context_tokens": 8192}
    >>> {name: round(value, 2) for name, value in compute(llama8).items() if name.endswith("memory")}
    {'weights_memory': 16.06, 'kv_cache_memory': 1.07, 'overhead_memory': 3.21, 'total_memory': 20.35, \
'state_memory': 0.0}
    """
    unit = values["memory_unit"]
    weights = values["params_billion"] * 1e9 * values["bits_per_weight"] / 8
    cache = attention.cache_of(values)
    state = cache.state * values["batch_size"]
    kv_cache = cache.keys_values * values["batch_size"] + state
    if values.get("overhead_model", _RULE_OF_THUMB) == _COUNTED:
        overhead = memory.serving_overhead(values, values["context_tokens"])
    else:
        # 0: the rule of thumb's base, the weights alone; 1: weights and KV cache.
        base = weights + kv_cache if values["overhead_applies_to"] else weights
        overhead = base * values["overhead_percent"] / 100
    return {
        "weights_memory": weights / unit,
        "kv_cache_memory": kv_cache / unit,
        "overhead_memory": overhead / unit,
        "total_memory": (weights + kv_cache + overhead) / unit,
        "cached_tokens": cache.cached_tokens,
        "state_memory": state / unit,  # internal: the KV cache's sentence names it
    }


CALCULATOR = Calculator(
    title=N_("LLM inference VRAM"),
    summary=N_(
        "Estimate the GPU memory needed to serve a large language model: its weights at the chosen "
        "precision, the KV cache for your context length and batch, and an overhead allowance.",
    ),
    inputs=(
        replace(
            inputs.PARAMS_BILLION,
            group=_MODEL,
            help=N_(
                "The model's size in billions of parameters. For a mixture-of-experts model count all "
                "experts: they all stay in memory. The default is Llama-3.1-8B's exact count.",
            ),
        ),
        replace(inputs.BITS_PER_WEIGHT, group=_MODEL, default="16"),
        replace(inputs.LAYERS, group=_MODEL),
        replace(
            inputs.KV_HEADS,
            group=_MODEL,
            help=N_(
                "num_key_value_heads in config.json: what the cache stores. With grouped-query attention it "
                "is smaller than the number of query heads.",
            ),
        ),
        replace(inputs.HEAD_DIM, group=_MODEL),
        *(
            replace(spec, group=_MODEL, optional=True)
            for spec in (
                inputs.HIDDEN_SIZE,
                inputs.FFN_SIZE,
                replace(inputs.VOCAB_SIZE, default="128256"),
                inputs.TIED_EMBEDDINGS,
            )
        ),
        *attention.CACHE_INPUTS,
        replace(
            inputs.CONTEXT_TOKENS,
            group=_WORKLOAD,
            help=N_(
                "Prompt plus generated tokens held for each sequence. Enter 0 to see the weights and the "
                "rule of thumb alone.",
            ),
            minimum=Decimal(0),
        ),
        replace(inputs.BATCH_SIZE, group=_WORKLOAD),
        replace(inputs.BYTES_PER_ELEMENT, group=_WORKLOAD, label=N_("KV cache precision")),
        replace(
            inputs.MEMORY_UNIT,
            group=_WORKLOAD,
            help=N_(
                "GB are 10⁹ bytes; GiB are 2³⁰ bytes, the binary unit PyTorch reports "
                "(nvidia-smi shows MiB, also binary).",
            ),
        ),
        inputs.choice_input(
            "overhead_model",
            _OVERHEAD,
            N_("Overhead from"),
            N_(
                "Counted: the working memory of reading the prompt (the MLP's intermediates of every token), the "
                "embeddings and output head a quantized checkpoint keeps in 16 bits, and the CUDA context, as "
                "the GPU memory planner counts them. Or the rule of thumb: a percentage of the weights.",
            ),
            "counted",
            (
                Choice("counted", N_("counted from the model and the prompt"), number="1"),
                Choice("rule-of-thumb", N_("the rule of thumb, a percentage"), number="0"),
            ),
        ),
        replace(inputs.CUDA_CONTEXT, group=_OVERHEAD),
        InputSpec(
            name="overhead_percent",
            kind=Kind.DECIMAL,
            group=_OVERHEAD,
            label=N_("Overhead"),
            help=N_(
                "Allowance for activations, the CUDA context, the engine's buffers and allocator slack. "
                "The rule of thumb from EleutherAI, which Hugging Face Accelerate quotes, is 20%.",
            ),
            unit=N_("%"),
            default="20",
            minimum=Decimal(0),
            maximum=Decimal(1000),
            fraction_digits=2,
            advanced=True,
        ),
        InputSpec(
            name="overhead_applies_to",
            kind=Kind.CHOICE,
            group=_OVERHEAD,
            label=N_("Overhead applies to"),
            help=N_(
                "The rule of thumb multiplies the weights by 1.2. Some calculators multiply the KV cache "
                "as well, which gives a larger total for long contexts and large batches.",
            ),
            default="weights",
            choices=(
                Choice("weights", N_("Weights only"), number="0"),
                Choice("all", N_("Weights and KV cache"), number="1"),
            ),
            fraction_digits=0,
            advanced=True,
        ),
    ),
    outputs=(
        OutputSpec(
            name="total_memory",
            label=N_("Total VRAM"),
            unit_choice="memory_unit",
            # Translators: {total_memory}, {weights_memory}, {kv_cache_memory} and {overhead_memory} are
            # formatted amounts of memory, {memory_unit_label} their unit (GB or GiB).
            sentence=N_(
                "Serving needs about {total_memory} {memory_unit_label}: {weights_memory} {memory_unit_label} "
                "of weights, {kv_cache_memory} {memory_unit_label} of KV cache and {overhead_memory} "
                "{memory_unit_label} of overhead.",
            ),
        ),
        OutputSpec(
            name="weights_memory",
            label=N_("Weights"),
            unit_choice="memory_unit",
            # Translators: {params_billion} is billions of parameters, {bits_per_weight} bits per weight,
            # {weights_memory} the result and {memory_unit_label} its unit (GB or GiB).
            sentence=N_(
                "{params_billion} × 10⁹ parameters × {bits_per_weight} bits ÷ 8 = {weights_memory} "
                "{memory_unit_label} of weights.",
            ),
        ),
        OutputSpec(
            name="kv_cache_memory",
            label=N_("KV cache"),
            unit_choice="memory_unit",
            # Translators: {cached_tokens} is the tokens kept per attention layer, {batch_size} the sequences;
            # {kv_cache_memory} and {state_memory} are formatted amounts in {memory_unit_label} (GB or GiB).
            sentence=N_(
                "Each attention layer keeps {cached_tokens} tokens on average for each of {batch_size} sequences: "
                "the KV cache takes {kv_cache_memory} {memory_unit_label}, with {state_memory} "
                "{memory_unit_label} of fixed-size state for layers without attention.",
            ),
        ),
        OutputSpec(
            name="overhead_memory",
            label=N_("Overhead"),
            unit_choice="memory_unit",
            # Translators: {overhead_memory} is a formatted amount in {memory_unit_label} (GB or GiB);
            # {overhead_model_label} says how it was found ("counted from the model and the prompt", or the rule).
            sentence=N_("The overhead takes {overhead_memory} {memory_unit_label}, {overhead_model_label}."),
        ),
        inputs.CACHED_TOKENS,
    ),
    compute=compute,
    rules=(attention.LAYER_SHARES_RULE,),
    updated="2026-12-06",
    formulas=(
        r"W = \frac{P \cdot Q}{8}",
        r"C = 2 \cdot L \cdot n_{kv} \cdot d_{head} \cdot s_{kept} \cdot b \cdot p",
        r"M = W + C + 0.2 \cdot W",
        r"s_{kept} = (1 - f) \cdot s + f \cdot \min(s, W_{window})",
        r"O = 2 \cdot b \cdot s \cdot (3 f + 4 h) + E \cdot \frac{16 - Q}{8} + C_{CUDA}",
    ),
    related=("gpu-memory-planner", "kv-cache-size", "quantized-model-size", "gpu-count", "model-download-time"),
    chart=MemoryChart(
        parts=(
            ChartPart("weights_memory", N_("Weights")),
            ChartPart("kv_cache_memory", N_("KV cache")),
            ChartPart("overhead_memory", N_("Overhead")),
        )
    ),
)
