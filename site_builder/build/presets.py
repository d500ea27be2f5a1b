"""Model, GPU and price presets: the data files in `data/`, read and checked against their schema.

A preset fills a calculator's inputs with published facts: a model's architecture from its
`config.json`, a GPU's memory, bandwidth and dense BF16 peak from its datasheet, a list price
from the vendor's pricing page on the date it was read. The schema
is the dataclasses below: every key required, no key unknown, every value of its type and
range. A file that breaks it stops the build with the file, the line and key, and the cause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from calculators.kernel.evaluation import evaluate
from calculators.kernel.spec import Calculator
from calculators.report import price_facts
from calculators.vocabulary.architecture import GPT2, LLAMA, count_parameters
from calculators.vocabulary.model_config import fill_values
from site_builder import folders

from .errors import TomlFile, read_toml

__all__ = [
    "DATA",
    "LLM_OPTIONAL",
    "LONG_CONTEXT",
    "PRICE_KINDS",
    "STALE_AFTER_DAYS",
    "GpuPreset",
    "ModelPreset",
    "Presets",
    "PricePreset",
    "preset_values",
    "read_presets",
    "stale_prices",
    "uses_presets",
]

DATA = folders.DATA


@dataclass(frozen=True)
class ModelPreset:
    """One open model's architecture as its config.json states it, and its published parameter count."""

    id: str
    name: str
    config_url: str
    params: int
    params_source: str
    params_exact: bool
    architecture: str
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    ffn_size: int
    vocab_size: int
    tied_embeddings: bool
    context_tokens: int
    attention_bias: bool
    positions: int
    experts: int
    experts_per_token: int
    expert_ffn_size: int
    shared_experts: int
    dense_layers: int
    active_params: int = 0
    active_params_source: str = ""
    active_params_exact: bool = False
    active_params_printed: str = ""
    params_printed: str = ""
    q_lora_rank: int = 0
    kv_lora_rank: int = 0
    qk_nope_head_dim: int = 0
    qk_rope_head_dim: int = 0
    v_head_dim: int = 0
    router_bias: bool = False
    extra_layer_params: int = 0
    module_layout: str = ""
    shared_expert_ffn_size: int = 0
    shared_expert_gate: bool = False
    sliding_window: int = 0
    windowed_layers: int = 0
    notes: str = ""

    def facts(self) -> dict[str, float]:
        """Return this model's value of every `MODEL_FACTS` key."""
        facts = {f"model.{name}": value for name, value in self.architecture_facts().items()}
        facts["model.context_tokens"] = float(self.context_tokens)
        # The linear modules a block has (what LoRA adapts); by default its architecture's.
        facts["model.module_layout"] = _MODULE_LAYOUTS[self.module_layout or self.architecture]
        facts["model.sliding_window"] = float(self.sliding_window)
        windowed = self.windowed_layers if self.sliding_window else self.layers
        facts["model.sliding_window_share"] = 100 * windowed / self.layers
        # Every layer of every model in the menu has attention: none keeps a fixed-size state instead.
        state = ("state_layers_share", "cacheless_layers_share", "state_beside_attention", "state_conv_channels",
                 "state_conv_width", "recurrent_state", "state_precision")  # fmt: skip
        facts.update({f"model.{name}": 0.0 for name in state})
        # The exact count the formula gives from these facts (a test holds it to the published one).
        count = count_parameters(self.architecture_facts())
        facts["model.params_billion"] = count.total / 1e9
        facts["model.active_params_billion"] = count.active / 1e9
        return facts

    def architecture_facts(self) -> dict[str, float]:
        """Return the inputs of the parameter count (`calculators.infrastructure.transformer_params`)."""
        names = (
            "layers hidden_size attention_heads kv_heads head_dim ffn_size vocab_size positions experts "
            "experts_per_token expert_ffn_size shared_experts dense_layers q_lora_rank kv_lora_rank "
            "qk_nope_head_dim qk_rope_head_dim v_head_dim extra_layer_params shared_expert_ffn_size"
        ).split()
        facts: dict[str, float] = {name: float(getattr(self, name)) for name in names}
        facts["architecture"] = GPT2 if self.architecture == "gpt2" else LLAMA
        facts["tied_embeddings"] = float(self.tied_embeddings)
        facts["attention_bias"] = float(self.attention_bias)
        facts["router_bias"] = float(self.router_bias)
        facts["shared_expert_gate"] = float(self.shared_expert_gate)
        return facts


@dataclass(frozen=True)
class GpuPreset:
    """One accelerator's datasheet figures, and the memory frameworks were measured to see on it."""

    id: str
    name: str
    memory_gb: float
    source: str
    announced: date
    """The day the vendor announced the product with these figures: how old they are."""
    bandwidth_gb_s: float = 0.0
    """Peak memory bandwidth; 0 where the vendor publishes none (AWS's A10G), and pages that need it do not offer
    the GPU."""
    bf16_tflops: float = 0.0
    """The dense BF16 peak; 0 where the vendor publishes none (Apple), and pages that need one do not offer the
    GPU."""
    fp8_tflops: float = 0.0
    """The dense FP8 peak; 0 where the vendor publishes none (no FP8 before Hopper and Ada), and FP8 matrix products
    run at the BF16 peak, as vLLM runs FP8 weights there."""
    usable_gib: float = 0.0
    """What the framework reports as the device's total (nvidia-smi, Metal's recommendedMaxWorkingSetSize), as a
    published reading gives it; 0 where none was found, and the label is read as it is."""
    usable_source: str = ""
    """Where that reading was published."""
    notes: str = ""

    def facts(self) -> dict[str, float]:
        """Return this GPU's value of each `GPU_FACTS` key, 0 for a figure its vendor does not publish."""
        return {
            "gpu.memory_gb": float(self.memory_gb),
            "gpu.bandwidth_gb_s": float(self.bandwidth_gb_s),
            "gpu.bf16_tflops": float(self.bf16_tflops),
            "gpu.usable_gib": float(self.usable_gib),
            "gpu.fp8_tflops": float(self.fp8_tflops),
        }


PRICE_KINDS: Mapping[str, tuple[str, ...]] = {
    "llm": ("input_per_m", "cached_input_per_m", "cache_write_per_m", "output_per_m", "batch_discount"),
    "embedding": ("embedding_per_m", "batch_discount"),
    "speech": ("per_million_characters",),
    "transcription": ("per_minute",),
    "image": ("per_image",),
    "gpu_hour": ("gpu_hour",),
}
"""The prices each kind of entry states (`spec.PRICE_FACTS` without "price."), all of them: a kind's menu fills
every one, so no value is left over from the entry chosen before."""
LONG_CONTEXT = (
    "long_context_above",
    "long_context_input_per_m",
    "long_context_cached_input_per_m",
    "long_context_cache_write_per_m",
    "long_context_output_per_m",
)
"""A language model's long-context tier, stated only where the vendor has one: its threshold in input tokens per
request and the prices of a request above it. An entry without one fills 0 (no tier)."""
LLM_OPTIONAL = ("cache_write_1h_per_m", "flex_percent", "priority_percent", "web_search_per_k")
"""A language model's prices stated only where the vendor has them: a one-hour cache write, flex and priority
service tiers, a web search tool's fee."""


@dataclass(frozen=True)
class PricePreset:
    """One list price as the vendor's pricing page printed it on `read_on`, in US dollars.

    Token prices are per million tokens; `batch_discount` is the percentage the vendor's batch API takes off
    input and output; `gpu` names the gpus.toml entry a GPU-hour price is for.
    """

    id: str
    name: str
    kind: str
    source: str
    read_on: date
    input_per_m: float = 0
    cached_input_per_m: float = 0
    cache_write_per_m: float = 0
    output_per_m: float = 0
    batch_discount: int = 0
    embedding_per_m: float = 0
    per_million_characters: float = 0
    per_minute: float = 0
    per_image: float = 0
    gpu_hour: float = 0
    long_context_above: int = 0
    long_context_input_per_m: float = 0
    long_context_cached_input_per_m: float = 0
    long_context_cache_write_per_m: float = 0
    long_context_output_per_m: float = 0
    gpu: str = ""
    notes: str = ""
    genai_prices: str = ""
    """The same model in pydantic's genai-prices dataset, as "provider:model": tests/test_price_dataset.py holds this
    entry's prices to the dataset's, where it has the model."""
    cache_write_1h_per_m: float = 0
    """A language model's one-hour cache write per million tokens, where the vendor sells one (0: none)."""
    context_tokens: int = 0
    """A language model's context window in tokens, where known (0: not stated)."""
    flex_percent: float = 0
    """What a language model's flex service tier (slower, may wait for capacity) charges, in percent of its standard
    prices, every token price alike (0: no such tier)."""
    priority_percent: float = 0
    """What its priority service tier charges, in percent of its standard prices (0: no such tier)."""
    web_search_per_k: float = 0
    """What its built-in web search tool charges per 1,000 searches, beside the tokens (0: none stated)."""
    dataset: str = ""
    """Where the prices were taken from the vendor's page by others: the dataset and its release."""

    def entry(self) -> dict[str, object]:
        """Return this price as the site's feed publishes it (`feed.price_feed`, described by its schema)."""
        entry: dict[str, object] = {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "currency": "USD",
            "prices": {name: getattr(self, name) for name in PRICE_KINDS[self.kind]}
            | {name: getattr(self, name) for name in LLM_OPTIONAL if getattr(self, name)},
            "source": self.source,
            "read_on": self.read_on.isoformat(),
        }
        if self.kind == "llm" and self.long_context_above:
            entry["long_context"] = {
                "above_input_tokens": self.long_context_above,
                **{name.removeprefix("long_context_"): getattr(self, name) for name in LONG_CONTEXT[1:]},
            }
        optional = {"context_tokens": self.context_tokens, "genai_prices": self.genai_prices,
                    "dataset": self.dataset, "gpu": self.gpu, "notes": self.notes}  # fmt: skip
        return entry | {key: value for key, value in optional.items() if value}

    def facts(self) -> dict[str, float]:
        """Return this entry's value of each `PRICE_FACTS` key it fills, read from its feed entry as the live page
        reads a searched model's (`report.price_facts`): the build's menus and the search fill alike."""
        return price_facts(self.entry())


@dataclass(frozen=True)
class Presets:
    """Every model, GPU and price preset, in the files' order."""

    models: tuple[ModelPreset, ...]
    gpus: tuple[GpuPreset, ...]
    prices: tuple[PricePreset, ...] = ()
    """Our own entries (prices.toml): the menus' first choices and the table under each article."""
    dataset: tuple[PricePreset, ...] = ()
    """The genai-prices models no entry of ours names (prices_dataset.toml): searchable, in the feed and in
    comparisons."""

    @property
    def all_prices(self) -> tuple[PricePreset, ...]:
        """Our own entries, then the dataset's."""
        return self.prices + self.dataset


_ARCHITECTURES = frozenset({"llama", "gpt2"})
_MODULE_LAYOUTS = {"llama": 0.0, "gpt2": 1.0, "phi": 2.0, "phi3": 3.0}
"""`spec.MODEL_FACTS` `module_layout`: separate projections, GPT-2's fused c_attn, Phi-2's fc1/fc2, Phi-3's fusions."""
_OPTIONAL = frozenset(
    field.name
    for field in fields(ModelPreset) + fields(GpuPreset) + fields(PricePreset)
    if field.default is not MISSING
)  # keys with a default may be left out: MoE, latent-attention and per-family details, notes


def read_presets(folder: Path = DATA, calculators: Sequence[Calculator] = (), today: date | None = None) -> Presets:
    """Read `models.toml`, `gpus.toml`, `prices.toml` and `prices_dataset.toml` from `folder`; raise BuildError at
    the file, line and key of any fault: a value of the wrong type, an address that is not one, a price read after
    `today` (a typo that would never go stale), a cached input dearer than input, or a value some calculator's field
    refuses (our own entries; tests/test_price_dataset.py runs the dataset's through every calculator)."""
    today = today or date.today()
    models_file, gpus_file = read_toml(folder / "models.toml"), read_toml(folder / "gpus.toml")
    prices_file, dataset_file = read_toml(folder / "prices.toml"), read_toml(folder / "prices_dataset.toml")
    models = tuple(_checked_model(models_file, index, entry) for index, entry in _entries(models_file, "model"))
    gpus = tuple(_checked_gpu(gpus_file, index, entry, today) for index, entry in _entries(gpus_file, "gpu"))
    gpu_ids = {gpu.id for gpu in gpus}
    prices, dataset = (
        tuple(_checked_price(file, index, entry, gpu_ids, today) for index, entry in _entries(file, "price"))
        for file in (prices_file, dataset_file)
    )
    # An entry of ours replaces the dataset's for the model it names: its own source, or an override.
    named = {price.genai_prices for price in prices}
    kept = [index for index, price in enumerate(dataset) if price.genai_prices not in named]
    tables: tuple[tuple[str, TomlFile, tuple[ModelPreset | GpuPreset | PricePreset, ...]], ...] = (
        ("model", models_file, models),
        ("gpu", gpus_file, gpus),
        ("price", prices_file, prices),
    )
    for table, file, entries in tables:
        for index, preset in enumerate(entries):
            refused = _refused_by(calculators, preset)
            if refused:
                key, calculator, name = refused
                raise file.fault(
                    (table, index, key),
                    f"{type(preset).__name__} {preset.id}: {key} fills {calculator}'s field {name}, which refuses it",
                )
    # The dataset's hundreds of entries are not run through every calculator here, which would double a build's time:
    # tests/test_price_dataset.py does, once.
    for kind, file, ids in (
        ("model", models_file, [m.id for m in models]),
        ("gpu", gpus_file, [g.id for g in gpus]),
        ("price", prices_file, [p.id for p in prices]),
        ("price", dataset_file, [p.id for p in prices] + [dataset[index].id for index in kept]),
    ):
        repeated = next((index for index, i in enumerate(ids) if i in ids[:index]), None)
        if file is dataset_file and repeated is not None:
            repeated = kept[repeated - len(prices)]  # the dataset's own index of the entry whose id is taken
        if repeated is not None:
            duplicates = sorted({i for i in ids if ids.count(i) > 1})
            raise file.fault((kind, repeated, "id"), f"{kind} ids must be unique: {', '.join(duplicates)}")
    return Presets(models=models, gpus=gpus, prices=prices, dataset=tuple(dataset[index] for index in kept))


STALE_AFTER_DAYS = 365


def stale_prices(presets: Presets, today: date) -> tuple[str, ...]:
    """Warnings for the list prices read more than a year before `today`: vendors change them, check again."""
    stale = [price for price in presets.prices if (today - price.read_on).days > STALE_AFTER_DAYS]
    warnings = tuple(
        f"site_builder/data/prices.toml: price {price.id} was read on {price.read_on.isoformat()}, more than a year "
        f"ago; check {price.source} and update it"
        for price in stale
    )
    oldest = min((price.read_on for price in presets.dataset), default=today)
    if (today - oldest).days > STALE_AFTER_DAYS:
        warnings += (
            f"site_builder/data/prices_dataset.toml holds prices for {oldest.isoformat()}, more than a year ago; "
            "update the pinned genai-prices and run scripts/snapshot_prices.py",
        )
    return warnings


def preset_values(calculator: Calculator, preset: ModelPreset | GpuPreset | PricePreset) -> dict[str, str]:
    """Map a preset's facts onto the inputs of `calculator` that take them (input name → form text)."""
    return fill_values(calculator, preset.facts())


def uses_presets(calculator: Calculator, family: str) -> bool:
    """Whether any input of `calculator` takes a fact of `family` ("model" or "gpu")."""
    return any(spec.preset and spec.preset.startswith(family + ".") for spec in calculator.inputs)


def _entries(file: TomlFile, table: str) -> list[tuple[int, Mapping[str, Any]]]:
    """Return the file's [[table]] entries with their index (what its key lines are noted under)."""
    unknown = sorted(set(file.document) - {table})
    if unknown:
        raise file.fault((unknown[0],), f"unknown key {unknown[0]!r}: the file holds [[{table}]] tables only")
    entries = file.document.get(table)
    if not isinstance(entries, list) or not entries or not all(isinstance(entry, dict) for entry in entries):
        raise file.fault((table,), f"expected one or more [[{table}]] tables")
    return list(enumerate(entries))


_LARGEST = 10**15
"""No preset figure comes near 10¹⁵ (DeepSeek-V3 has 6.7 × 10¹¹ parameters); beyond it a figure is a slip."""
_EXPECTED = {
    "bool": "bool",
    "int": "int, a whole number from 0 to 10¹⁵",
    "float": "float, a number above 0 and below 10¹⁵",
    "str": "str",
    "date": "a date, written 2026-12-02 without quotes",
}


def _build(kind: type[Any], file: TomlFile, table: str, index: int, entry: Mapping[str, Any]) -> Any:
    where = f"{kind.__name__} {entry.get('id', 'without an id')}"
    known = {f.name: f for f in fields(kind)}
    unknown = sorted(set(entry) - set(known))
    missing = sorted(name for name in known if name not in entry and name not in _OPTIONAL)
    if unknown or missing:
        problems = [f"unknown key {name!r}" for name in unknown] + [f"missing key {name!r}" for name in missing]
        raise file.fault((table, index, *unknown[:1]), f"{where}: {'; '.join(problems)}")
    for name, value in entry.items():
        expected = str(known[name].type)
        if not _has_type(value, expected):
            raise file.fault((table, index, name), f"{where}: {name} must be {_EXPECTED[expected]}, not {value!r}")
    return kind(**entry)


def _has_type(value: object, expected: str) -> bool:
    if expected == "bool":
        return isinstance(value, bool)
    if expected == "int":
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _LARGEST
    if expected == "float":
        # inf and nan are TOML floats too: `not 0 < nan` holds, and inf is past the bound.
        return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < _LARGEST
    if expected == "date":  # a day: TOML's date-times are dates too in Python, and compare with none
        return isinstance(value, date) and not isinstance(value, datetime)
    return (isinstance(value, str) and bool(value)) or (expected == "str" and value == "")


def _checked_model(file: TomlFile, index: int, entry: Mapping[str, Any]) -> ModelPreset:
    model: ModelPreset = _build(ModelPreset, file, "model", index, entry)
    key, fault = _model_fault(model)
    if fault:
        raise file.fault(("model", index, key), f"ModelPreset {model.id}: {fault}")
    return model


def _checked_gpu(file: TomlFile, index: int, entry: Mapping[str, Any], today: date) -> GpuPreset:
    gpu: GpuPreset = _build(GpuPreset, file, "gpu", index, entry)
    key, fault = _gpu_fault(gpu, today)
    if fault:
        raise file.fault(("gpu", index, key), f"GpuPreset {gpu.id}: {fault}")
    return gpu


def _gpu_fault(gpu: GpuPreset, today: date) -> tuple[str, str]:
    """The key of `gpu` at fault and why, or ("", "")."""
    if not _is_address(gpu.source):
        return "source", "source must be an https address"
    if gpu.announced > today:
        return "announced", f"announced {gpu.announced.isoformat()} is after today, {today.isoformat()}"
    if gpu.usable_gib and not gpu.usable_source:
        return "usable_source", "usable_gib needs usable_source, where the reading was published"
    if gpu.usable_source and not gpu.usable_gib:
        return "usable_gib", "usable_source names a reading but usable_gib states none"
    if gpu.usable_source and not _is_address(gpu.usable_source):
        return "usable_source", "usable_source must be an https address"
    # Vendors print capacity in GiB-sized "GB" (an 80 GB card shows 80 GiB), so a framework never sees more.
    if gpu.usable_gib > gpu.memory_gb:
        return "usable_gib", f"usable_gib {gpu.usable_gib:g} is above memory_gb {gpu.memory_gb:g}"
    return "", ""


def _checked_price(file: TomlFile, index: int, entry: Mapping[str, Any], gpu_ids: set[str], today: date) -> PricePreset:
    price: PricePreset = _build(PricePreset, file, "price", index, entry)
    key, fault = _price_fault(price, gpu_ids, entry)
    if not fault and price.read_on > today:
        key, fault = "read_on", f"read_on {price.read_on.isoformat()} is after today, {today.isoformat()}"
    if fault:
        raise file.fault(("price", index, key), f"PricePreset {price.id}: {fault}")
    return price


def _price_fault(price: PricePreset, gpu_ids: set[str], entry: Mapping[str, Any]) -> tuple[str, str]:
    """Return the key that makes `price` unusable and why, or ("", "") if nothing does."""
    if price.kind not in PRICE_KINDS:
        return "kind", f"kind must be one of {', '.join(PRICE_KINDS)}, not {price.kind!r}"
    if not _is_address(price.source):
        return "source", "source must be the https address of the vendor's pricing page"
    stated = PRICE_KINDS[price.kind]
    missing = [name for name in stated if name not in entry]
    if missing:
        return "kind", f"a {price.kind} price states {', '.join(stated)}; missing {', '.join(missing)}"
    tiers = (*LONG_CONTEXT, *LLM_OPTIONAL) if price.kind == "llm" else ()
    if price.kind != "llm" and price.context_tokens:
        return "context_tokens", "only a language model states context_tokens"
    foreign = [name for name in entry if name in _PRICE_FIELDS and name not in stated + tiers]
    if foreign:
        return foreign[0], f"a {price.kind} price states only {', '.join(stated + tiers)}"
    tier = [name for name in LONG_CONTEXT if name in entry]
    if tier and len(tier) < len(LONG_CONTEXT):
        missing = [name for name in LONG_CONTEXT if name not in entry]
        return tier[0], f"a long-context tier states {', '.join(LONG_CONTEXT)}; missing {', '.join(missing)}"
    if tier and price.long_context_above < 1:
        return "long_context_above", "long_context_above is the tier's threshold in input tokens, above 0"
    if price.long_context_cached_input_per_m > price.long_context_input_per_m:
        return "long_context_cached_input_per_m", "long_context_cached_input_per_m is above long_context_input_per_m"
    if price.batch_discount > 100:
        return "batch_discount", "batch_discount is a percentage, from 0 to 100"
    if price.cached_input_per_m > price.input_per_m:
        return "cached_input_per_m", "cached_input_per_m is above input_per_m: a cache read is a discount on input"
    if price.kind == "gpu_hour" and price.gpu not in gpu_ids:
        return "gpu", f"gpu must name an id of gpus.toml, not {price.gpu!r}"
    return "", ""


_PRICE_FIELDS = frozenset(name for names in (*PRICE_KINDS.values(), LONG_CONTEXT, LLM_OPTIONAL) for name in names)


def _model_fault(model: ModelPreset) -> tuple[str, str]:
    """Return the key that makes `model` impossible and why, or ("", "") if nothing does."""
    sizes = ("layers", "hidden_size", "attention_heads", "kv_heads", "head_dim", "vocab_size", "params")
    if model.architecture not in _ARCHITECTURES:
        return "architecture", "architecture must be llama or gpt2"
    for name in sizes:
        if getattr(model, name) < 1:
            return name, f"{name} must be positive (so must layers, hidden_size, heads, head_dim, vocab_size, params)"
    if model.module_layout and model.module_layout not in _MODULE_LAYOUTS:
        return "module_layout", "module_layout must be llama, gpt2, phi or phi3"
    if model.attention_heads % model.kv_heads:
        return "attention_heads", "attention_heads must be a multiple of kv_heads"
    if model.experts and not 1 <= model.experts_per_token <= model.experts:
        return "experts_per_token", "experts_per_token must be between 1 and experts"
    if model.sliding_window and not 1 <= model.windowed_layers <= model.layers:
        return "windowed_layers", "a sliding_window needs windowed_layers between 1 and layers"
    if not model.sliding_window and model.windowed_layers:
        return "windowed_layers", "windowed_layers needs a sliding_window"
    for name in ("experts_per_token", "active_params"):
        if not model.experts and getattr(model, name):
            return name, "a dense model has no experts_per_token and no active_params"
    for name in ("config_url", "params_source", "active_params_source"):
        address = getattr(model, name)
        if address and not _is_address(address):
            return name, f"{name} must be an https address, not {address!r}"
    return "", ""


def _is_address(text: str) -> bool:
    """Whether `text` is an https address with a host ("https://" alone, or "https://x", is not)."""
    parts = urlsplit(text)
    return parts.scheme == "https" and "." in (parts.hostname or "")


def _refused_by(
    calculators: Sequence[Calculator], preset: ModelPreset | GpuPreset | PricePreset
) -> tuple[str, str, str] | None:
    """The preset key, calculator and field of the first value a calculator's field would refuse, if any."""
    facts = preset.facts()
    for calculator in calculators:
        values = preset_values(calculator, preset)
        if not values:
            continue
        evaluation = evaluate(calculator, {**calculator.defaults(), **values})
        for problem in evaluation.problems:
            spec = calculator.input(problem.name) if problem.name in values else None
            if spec is not None and spec.preset in facts:
                return spec.preset.split(".", 1)[1], calculator.slug, spec.name
    return None
