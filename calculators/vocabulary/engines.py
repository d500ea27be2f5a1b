"""A serving configuration as each engine takes it: vLLM, SGLang, llama.cpp's server and Ollama.

The options are the engines' own, as each declares them (the test holds every one to its declaration):
vLLM's `vllm/engine/arg_utils.py`, SGLang's `python/sglang/srt/server_args.py`, llama.cpp's `common/arg.cpp`
and Ollama's `envconfig/config.go`. Two engines count context differently: vLLM's `--max-model-len` and
SGLang's `--context-length` bound one sequence, while llama.cpp's `--ctx-size` and Ollama's allocation hold
every parallel sequence together, each slot getting its share (llama.cpp `tools/server/README.md`; Ollama's
FAQ: memory "scales with OLLAMA_NUM_PARALLEL * OLLAMA_CONTEXT_LENGTH"), so their text gives context × batch.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["MODEL_FILE", "MODEL_ID", "serving_settings"]

MODEL_ID = "ORG/MODEL"
"""Where the model's Hub id goes: the page does not know which model its figures describe."""
MODEL_FILE = "MODEL.gguf"
"""Where llama.cpp's model file goes."""

_ENGINE_SHARE = 90.0
"""vLLM's default `--gpu-memory-utilization` in percent, written out so that the reader sees what to change."""


def serving_settings(values: Mapping[str, float]) -> dict[str, str]:
    """The page's GPUs, context and batch as each engine's launch text.

    `gpus` GPUs in tensor parallelism, `context_tokens` per sequence, `batch_size` sequences at once,
    `bytes_per_element` of KV cache (1: each engine's 8-bit cache), `bits_per_weight` (8: FP8 weights) and, where
    the page has it, `engine_share`: the percent of each GPU's memory vLLM takes (90 when 0 or absent).

    >>> texts = serving_settings({"gpus": 2, "context_tokens": 8192, "batch_size": 16, "bytes_per_element": 1,
    ...                           "bits_per_weight": 16})
    >>> print(texts["vLLM"])
    vllm serve ORG/MODEL \\
      --tensor-parallel-size 2 \\
      --max-model-len 8192 \\
      --max-num-seqs 16 \\
      --gpu-memory-utilization 0.9 \\
      --kv-cache-dtype fp8
    >>> print(texts["Ollama"])
    OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_NUM_PARALLEL=16 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0 \\
      ollama serve
    """
    gpus, context, batch = int(values["gpus"]), int(values["context_tokens"]), int(values["batch_size"])
    cache = values["bytes_per_element"]
    fp8_weights = values["bits_per_weight"] == 8
    vllm = [
        f"vllm serve {MODEL_ID}",
        f"--tensor-parallel-size {gpus}",
        f"--max-model-len {context}",
        f"--max-num-seqs {batch}",
        f"--gpu-memory-utilization {(values.get('engine_share') or _ENGINE_SHARE) / 100:g}",
    ]
    sglang = [
        f"python -m sglang.launch_server --model-path {MODEL_ID}",
        f"--tp-size {gpus}",
        f"--context-length {context}",
        f"--max-running-requests {batch}",
    ]
    if cache == 1:
        vllm.append("--kv-cache-dtype fp8")
        sglang.append("--kv-cache-dtype fp8_e4m3")
    if fp8_weights:
        vllm.append("--quantization fp8")
        sglang.append("--quantization fp8")
    # llama.cpp: every layer on the GPUs, split by layers over all it sees; a quantized V cache needs flash
    # attention. Its 8-bit cache, q8_0, keeps 34 bytes for 32 values.
    llama = [
        f"llama-server -m {MODEL_FILE}",
        f"--ctx-size {context * batch}",
        f"--parallel {batch}",
        "--n-gpu-layers 999",
    ]
    llama_cache = {4.0: "f32", 1.0: "q8_0"}.get(cache)
    if llama_cache:
        llama.append(f"--cache-type-k {llama_cache} --cache-type-v {llama_cache}")
        llama.append("--flash-attn on")
    ollama = [f"OLLAMA_CONTEXT_LENGTH={context}", f"OLLAMA_NUM_PARALLEL={batch}"]
    if cache == 1:  # Ollama quantizes the cache only with flash attention on
        ollama.append("OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0")
    return {
        "vLLM": " \\\n  ".join(vllm),
        "SGLang": " \\\n  ".join(sglang),
        "llama.cpp": " \\\n  ".join(llama),
        "Ollama": " ".join(ollama) + " \\\n  ollama serve",
    }
