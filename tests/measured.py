"""The measured readings of `tests/data/measured_memory_*.toml`, turned into the planner's inputs (issue 29).

Each reading is read as it was run: its model's shape from `measured_memory_models.toml`, its method, precision,
optimizer, batch and lengths from its own fields, and its figure in bytes in the convention it was taken in.
A reading whose settings cannot be stated exactly (the sequence length it peaked at, the batch it used) is left
out with its reason, so that the comparison holds the planner to what was actually run.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calculators.vocabulary import memory

DATA = Path(__file__).with_name("data")
_MODELS = tomllib.loads((DATA / "measured_memory_models.toml").read_text(encoding="utf-8"))["model"]
FACTS = (
    "architecture",
    "layers",
    "hidden_size",
    "attention_heads",
    "kv_heads",
    "head_dim",
    "ffn_size",
    "vocab_size",
    "tied_embeddings",
    "attention_bias",
    "extra_layer_params",
    "experts",
    "experts_per_token",
    "expert_ffn_size",
)

CUDA_CONTEXT_BYTES = 0.5 * 2**30
"""The CUDA context and kernels outside PyTorch's allocator, as the planner assumes by default."""


@dataclass(frozen=True)
class Reading:
    """One measured reading: where it is, its figure in bytes, its convention, and the planner's inputs for it."""

    name: str
    measured: float
    convention: str
    values: Mapping[str, float] | None
    skipped: str = ""


def readings() -> list[Reading]:
    """Every pinned reading of the record, in file order."""
    found = []
    for path in sorted(DATA.glob("measured_memory_*.toml")):
        for index, run in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("run", [])):
            found.append(_reading(f"{path.stem.removeprefix('measured_memory_')}:{index}", run))
    return found


def _unit(run: Mapping[str, Any]) -> float:
    unit = str(run["unit"])
    if unit.startswith("GB as printed (script: bytes/1024**3"):
        return 2.0**30
    if unit in ("GiB",) or unit.startswith("G as printed"):
        return 2.0**30
    if unit.startswith("MB as printed (1e6"):
        return 1e6
    if unit.startswith("MB"):
        return 2.0**20
    if unit.startswith("bytes"):
        return 1.0
    return 1e9


def shape_of(model: str) -> dict[str, float] | None:
    for entry in _MODELS:
        if any(pattern in model for pattern in entry["match"]):
            return {fact: float(entry.get(fact, 0)) for fact in FACTS}
    return None


def _convention(run: Mapping[str, Any]) -> str:
    detail = str(run.get("convention_detail", ""))
    if run["convention"] == "max_memory_reserved" or detail.startswith("max_memory_reserved"):
        return "reserved"
    if "non-torch memory" in detail:
        return "allocated+context"
    if run["convention"] == "unknown" and not detail:
        return "unknown"
    return "allocated"


def _reading(name: str, run: Mapping[str, Any]) -> Reading:
    measured = float(run["peak_memory"]) * _unit(run)
    if not run["per_gpu"]:
        measured /= run["gpus"]
    convention = _convention(run)

    def skip(reason: str) -> Reading:
        return Reading(name, measured, convention, None, reason)

    shape = shape_of(str(run["model"]))
    if shape is None:
        return skip("no shape for this model")
    library = str(run["library"]).lower()
    if "unsloth" in library or "dec 2023" in library:
        return skip("Unsloth's blog: its batch size and padded lengths are not stated per run")
    values: dict[str, float] = {**shape}
    method = run["method"]
    values["method"] = memory.SERVING if method == "inference" else memory.FULL if method == "full" else memory.LORA
    values["weight_format"] = _format(run)
    # litgpt quantizes every linear layer, the output head included; transformers keeps the head in 16 bits.
    values["quantized_head"] = 1.0 if "lit" in library else 0.0
    attention = str(run.get("attention", "")).lower()
    values["attention"] = 1.0 if "eager" in attention or "hf default of dec 2023" in attention else 0.0
    values["compiled"] = 1.0 if run.get("compile") else 0.0
    if method == "inference":
        if "Qwen3 speed benchmark" in str(run.get("notes", "")) and run.get("input_tokens", 0) > 1:
            return skip("a convention no counter gives: weights and the final cache, without the prompt's peak")
        prompt, output = run.get("input_tokens"), run.get("output_tokens")
        if prompt is None and "What food do llamas eat?' + 50 new tokens" in str(run.get("seq_len", "")):
            # litgpt's generate/base.py: a five-word prompt, about 8 tokens with BOS, and 50 new tokens; the cache is
            # sized to their sum. Any prompt under 100 tokens moves the figure by less than 0.1%.
            prompt, output = 8, 50
        if prompt is None or output is None:
            return skip("a cache preallocated for 4,096 positions whatever the generation: no serving setting")
        values.update(
            batch_size=float(run["batch_size"]),
            prompt_tokens=float(prompt),
            output_tokens=float(output),
            bytes_per_element=2.0,
            prefill_chunk=0.0,
        )
        # optimum's GPTQ benchmark (August 2023) ran transformers' tuple caches.
        values["kv_cache_growth"] = 1.0 if "optimum" in library or library == "transformers (fp16)" else 0.0
        if not run["per_gpu"] or run["gpus"] > 1:
            return skip("split over several GPUs by device_map: the share of each GPU is not stated")
        return Reading(name, measured, convention, values)
    if "fsdp" in str(run.get("sharding", "")).lower() and method != "full" and "0.5" not in library:
        return skip("FSDP1 flat parameters mixing a frozen base and trainable adapters: not modelled")
    if "far shorter" in str(run.get("seq_len", "")):
        return skip("unpacked samples far shorter than the maximum length: the length at the peak is not stated")
    sequence = run.get("seq_len")
    if not isinstance(sequence, int):
        sequence = run.get("seq_len_max")
    if not isinstance(sequence, int):
        return skip("sequence length not stated")
    values.update(micro_batch=float(run["batch_size"]), seq_len=float(sequence))
    optimizer = str(run.get("optimizer", "")).lower()
    pure = "torchtune" in library or "lit" in library or "bf16 states" in optimizer
    values["precision"] = memory.BF16 if pure else memory.MIXED
    eight_bit = "8bit" in optimizer or "8-bit" in optimizer
    if "paged" in optimizer:
        values["optimizer"] = memory.PAGED_ADAMW_8BIT if eight_bit else memory.PAGED_ADAMW
    else:
        values["optimizer"] = memory.ADAMW_8BIT if eight_bit else memory.ADAMW
    values["optimizer_in_backward"] = 1.0 if run.get("optimizer_in_backward") else 0.0
    values["optimizer_offload"] = 1.0 if run.get("cpu_offload") else 0.0
    if run.get("activation_offloading"):
        values["checkpointing"] = memory.OFFLOADED_CHECKPOINTING
    else:
        values["checkpointing"] = memory.FULL_CHECKPOINTING if run.get("activation_checkpointing") else 0.0
    loss = str(run.get("loss", "")).lower()
    values["cross_entropy"] = 1.0 if "chunk" in loss else 0.0
    if "fsdp" in str(run.get("sharding", "")).lower():
        values.update(zero_stage=3.0, data_parallel=float(run["gpus"]))
    targets = " ".join(run.get("lora_targets") or []).lower()
    values["rank"] = float(run.get("lora_rank") or 0)
    values["target_modules"] = (
        memory.ALL_LINEAR
        if ("mlp" in targets or "w1" in targets or "gate" in targets)
        else memory.ATTENTION
        if ("k_proj" in targets or "key" in targets)
        else memory.Q_V
    )
    values["lora_dropout"] = 1.0 if float(run.get("lora_dropout") or 0) > 0 else 0.0
    values["upcast_unquantized"] = 1.0 if "peft" in library and values["weight_format"] else 0.0
    values["lora_embeddings"] = 1.0 if "modules_to_save" in targets else 0.0
    return Reading(name, measured, convention, values)


def _format(run: Mapping[str, Any]) -> float:
    bits = str(run["base_bits"]).lower()
    quantization = str(run.get("quantization", "")).lower()
    if bits == "16":
        return 0.0
    if "nf4-dq" in quantization or "double" in quantization:
        return 3.0
    if "nf4" in quantization or bits == "nf4":
        return 2.0
    if "int4weightonly" in quantization or bits in ("gptq-int4", "awq"):
        return 4.0
    if bits == "gptq-int8":
        return 5.0
    if bits == "fp8":
        return 6.0
    if bits == "4":
        return 3.0 if "torchtune" in str(run["library"]).lower() else 2.0
    return 0.0


def predicted(reading: Reading) -> tuple[float, float]:
    """The planner's peak for a reading, in bytes, in the reading's convention: the lowest and highest it can be.

    A reading in an unknown convention may be any of PyTorch's allocated bytes, its reserved bytes, or what
    nvidia-smi shows (reserved plus the CUDA context), which are in that order; the others are one figure.
    """
    assert reading.values is not None
    allocated = memory.estimate(reading.values).allocated
    if reading.convention == "reserved":
        return memory.reserved(allocated), memory.reserved(allocated)
    if reading.convention == "allocated+context":
        return allocated + CUDA_CONTEXT_BYTES, allocated + CUDA_CONTEXT_BYTES
    if reading.convention == "unknown":
        return allocated, memory.reserved(allocated) + CUDA_CONTEXT_BYTES
    return allocated, allocated


def error(reading: Reading) -> float:
    """The relative error of the planner's figure against the reading: 0 inside its convention's band."""
    low, high = predicted(reading)
    if reading.measured < low:
        return low / reading.measured - 1
    if reading.measured > high:
        return high / reading.measured - 1
    return 0.0
