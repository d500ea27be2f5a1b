"""The catalogue the site publishes, in display order: plain data, one line per calculator.

Each entry is `category/slug`, which is also where the calculator lives: `training/lr-warmup` is
the package `calculators/training/lr_warmup/` (its module, article and test cases together).
Adding a calculator adds its folder and one line here; `tests/test_core_rules.py` fails when a
calculator folder is missing from this list or a line names no such folder.
"""

from __future__ import annotations

from .kernel.spec import N_, Category

__all__ = ["CATALOGUE", "CATEGORIES", "POPULAR"]

CATEGORIES: tuple[Category, ...] = (
    Category("training", N_("category", "Training")),
    Category("cost", N_("category", "Cost")),
    Category("inference", N_("category", "Inference")),
    Category("infrastructure", N_("category", "Infrastructure")),
    Category("retrieval", N_("category", "Retrieval")),
    Category("evaluation", N_("category", "Evaluation")),
    Category("tools", N_("category", "Tools")),
)

CATALOGUE: tuple[str, ...] = (
    # Training: the two seed calculators first, then the catalogue's order.
    "training/gradient-accumulation-memory",
    "training/llm-training-vram",
    "training/effective-batch-size",
    "training/training-flops",
    "training/data-parallel-scaling",
    "training/dataset-tokens",
    "training/compute-optimal-model-size",
    "training/compute-budget-epochs",
    "training/pipeline-bubble",
    "training/parallel-training-planner",
    "training/lr-warmup",
    "training/chinchilla-optimal-tokens",
    "training/lora-parameters",
    # Infrastructure.
    "infrastructure/attention-memory",
    "infrastructure/moe-active-params",
    "infrastructure/quantized-model-size",
    "infrastructure/model-download-time",
    "infrastructure/gpu-count",
    "infrastructure/kv-cache-size",
    "infrastructure/llm-inference-vram",
    "infrastructure/gpu-memory-planner",
    "infrastructure/transformer-params",
    # Inference: speed and latency from the model and the GPU first, then what changes them, then FLOPs and inputs.
    "inference/inference-throughput",
    "inference/inference-latency",
    "inference/batch-inference-throughput",
    "inference/effective-tokens-per-second",
    "inference/speculative-decoding",
    "inference/flops-per-token",
    "inference/mfu",
    "inference/image-tokens",
    # Cost: pricing an LLM feature first, then caching and batches, agents and context, other media, GPUs.
    "cost/token-cost",
    "cost/llm-monthly-cost",
    "cost/self-host-vs-api",
    "cost/gpu-cloud-cost",
    "cost/prompt-caching-savings",
    "cost/batch-api-savings",
    "cost/tokens-per-dollar",
    "cost/agent-cost",
    "cost/context-cost-growth",
    "cost/context-window-fit",
    "cost/system-prompt-amortization",
    "cost/function-calling-overhead",
    "cost/structured-output-overhead",
    "cost/rate-limit-planning",
    "cost/embedding-cost",
    "cost/vector-db-size",
    "cost/vector-db-cost",
    "cost/tts-cost",
    "cost/transcription-cost",
    "cost/image-generation-cost",
    "cost/fine-tuning-cost",
    "cost/training-time-cost",
    "cost/training-carbon",
    "cost/gpu-utilization-cost",
    "cost/inference-energy-cost",
    "cost/tokens-to-words",
    # Retrieval.
    "retrieval/rag-chunking",
    # Evaluation.
    "evaluation/perplexity",
    "evaluation/ab-test-significance",
    "evaluation/llm-eval-sample-size",
    "evaluation/pass-at-k",
    # Tools.
    "tools/cosine-similarity",
)

POPULAR: tuple[str, ...] = (
    "llm-training-vram",
    "llm-inference-vram",
    "gpu-count",
    "token-cost",
    "llm-monthly-cost",
    "kv-cache-size",
)
"""The slugs listed first, on the home page and in their category, kept by hand: the questions readers bring
most (memory to train and to serve a model, how many GPUs, what a request and a month of requests cost, the
KV cache)."""
