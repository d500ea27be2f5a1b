"""A fine-tune's memory settings as the trainers take them: transformers with PEFT, Axolotl, and DeepSpeed's JSON.

The names are the libraries' own, as of transformers 5 (whose `activation_checkpointing` was `gradient_checkpointing`
before): transformers' `TrainingArguments` (its `OptimizerNames` for `optim`),
`BitsAndBytesConfig` and `from_pretrained`'s `dtype` and `attn_implementation`, PEFT's `LoraConfig`, and
DeepSpeed's configuration JSON (`zero_optimization`, `offload_optimizer`), and Axolotl's YAML configuration as its
schema (`AxolotlInputConfig`, 0.19) names the keys; `tests/test_engine_settings.py` runs the texts against transformers,
PEFT and Axolotl's schema themselves.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType

from .engines import MODEL_ID
from .memory import (
    ADAFACTOR,
    ADAMW_8BIT,
    ALL_LINEAR,
    ATTENTION,
    BF16,
    FP32,
    FULL,
    MIXED,
    OFFLOADED_CHECKPOINTING,
    PAGED_ADAMW,
    PAGED_ADAMW_8BIT,
    SGD,
)

__all__ = ["training_settings"]

_OPTIMIZERS = MappingProxyType({ADAMW_8BIT: "adamw_bnb_8bit", PAGED_ADAMW: "paged_adamw_32bit",
                               PAGED_ADAMW_8BIT: "paged_adamw_8bit", ADAFACTOR: "adafactor", SGD: "sgd"})  # fmt: skip
"""The page's optimizers by transformers' names (`OptimizerNames`); AdamW is "adamw_torch"."""
_TARGETS = MappingProxyType({ATTENTION: '["q_proj", "k_proj", "v_proj", "o_proj"]', ALL_LINEAR: '"all-linear"'})
"""LoRA's targets by PEFT's names (Llama's projections); the query and value are the rest."""
_SAVED = '["embed_tokens", "lm_head"]'
"""The modules trained in full beside LoRA when the embeddings are trained too (PEFT's `modules_to_save`)."""
_BITSANDBYTES = MappingProxyType({
    1.0: ("load_in_8bit=True",),
    2.0: ("load_in_4bit=True", 'bnb_4bit_quant_type="nf4"', 'bnb_4bit_compute_dtype="bfloat16"'),
    3.0: ("load_in_4bit=True", 'bnb_4bit_quant_type="nf4"', "bnb_4bit_use_double_quant=True",
          'bnb_4bit_compute_dtype="bfloat16"'),
})  # fmt: skip
"""The weight formats bitsandbytes quantizes as the model loads; GPTQ, AWQ and FP8 checkpoints bring their own."""
_AXOLOTL_QUANTIZED = MappingProxyType({
    1.0: ("adapter: lora", "load_in_8bit: true"),
    2.0: ("adapter: qlora", "load_in_4bit: true", "bnb_config_kwargs:", "  bnb_4bit_use_double_quant: false"),
    3.0: ("adapter: qlora", "load_in_4bit: true"),
})  # fmt: skip
"""The same formats as Axolotl loads them: its QLoRA quantizes to NF4 with double quantization unless told not to."""


def training_settings(values: Mapping[str, float]) -> dict[str, str]:
    """The page's fine-tune as transformers and PEFT code, and, with ZeRO, as DeepSpeed's JSON.

    >>> run = {"method": 2, "weight_format": 3, "precision": 1, "optimizer": 3, "rank": 16, "target_modules": 7,
    ...        "lora_dropout": 0, "lora_embeddings": 0, "micro_batch": 2, "checkpointing": 1, "attention": 0,
    ...        "cross_entropy": 0, "compiled": 0, "zero_stage": 0, "optimizer_offload": 0, "seq_len": 2048}
    >>> print(training_settings(run)["transformers"])
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments
    <BLANKLINE>
    quantization = BitsAndBytesConfig(
        load_in_4bit=True,
        bnb_4bit_quant_type="nf4",
        bnb_4bit_use_double_quant=True,
        bnb_4bit_compute_dtype="bfloat16",
    )
    model = AutoModelForCausalLM.from_pretrained(
        "ORG/MODEL",
        dtype="bfloat16",
        attn_implementation="sdpa",
        quantization_config=quantization,
    )
    lora = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules="all-linear", task_type="CAUSAL_LM")
    args = TrainingArguments(
        output_dir="out",
        per_device_train_batch_size=2,
        activation_checkpointing=True,
        bf16=True,
        optim="paged_adamw_8bit",
    )
    >>> print(training_settings(run)["Axolotl (config.yml)"].splitlines()[1:4])
    ['adapter: qlora', 'load_in_4bit: true', 'lora_r: 16']
    """
    lora = values["method"] != FULL
    quantized = _BITSANDBYTES.get(values["weight_format"], ()) if lora else ()
    imports = ["AutoModelForCausalLM", *(["BitsAndBytesConfig"] if quantized else []), "TrainingArguments"]
    lines = [*(["from peft import LoraConfig"] if lora else []), f"from transformers import {', '.join(imports)}", ""]
    if quantized:
        lines += ["quantization = BitsAndBytesConfig(", *(f"    {item}," for item in quantized), ")"]
    # Mixed precision keeps fp32 weights and computes in bf16 under autocast; pure bf16 loads the weights in bf16.
    dtype = "bfloat16" if values["precision"] == BF16 else "float32"
    model = [f'    "{MODEL_ID}",', f'    dtype="{dtype}",', f'    attn_implementation="{_attention(values)}",']
    lines += ["model = AutoModelForCausalLM.from_pretrained(", *model]
    lines += [*(["    quantization_config=quantization,"] if quantized else []), ")"]
    if lora:
        rank, dropout, targets = _lora(values)
        saved = f", modules_to_save={_SAVED}" if values["lora_embeddings"] else ""
        lines.append(
            f"lora = LoraConfig(r={rank}, lora_alpha={2 * rank}, lora_dropout={dropout}, "
            f'target_modules={targets}{saved}, task_type="CAUSAL_LM")'
        )
    arguments = ['output_dir="out"', f"per_device_train_batch_size={int(values['micro_batch'])}"]
    if values["checkpointing"]:  # transformers checkpoints whole layers, whichever kind the page counts
        arguments.append("activation_checkpointing=True")
    if values["precision"] != FP32:
        arguments.append("bf16=True")
    arguments.append(f'optim="{_optimizer(values)}"')
    if values["cross_entropy"] == 2:  # Liger's fused linear cross-entropy
        arguments.append("use_liger_kernel=True")
    if values["compiled"]:
        arguments.append("torch_compile=True")
    zero = int(values["zero_stage"])
    if zero:
        arguments.append('deepspeed="ds_config.json"')
    lines += ["args = TrainingArguments(", *(f"    {item}," for item in arguments), ")"]
    texts = {"transformers": "\n".join(lines)}
    if zero:
        # DeepSpeed offloads the optimizer states only under ZeRO (stages 1 to 3).
        offload = bool(values["optimizer_offload"])
        stage: dict[str, object] = {"stage": zero, **({"offload_optimizer": {"device": "cpu"}} if offload else {})}
        config = {
            "zero_optimization": stage,
            "bf16": {"enabled": "auto"},
            "train_micro_batch_size_per_gpu": "auto",
            "gradient_accumulation_steps": "auto",
        }
        texts["DeepSpeed (ds_config.json)"] = json.dumps(config, indent=2)
    axolotl = _axolotl(values)
    if axolotl:
        texts["Axolotl (config.yml)"] = axolotl
    return texts


def _axolotl(values: Mapping[str, float]) -> str:
    """The fine-tune as Axolotl's YAML, or "" for mixed precision, which Axolotl does not keep: its `bf16: true`
    loads the weights in bf16 as well as computing in it, so there are no fp32 master weights to write."""
    if values["precision"] == MIXED:
        return ""
    lines = [f"base_model: {MODEL_ID}"]
    if values["method"] != FULL:
        lines += _AXOLOTL_QUANTIZED.get(values["weight_format"], ("adapter: lora",))
        rank, dropout, targets = _lora(values)
        lines += [f"lora_r: {rank}", f"lora_alpha: {2 * rank}", f"lora_dropout: {dropout}"]
        # Axolotl names PEFT's "all-linear" lora_target_linear.
        linear = values["target_modules"] == ALL_LINEAR
        lines.append("lora_target_linear: true" if linear else f"lora_target_modules: {targets}")
        if values["lora_embeddings"]:
            lines.append(f"lora_modules_to_save: {_SAVED}")
    lines += [
        f"bf16: {'true' if values['precision'] == BF16 else 'false'}",
        f"attn_implementation: {_attention(values)}",
        f"sequence_len: {int(values['seq_len'])}",
        f"micro_batch_size: {int(values['micro_batch'])}",
        f"optimizer: {_optimizer(values)}",
    ]
    if values["checkpointing"]:
        lines.append("gradient_checkpointing: true")
    if values["checkpointing"] == OFFLOADED_CHECKPOINTING:
        lines.append("activation_offloading: true")
    if values["cross_entropy"] == 2:  # Liger's fused linear cross-entropy, through Axolotl's plugin
        lines += ["plugins:", "  - axolotl.integrations.liger.LigerPlugin", "liger_fused_linear_cross_entropy: true"]
    if values["compiled"]:
        lines.append("torch_compile: true")
    if values["zero_stage"]:
        lines.append("deepspeed: ds_config.json")
    # What Axolotl requires beyond memory: a dataset, a learning rate, where to write.
    lines += ["datasets:", "  - path: ORG/DATASET", "    type: alpaca", "learning_rate: 0.0002", "output_dir: ./out"]
    return "\n".join(lines) + "\n"


def _attention(values: Mapping[str, float]) -> str:
    """The attention kernel by transformers' name, which Axolotl takes too: SDPA, or eager."""
    return "sdpa" if values["attention"] == 0 else "eager"


def _optimizer(values: Mapping[str, float]) -> str:
    """The optimizer by transformers' name (`OptimizerNames`), which Axolotl takes too."""
    return _OPTIMIZERS.get(values["optimizer"], "adamw_torch")


def _lora(values: Mapping[str, float]) -> tuple[int, float, str]:
    """LoRA's rank, dropout rate and targets (PEFT's names); both texts give alpha as twice the rank."""
    targets = _TARGETS.get(values["target_modules"], '["q_proj", "v_proj"]')
    return int(values["rank"]), 0.05 if values["lora_dropout"] else 0.0, targets
