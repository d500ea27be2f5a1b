"""The launch texts a page writes for vLLM, SGLang, llama.cpp and Ollama use only options each engine declares,
with values it accepts, and say what the page computed (tests/data/engine_options.toml quotes the declarations)."""

from __future__ import annotations

import itertools
import json
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from calculators import evaluate, find, make_report
from calculators.infrastructure.gpu_memory_planner import settings as planner_settings
from calculators.kernel.evaluation import Evaluation
from calculators.vocabulary.engines import serving_settings

OPTIONS = tomllib.loads((Path(__file__).parent / "data" / "engine_options.toml").read_text(encoding="utf-8"))
ENGINES = {"vLLM": "vllm", "SGLang": "sglang", "llama.cpp": "llama_cpp", "Ollama": "ollama"}
BATCH = find("batch-inference-throughput")


def _parsed(engine: str, text: str) -> dict[str, str]:
    """Split a launch text as a shell would and check it against the engine's declarations: option → value."""
    declared: dict[str, Any] = OPTIONS[engine]
    words = shlex.split(text.replace("\\\n", " "))  # a backslash before a newline continues the line
    found: dict[str, str] = {}
    if engine == "ollama":  # environment variables, then the command
        while "=" in words[0]:
            name, value = words.pop(0).split("=", 1)
            found[name] = value
    command = declared["command"].split()
    assert words[: len(command)] == command, text
    words = words[len(command) + declared["positional"] :]
    while words:
        option, value = words[0], words[1]
        assert option.startswith("-") and not value.startswith("-"), text
        found[option] = value
        words = words[2:]
    for option, value in found.items():
        assert option in declared["options"], f"{engine} declares no {option}"
        _check(declared["options"][option], value)
    return found


def _check(option: dict[str, Any], value: str) -> None:
    kind = option["type"]
    if kind == "int":
        assert int(value) >= 0 and str(int(value)) == value
    elif kind == "float":
        low, high = option["range"]
        assert low < float(value) <= high
    elif kind == "choice":
        assert value in option["choices"]
    elif kind == "bool":
        assert value in {"1", "0", "true", "false"}


SETTINGS = list(itertools.product((1, 2, 8), (512, 131072), (1, 64), (1, 2, 4), (4, 8, 16)))


@pytest.mark.parametrize(("gpus", "context", "batch", "cache", "bits"), SETTINGS)
def test_every_text_uses_declared_options_and_says_what_the_page_computed(
    gpus: int, context: int, batch: int, cache: int, bits: int
) -> None:
    values = {"gpus": gpus, "context_tokens": context, "batch_size": batch, "bytes_per_element": cache,
              "bits_per_weight": bits}  # fmt: skip
    texts = serving_settings(values)
    assert set(texts) == set(ENGINES)
    vllm, sglang = _parsed("vllm", texts["vLLM"]), _parsed("sglang", texts["SGLang"])
    llama, ollama = _parsed("llama_cpp", texts["llama.cpp"]), _parsed("ollama", texts["Ollama"])
    assert (vllm["--tensor-parallel-size"], sglang["--tp-size"]) == (str(gpus), str(gpus))
    assert vllm["--max-model-len"] == sglang["--context-length"] == ollama["OLLAMA_CONTEXT_LENGTH"] == str(context)
    assert vllm["--max-num-seqs"] == sglang["--max-running-requests"] == str(batch)
    assert llama["--parallel"] == ollama["OLLAMA_NUM_PARALLEL"] == str(batch)
    # llama.cpp gives each of its n_seq_max sequences n_ctx / n_seq_max (src/llama-context.cpp): the total is
    # the page's context times its batch.
    assert int(llama["--ctx-size"]) == context * batch
    # An 8-bit cache is each engine's own; a quantized V cache needs flash attention in llama.cpp and Ollama.
    assert (vllm.get("--kv-cache-dtype"), sglang.get("--kv-cache-dtype")) == (
        ("fp8", "fp8_e4m3") if cache == 1 else (None, None)
    )
    assert llama.get("--cache-type-v") == llama.get("--cache-type-k") == {1: "q8_0", 4: "f32"}.get(cache)
    if llama.get("--cache-type-v") not in (None, "f16", "f32", "bf16"):
        assert llama["--flash-attn"] == "on"
    assert ollama.get("OLLAMA_KV_CACHE_TYPE") == ("q8_0" if cache == 1 else None)
    if "OLLAMA_KV_CACHE_TYPE" in ollama:
        assert ollama["OLLAMA_FLASH_ATTENTION"] == "1"
    assert vllm.get("--quantization") == sglang.get("--quantization") == ("fp8" if bits == 8 else None)


def test_the_page_draws_them_with_copy_buttons(kits: dict[str, Any]) -> None:
    values = {**BATCH.defaults(), "gpus": "4", "bytes_per_element": "1"}
    evaluation: Evaluation = evaluate(BATCH, values)
    chart = make_report(BATCH, values, kits["de"]).chart
    for tool, text in serving_settings(evaluation.values).items():
        assert tool in chart and shlex.split(text)[0] in chart
    assert chart.count("data-copy-code") == 4 and "Kopieren" in chart


_RUN = {"method": 2.0, "weight_format": 0.0, "precision": 0.0, "optimizer": 0.0, "rank": 8.0, "target_modules": 2.0,
        "lora_dropout": 0.0, "lora_embeddings": 0.0, "micro_batch": 4.0, "checkpointing": 0.0, "attention": 0.0,
        "cross_entropy": 1.0, "compiled": 0.0, "zero_stage": 0.0, "optimizer_offload": 0.0,
        "seq_len": 512.0}  # fmt: skip
RUNS = [
    {},
    {"method": 1.0, "precision": 1.0, "checkpointing": 1.0, "zero_stage": 3.0, "optimizer_offload": 1.0},
    {"method": 1.0, "precision": 2.0, "optimizer": 5.0, "attention": 1.0, "zero_stage": 1.0},
    {"weight_format": 3.0, "precision": 1.0, "optimizer": 3.0, "target_modules": 7.0, "lora_dropout": 1.0},
    {"weight_format": 2.0, "optimizer": 1.0, "target_modules": 4.0, "lora_embeddings": 1.0, "compiled": 1.0},
    {"weight_format": 1.0, "optimizer": 2.0, "zero_stage": 2.0, "checkpointing": 2.0},
    {"weight_format": 4.0, "optimizer": 4.0, "cross_entropy": 2.0},
    {"weight_format": 2.0, "precision": 1.0, "checkpointing": 3.0, "target_modules": 7.0},
]


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Llama of one small layer, saved as transformers saves any: what the text loads in place of ORG/MODEL."""
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("tiny-llama")
    config = transformers.LlamaConfig(hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                      num_attention_heads=2, num_key_value_heads=1, vocab_size=64)  # fmt: skip
    transformers.LlamaForCausalLM(config).save_pretrained(folder)
    return folder


# PEFT 0.21.2 still reads transformers' is_gradient_checkpointing, which transformers 5.25 renamed.
@pytest.mark.filterwarnings("ignore:`is_gradient_checkpointing` is deprecated:FutureWarning")
@pytest.mark.parametrize("run", RUNS, ids=range(len(RUNS)))
def test_the_trainers_text_runs_in_transformers_and_peft(
    run: dict[str, float], tiny_llama: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text, run by transformers and PEFT themselves: the model loads with its dtype and attention, PEFT wraps
    it with the LoRA the text names (its targets must exist), and TrainingArguments takes every argument."""
    peft = pytest.importorskip("peft")
    values = {**_RUN, **run}
    texts = planner_settings(values)
    code = texts["transformers"].replace('"ORG/MODEL"', repr(str(tiny_llama)))
    # This machine has no CUDA GPU: bitsandbytes cannot load a model here (BitsAndBytesConfig still checks its own
    # arguments), bf16 runs on the CPU, and DeepSpeed is not installed (its JSON is checked below).
    code = code.replace("    quantization_config=quantization,\n", "")
    code = code.replace("args = TrainingArguments(", "args = TrainingArguments(\n    use_cpu=True,")
    code = code.replace('    deepspeed="ds_config.json",\n', "")
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {}
    exec(compile(code, "settings.py", "exec"), scope)  # the text under test, run as a reader would run it
    model, args = scope["model"], scope["args"]
    assert str(model.dtype) == ("torch.bfloat16" if values["precision"] == 1 else "torch.float32")
    assert model.config._attn_implementation == ("sdpa" if values["attention"] == 0 else "eager")
    assert args.per_device_train_batch_size == 4 and args.activation_checkpointing == bool(values["checkpointing"])
    assert args.bf16 == (values["precision"] != 2)
    if values["method"] == 2:
        wrapped = peft.get_peft_model(model, scope["lora"])
        adapted = {n.split(".lora_A.")[0].rsplit(".", 1)[-1] for n, _ in wrapped.named_parameters() if ".lora_A." in n}
        attention = {"q_proj", "k_proj", "v_proj", "o_proj"}
        wanted = {2.0: {"q_proj", "v_proj"}, 4.0: attention}.get(values["target_modules"])
        assert adapted == (wanted or attention | {"gate_proj", "up_proj", "down_proj"})
        assert scope["lora"].r == 8
    if "quantization" in scope:
        assert scope["quantization"].load_in_4bit == (values["weight_format"] in (2.0, 3.0))
    deepspeed = texts.get("DeepSpeed (ds_config.json)")
    assert (deepspeed is not None) == bool(values["zero_stage"])
    if deepspeed:
        config = json.loads(deepspeed)
        # DeepSpeed's configuration JSON (deepspeed.ai/docs/config-json): ZeRO stages 0 to 3, and an optimizer
        # offloaded to "cpu" or "nvme"; "auto" is what transformers' DeepSpeed integration fills in.
        assert config["zero_optimization"]["stage"] == values["zero_stage"]
        assert config["zero_optimization"].get("offload_optimizer", {"device": "cpu"})["device"] in {"cpu", "nvme"}
        assert set(config) == {
            "zero_optimization",
            "bf16",
            "train_micro_batch_size_per_gpu",
            "gradient_accumulation_steps",
        }


@pytest.mark.parametrize("run", RUNS, ids=range(len(RUNS)))
def test_the_axolotl_text_is_read_by_axolotls_own_schema(run: dict[str, float]) -> None:
    """Axolotl's configuration, read by the pydantic model Axolotl validates a config.yml with, merged with its Liger
    plugin's arguments as Axolotl merges a plugin's; Axolotl ignores keys it does not know, so each key must be one
    of its fields. Mixed precision is the exception: Axolotl's bf16 loads bf16 weights, so there is no text."""
    yaml = pytest.importorskip("yaml")
    schema = pytest.importorskip("axolotl.utils.schemas.config")
    liger = pytest.importorskip("axolotl.integrations.liger.args")
    values = {**_RUN, "precision": 1.0, **run}
    texts = planner_settings(values)
    assert "Axolotl (config.yml)" not in planner_settings({**values, "precision": 0.0})
    config = yaml.safe_load(texts["Axolotl (config.yml)"])

    class Merged(schema.AxolotlInputConfig, liger.LigerArgs):  # type: ignore[misc,name-defined]
        pass

    assert set(config) <= set(Merged.model_fields)
    read = Merged(**config)
    assert read.base_model == "ORG/MODEL" and read.micro_batch_size == 4 and read.sequence_len == 512
    assert read.bf16 == (values["precision"] == 1.0)
    assert bool(read.gradient_checkpointing) == bool(values["checkpointing"])
    assert bool(read.activation_offloading) == (values["checkpointing"] == 3.0)
    lora, four_bit = values["method"] == 2.0, values["weight_format"] in (2.0, 3.0)
    assert read.adapter == (("qlora" if four_bit else "lora") if lora else None)
    assert bool(read.load_in_4bit) == (lora and four_bit) and bool(read.load_in_8bit) == (
        lora and values["weight_format"] == 1.0
    )
    if four_bit:  # Axolotl's QLoRA double-quantizes unless told not to
        assert (read.bnb_config_kwargs or {}).get("bnb_4bit_use_double_quant", True) == (values["weight_format"] == 3.0)
    if lora:
        assert read.lora_r == 8 and read.lora_alpha == 16
        assert bool(read.lora_target_linear) == (values["target_modules"] == 7.0)
    # the optimizer by the same transformers name the TrainingArguments text gives it
    assert f'optim="{read.optimizer}"' in texts["transformers"]
    assert bool(read.liger_fused_linear_cross_entropy) == (values["cross_entropy"] == 2.0)
    assert (read.deepspeed == "ds_config.json") == bool(values["zero_stage"])
