"""Model and GPU presets: the data files in `data/`, read and checked against their schema.

A preset fills a calculator's inputs with published facts: a model's architecture from its
`config.json`, a GPU's memory, bandwidth and dense BF16 peak from its datasheet. The schema
is the dataclasses below: every key required, no key unknown, every value of its type and
range. A file that breaks it stops the build with the file, the entry and the cause.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any

from calculators.core.architecture import GPT2, LLAMA, count_parameters
from calculators.core.model_config import fill_values
from calculators.core.spec import Calculator

from .errors import BuildError

__all__ = ["DATA", "GpuPreset", "ModelPreset", "Presets", "preset_values", "read_presets", "uses_presets"]

DATA = Path(__file__).resolve().parent / "data"


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
    notes: str = ""

    def facts(self) -> dict[str, float]:
        """Return this model's value of every `MODEL_FACTS` key."""
        facts = {f"model.{name}": value for name, value in self.architecture_facts().items()}
        facts["model.context_tokens"] = float(self.context_tokens)
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
            "qk_nope_head_dim qk_rope_head_dim v_head_dim extra_layer_params"
        ).split()
        facts: dict[str, float] = {name: float(getattr(self, name)) for name in names}
        facts["architecture"] = GPT2 if self.architecture == "gpt2" else LLAMA
        facts["tied_embeddings"] = float(self.tied_embeddings)
        facts["attention_bias"] = float(self.attention_bias)
        facts["router_bias"] = float(self.router_bias)
        return facts


@dataclass(frozen=True)
class GpuPreset:
    """One accelerator's datasheet figures."""

    id: str
    name: str
    memory_gb: float
    bandwidth_gb_s: float
    bf16_tflops: float
    source: str
    notes: str = ""

    def facts(self) -> dict[str, float]:
        """Return this GPU's value of every `GPU_FACTS` key."""
        return {
            "gpu.memory_gb": float(self.memory_gb),
            "gpu.bandwidth_gb_s": float(self.bandwidth_gb_s),
            "gpu.bf16_tflops": float(self.bf16_tflops),
        }


@dataclass(frozen=True)
class Presets:
    """Every model and GPU preset, in the files' order."""

    models: tuple[ModelPreset, ...]
    gpus: tuple[GpuPreset, ...]


_ARCHITECTURES = frozenset({"llama", "gpt2"})
_OPTIONAL = frozenset(
    field.name for field in fields(ModelPreset) + fields(GpuPreset) if field.default is not MISSING
)  # keys with a default may be left out: MoE, latent-attention and per-family details, notes


def read_presets(folder: Path = DATA) -> Presets:
    """Read `models.toml` and `gpus.toml` from `folder`; raise BuildError naming the file and entry on any fault."""
    models = tuple(_checked_model(entry, path, line) for path, line, entry in _entries(folder / "models.toml", "model"))
    gpus = tuple(_build(GpuPreset, entry, path, line) for path, line, entry in _entries(folder / "gpus.toml", "gpu"))
    for kind, ids in (("model", [m.id for m in models]), ("gpu", [g.id for g in gpus])):
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise BuildError(folder / f"{kind}s.toml", None, f"{kind} ids must be unique: {', '.join(duplicates)}")
    return Presets(models=models, gpus=gpus)


def preset_values(calculator: Calculator, preset: ModelPreset | GpuPreset) -> dict[str, str]:
    """Map a preset's facts onto the inputs of `calculator` that take them (input name → form text)."""
    return fill_values(calculator, preset.facts())


def uses_presets(calculator: Calculator, family: str) -> bool:
    """Whether any input of `calculator` takes a fact of `family` ("model" or "gpu")."""
    return any(spec.preset and spec.preset.startswith(family + ".") for spec in calculator.inputs)


def _entries(path: Path, table: str) -> Sequence[tuple[Path, int, Mapping[str, Any]]]:
    """Return each [[table]] entry with the line its header is on, so faults can point at it."""
    text = path.read_text(encoding="utf-8")
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's TOMLDecodeError states its line only in the message: "(at line 53, column 6)".
        where = re.search(r"at line (\d+)", str(error))
        raise BuildError(path, int(where.group(1)) if where else None, f"not valid TOML: {error}") from error
    entries = document.get(table)
    if not isinstance(entries, list) or not entries:
        raise BuildError(path, None, f"expected one or more [[{table}]] tables")
    headers = [number for number, line in enumerate(text.splitlines(), start=1) if line.strip() == f"[[{table}]]"]
    return list(zip((path,) * len(entries), headers, entries, strict=True))


def _build(kind: type[Any], entry: Mapping[str, Any], path: Path, line: int) -> Any:
    where = f"{kind.__name__} {entry.get('id', 'without an id')}"
    known = {f.name: f for f in fields(kind)}
    unknown = sorted(set(entry) - set(known))
    missing = sorted(name for name in known if name not in entry and name not in _OPTIONAL)
    if unknown or missing:
        problems = [f"unknown key {name!r}" for name in unknown] + [f"missing key {name!r}" for name in missing]
        raise BuildError(path, line, f"{where}: {'; '.join(problems)}")
    for name, value in entry.items():
        expected = known[name].type
        if not _has_type(value, str(expected)):
            raise BuildError(path, line, f"{where}: {name} must be {expected}, not {value!r}")
    return kind(**entry)


def _has_type(value: object, expected: str) -> bool:
    if expected == "bool":
        return isinstance(value, bool)
    if expected == "int":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if expected == "float":
        return isinstance(value, int | float) and not isinstance(value, bool) and value > 0
    return (isinstance(value, str) and bool(value)) or (expected == "str" and value == "")


def _checked_model(entry: Mapping[str, Any], path: Path, line: int) -> ModelPreset:
    model: ModelPreset = _build(ModelPreset, entry, path, line)
    fault = _model_fault(model)
    if fault:
        raise BuildError(path, line, f"ModelPreset {model.id}: {fault}")
    return model


def _model_fault(model: ModelPreset) -> str:
    """Return what makes `model` impossible, or "" if nothing does."""
    sizes = (model.layers, model.hidden_size, model.attention_heads, model.kv_heads, model.head_dim, model.vocab_size)
    if model.architecture not in _ARCHITECTURES:
        return "architecture must be llama or gpt2"
    if min(*sizes, model.params) < 1:
        return "layers, hidden_size, heads, head_dim, vocab_size and params must be positive"
    if model.attention_heads % model.kv_heads:
        return "attention_heads must be a multiple of kv_heads"
    if model.experts and not 1 <= model.experts_per_token <= model.experts:
        return "experts_per_token must be between 1 and experts"
    if not model.experts and (model.experts_per_token or model.active_params):
        return "a dense model has no experts_per_token and no active_params"
    if not (model.config_url.startswith("https://") and model.params_source.startswith("https://")):
        return "config_url and params_source must be https addresses"
    return ""
