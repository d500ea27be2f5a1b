"""The form's controls: what a pasted config says, invalid fields, shared-link menus, the language switcher."""

from __future__ import annotations

import json

from calculators import LocaleKit, find
from calculators.core.report import read_config
from site_builder.locales import LOCALE_BY_TAG, Locale

from .test_model_config import GPT2, LLAMA_31_8B


def test_a_pasted_config_speaks_only_of_what_the_page_uses(kits: dict[Locale, LocaleKit]) -> None:
    """The training page takes a parameter count: a head_dim or num_key_value_heads left out of the config is
    defined by the other keys (hidden_size / num_attention_heads, one key-value head per head), so not named."""
    training, kit = find("llm-training-vram"), kits[LOCALE_BY_TAG["en"]]
    llama = read_config(training, json.dumps(LLAMA_31_8B), kit)  # Llama-3.1-8B's config has no head_dim
    assert llama.message == "Filled 1 input from the configuration."
    gpt2 = read_config(training, json.dumps(GPT2), kit).message
    assert gpt2.endswith("the usual default was taken: intermediate_size, tie_word_embeddings."), gpt2
    # A page with those inputs still names them (test_model_config.py holds the KV cache page's message).
    counted = read_config(find("transformer-params"), json.dumps(GPT2), kit).message
    assert "num_key_value_heads, head_dim, intermediate_size" in counted
