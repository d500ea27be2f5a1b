"""The list of calculators and categories the site publishes: plain data, in display order."""

from __future__ import annotations

from dataclasses import dataclass

from . import gradient_accumulation_memory, kv_cache_size, llm_training_vram, quantized_model_size
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
    gradient_accumulation_memory.CALCULATOR,
    llm_training_vram.CALCULATOR,
    kv_cache_size.CALCULATOR,
    quantized_model_size.CALCULATOR,
)


def find(slug: str) -> Calculator:
    """Return the calculator published under `slug`; raise KeyError if there is none."""
    for calculator in CALCULATORS:
        if calculator.slug == slug:
            return calculator
    raise KeyError(slug)
