"""The list of calculators and categories the site publishes: plain data, in display order."""

from __future__ import annotations

from dataclasses import dataclass

from . import (
    attention_memory,
    chinchilla_optimal_tokens,
    compute_budget_epochs,
    compute_optimal_model_size,
    data_parallel_scaling,
    dataset_tokens,
    effective_batch_size,
    gpu_count,
    gradient_accumulation_memory,
    kv_cache_size,
    llm_inference_vram,
    llm_training_vram,
    lora_parameters,
    lr_warmup,
    model_download_time,
    moe_active_params,
    pipeline_bubble,
    quantized_model_size,
    training_flops,
    transformer_params,
)
from .spec import N_, Calculator, Message

__all__ = ["CALCULATORS", "CATEGORIES", "Category", "find"]


@dataclass(frozen=True)
class Category:
    """A group of calculators; its slug appears in URLs and data attributes."""

    slug: str
    title: Message


CATEGORIES: tuple[Category, ...] = (
    Category("training", N_("category", "Training")),
    Category("cost", N_("category", "Cost")),
    Category("inference", N_("category", "Inference")),
    Category("infrastructure", N_("category", "Infrastructure")),
    Category("retrieval", N_("category", "Retrieval")),
    Category("evaluation", N_("category", "Evaluation")),
    Category("tools", N_("category", "Tools")),
)

CALCULATORS: tuple[Calculator, ...] = (
    # Training: the two seed calculators first, then the catalogue's order.
    gradient_accumulation_memory.CALCULATOR,
    llm_training_vram.CALCULATOR,
    effective_batch_size.CALCULATOR,
    training_flops.CALCULATOR,
    data_parallel_scaling.CALCULATOR,
    dataset_tokens.CALCULATOR,
    compute_optimal_model_size.CALCULATOR,
    compute_budget_epochs.CALCULATOR,
    pipeline_bubble.CALCULATOR,
    lr_warmup.CALCULATOR,
    chinchilla_optimal_tokens.CALCULATOR,
    lora_parameters.CALCULATOR,
    # Infrastructure.
    attention_memory.CALCULATOR,
    moe_active_params.CALCULATOR,
    quantized_model_size.CALCULATOR,
    model_download_time.CALCULATOR,
    gpu_count.CALCULATOR,
    kv_cache_size.CALCULATOR,
    llm_inference_vram.CALCULATOR,
    transformer_params.CALCULATOR,
)


def find(slug: str) -> Calculator:
    """Return the calculator published under `slug`; raise KeyError if there is none."""
    for calculator in CALCULATORS:
        if calculator.slug == slug:
            return calculator
    raise KeyError(slug)
