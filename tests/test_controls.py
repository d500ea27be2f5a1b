"""The form's controls: what a pasted config says, invalid fields, shared-link menus, the language switcher."""

from __future__ import annotations

import json
from typing import Any

import pytest

from calculators import LocaleKit, find
from calculators.report import read_config

from .test_model_config import GPT2, LLAMA_31_8B


def test_a_pasted_config_speaks_only_of_what_the_page_uses(kits: dict[str, LocaleKit]) -> None:
    """The quantized-size page takes a parameter count: a head_dim or num_key_value_heads left out of the config is
    defined by the other keys (hidden_size / num_attention_heads, one key-value head per head), so not named."""
    training, kit = find("quantized-model-size"), kits["en"]
    llama = read_config(training, json.dumps(LLAMA_31_8B), kit)  # Llama-3.1-8B's config has no head_dim
    assert llama.message == "Filled 1 input from the configuration."
    gpt2 = read_config(training, json.dumps(GPT2), kit).message
    assert gpt2.endswith("the usual default was taken: intermediate_size, tie_word_embeddings."), gpt2
    # A page with those inputs still names them (test_model_config.py holds the KV cache page's message).
    counted = read_config(find("transformer-params"), json.dumps(GPT2), kit).message
    assert "num_key_value_heads, head_dim, intermediate_size" in counted


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(page)


def _settle(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.results').hasAttribute('aria-busy')", timeout=30_000)


@pytest.mark.browser
def test_an_invalid_field_keeps_the_last_results_greyed_beside_a_note(page: Any, base_url: str) -> None:
    _open(page, f"{base_url}en/gradient-accumulation-memory/")
    page.fill('[name="data_parallel"]', "2")
    _settle(page)
    assert page.text_content('[data-output="effective_batch"]') == "64"
    page.fill('[name="micro_batch"]', "2.5")
    _settle(page)
    assert page.text_content('[data-error-for="micro_batch"]')
    assert page.text_content("[data-status]") == "Enter valid values to see the results."
    # The last results computed stay on screen, greyed, and a note (a status, so it is announced) says whose.
    kept = page.locator('[data-output="effective_batch"]')
    assert kept.is_visible() and kept.text_content() == "64"
    note = page.locator("[data-kept-note]")
    greyed = "([figure, note]) => getComputedStyle(figure).color === getComputedStyle(note).color"
    assert page.evaluate(greyed, [kept.element_handle(), note.element_handle()])  # the muted colour of the note
    assert (
        note.is_visible() and note.text_content() == "The results below are for the last values that could be computed."
    )
    assert note.get_attribute("role") == "status"
    page.fill('[name="micro_batch"]', "8")
    _settle(page)
    assert page.text_content('[data-output="effective_batch"]') == "128"
    assert note.is_hidden() and page.get_attribute(".results", "data-kept") is None


@pytest.mark.browser
def test_an_invalid_field_greys_only_the_results_that_depend_on_it(page: Any, base_url: str) -> None:
    _open(page, f"{base_url}en/llm-training-vram/")
    page.fill('[name="activation_gb"]', "x")
    _settle(page)
    # The model state does not depend on the activations: it is still computed, and recomputed, as usual...
    page.fill('[name="params_billion"]', "70")
    _settle(page)
    assert page.text_content("[data-status]") == "Enter valid values to see every result."
    state = '[data-result="model_state_gb"]'
    assert page.text_content('[data-output="model_state_gb"]') == "1,120"
    assert page.get_attribute(state, "data-kept") is None
    assert "1,120 GB" in page.text_content('[data-sentence="model_state_gb"]')
    # ...while the total, which adds the activations, keeps its last value, greyed, under the note.
    total = '[data-result="total_vram_gb"]'
    assert page.get_attribute(total, "data-kept") == "" and page.is_visible(total)
    assert page.text_content('[data-output="total_vram_gb"]') == "112"
    note = page.locator("[data-kept-note]")
    assert note.text_content() == "The greyed results are for the last values that could be computed."
    colour = "(element) => getComputedStyle(element).color"
    muted = note.evaluate(colour)
    assert page.eval_on_selector('[data-output="total_vram_gb"]', colour) == muted
    assert page.eval_on_selector('[data-output="model_state_gb"]', colour) != muted
    assert page.get_attribute("[data-summary]", "data-state") == "invalid"  # the headline is the total
    page.fill('[name="activation_gb"]', "10")
    _settle(page)
    assert page.text_content('[data-output="total_vram_gb"]') == "1,130"
    assert page.get_attribute(total, "data-kept") is None and note.is_hidden()


@pytest.mark.browser
def test_a_bad_menu_value_from_a_link_clears_by_choosing_the_option_shown_before(page: Any, base_url: str) -> None:
    _open(page, f"{base_url}en/llm-training-vram/?bytes_per_param=10")
    assert page.text_content('[data-error-for="bytes_per_param"]') == "Choose one of the listed options."
    # The menu shows the link's value as a disabled option of its own, not the default it cannot clear with.
    menu = '[name="bytes_per_param"]'
    assert page.input_value(menu) == "10"
    assert page.eval_on_selector(menu, "m => [m.selectedOptions[0].text, m.selectedOptions[0].disabled]") == [
        "10",
        True,
    ]
    page.select_option(menu, "16")  # the default, which the menu showed before this fix
    _settle(page)
    assert page.text_content('[data-error-for="bytes_per_param"]') == ""
    assert page.text_content('[data-output="total_vram_gb"]') == "112"  # 7 B parameters × 16 bytes
    options = page.eval_on_selector_all(f"{menu} option", "options => options.map(o => o.value)")
    assert options == ["16", "12", "bf16-adamw", "8"]


@pytest.mark.browser
def test_the_language_switcher_carries_the_values_entered(page: Any, base_url: str) -> None:
    _open(page, f"{base_url}de/llm-training-vram/")
    page.fill('[name="params_billion"]', "1,5")  # a German decimal comma
    page.select_option('[name="bytes_per_param"]', "12")
    _settle(page)
    english = page.locator('.languages a[hreflang="en"]')
    # Written as every locale reads it; values left at their defaults stay out of the link.
    assert english.get_attribute("href").endswith("/en/llm-training-vram/?params_billion=1.5&bytes_per_param=12")
    english.click()
    page.wait_for_url("**/en/llm-training-vram/?*")
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(page)
    assert page.input_value('[name="params_billion"]') == "1.5"
    assert page.text_content('[data-output="model_state_gb"]') == "18"  # 1.5 B parameters × 12 bytes


def test_a_vector_crosses_languages_as_typed(page: Any, base_url: str) -> None:
    # A vector's numbers take a point in every locale, so the German page's commas separate numbers and must
    # reach the English page unchanged (a number field's "1,5" becomes "1.5"; a vector's "0.5, 1, 0" must not).
    _open(page, f"{base_url}de/cosine-similarity/")
    page.fill('[name="vector_a"]', "0.5, 1, 0")
    _settle(page)
    assert page.text_content('[data-output="distance"]') == "0,1056"  # 1 - 1/√1.25, SciPy's cosine distance
    page.locator('.languages a[hreflang="en"]').click()
    page.wait_for_url("**/en/cosine-similarity/?*")
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    _settle(page)
    assert page.input_value('[name="vector_a"]') == "0.5, 1, 0"
    assert page.text_content('[data-output="distance"]') == "0.1056"
