"""A quantized checkpoint's bits per weight, read from its config.json alone, against the bytes its files hold:
checkpoints written on this CPU by compressed-tensors (llm-compressor's format) and by bitsandbytes through
transformers, the libraries themselves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from calculators import LocaleKit, find
from calculators.report import read_config
from calculators.vocabulary.checkpoint import combine, read_header
from calculators.vocabulary.model_config import read_model_config

BATCH = find("batch-inference-throughput")
PLANNER = find("gpu-memory-planner")
# Big enough that what each quantized layer stores once (its shape, bitsandbytes' code book: a few hundred bytes,
# a kilobyte with double quantization) is a small share, as in a real model's megabyte-sized layers.
SHAPE = {"hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 1, "num_attention_heads": 8,
         "num_key_value_heads": 4, "vocab_size": 1024, "tie_word_embeddings": False}  # fmt: skip


def _stored(folder: Path) -> tuple[str, int, float]:
    """The checkpoint's config.json, the bytes its tensors take, and the parameters its configuration counts."""
    config = (folder / "config.json").read_text(encoding="utf-8")
    data = (folder / "model.safetensors").read_bytes()
    length = int.from_bytes(data[:8], "little")
    tensors = combine([read_header(data[8 : 8 + length].decode("utf-8"))])
    return config, tensors.stored_bytes, read_model_config(config).facts["model.params_billion"] * 1e9


def _base(folder: Path) -> Any:
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    return transformers.LlamaForCausalLM(transformers.LlamaConfig(**SHAPE)).to(torch.bfloat16)


SCHEMES = ["W4A16", "W4A16_ASYM", "W8A16", "FP8", "FP8_BLOCK", "MXFP4", "NVFP4A16"]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_compressed_tensors_checkpoints(scheme: str, tmp_path: Path) -> None:
    quantization = pytest.importorskip("compressed_tensors.quantization")
    compressors = pytest.importorskip("compressed_tensors.compressors")
    model = _base(tmp_path)
    groups = {"group_0": quantization.preset_name_to_scheme(scheme, ["Linear"])}
    quantization.apply_quantization_config(
        model, quantization.QuantizationConfig(config_groups=groups, ignore=["lm_head"])
    )
    for module in model.modules():  # the scales as calibration leaves them; their values do not change the sizes
        if hasattr(module, "quantization_scheme"):
            module.quantization_status = quantization.QuantizationStatus.FROZEN
    compressor = compressors.ModelCompressor.from_pretrained_model(model)
    compressor.compress_model(model)
    model.save_pretrained(tmp_path)
    compressor.update_config(tmp_path)
    config, stored, parameters = _stored(tmp_path)
    reading = read_model_config(config)
    assert reading.quantization is not None and reading.quantization.method == "compressed-tensors"
    assert reading.stored_bits * parameters / 8 == pytest.approx(stored, rel=2e-3)
    assert reading.stored_bits < 15  # the layers really are stored in fewer bits


@pytest.mark.filterwarnings("ignore::UserWarning")  # bitsandbytes names the CPU kernels it cannot fetch here
@pytest.mark.parametrize("kind", ["nf4", "nf4-double", "int8"])
def test_bitsandbytes_checkpoints(kind: str, tmp_path: Path, kits: dict[str, LocaleKit]) -> None:
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("bitsandbytes")
    torch = pytest.importorskip("torch")
    _base(tmp_path).save_pretrained(tmp_path / "base")
    settings = {"nf4": {"load_in_4bit": True, "bnb_4bit_quant_type": "nf4"},
                "nf4-double": {"load_in_4bit": True, "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": True},
                "int8": {"load_in_8bit": True}}[kind]  # fmt: skip
    model = transformers.AutoModelForCausalLM.from_pretrained(
        tmp_path / "base", quantization_config=transformers.BitsAndBytesConfig(**settings), dtype=torch.bfloat16,
        device_map="cpu",
    )  # fmt: skip
    model.save_pretrained(tmp_path / "quantized")
    config, stored, parameters = _stored(tmp_path / "quantized")
    reading = read_model_config(config)
    assert reading.stored_bits * parameters / 8 == pytest.approx(stored, rel=5e-3)
    # The GPU memory planner takes the format itself, the pages of the roofline the bits.
    planner = read_config(PLANNER, config, kits["en"])
    assert planner.values["weight_format"] == {"nf4": "nf4", "nf4-double": "nf4-dq", "int8": "int8"}[kind]
    batch = read_config(BATCH, config, kits["de"])
    assert float(batch.values["bits_per_weight"]) == pytest.approx(reading.stored_bits, abs=1e-4)
    assert "bitsandbytes" in batch.message


def test_gpt_oss_keeps_attention_and_routers_in_bf16(kits: dict[str, LocaleKit]) -> None:
    # openai/gpt-oss-20b's config.json: MXFP4 experts (transformers' Mxfp4 quantizer: blocks of 32 four-bit values
    # sharing an 8-bit exponent) and its modules_to_not_convert for the rest.
    config = {
        "model_type": "gpt_oss", "num_hidden_layers": 24, "hidden_size": 2880, "num_attention_heads": 64,
        "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880, "vocab_size": 201088,
        "num_local_experts": 32, "num_experts_per_tok": 4, "tie_word_embeddings": False,
        "quantization_config": {
            "modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens",
                                       "lm_head"],
            "quant_method": "mxfp4",
        },
    }  # fmt: skip
    reading = read_model_config(json.dumps(config))
    assert reading.quantization is not None and reading.quantization.parts == {"routed_experts"}
    assert reading.quantization.bits == 4.25
    unknown = {**config, "quantization_config": {"quant_method": "hqq"}}
    report = read_config(BATCH, json.dumps(unknown), kits["en"])
    assert "bits_per_weight" not in report.values and "hqq" in report.message
