"""A model by its Hub id in Chromium: nothing leaves the page before Fetch, then the page reads what the Hub serves.

The site's pages name the real Hub (https://huggingface.co); the browser's requests to it are answered by the
loopback Hub (`tests/hub_server.py`), redirects to its storage followed there, so the page's own content-security
policy is the one in force: it lets a page with a model menu reach the Hub, and no other page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from calculators import LocaleKit, find
from calculators.report import hub_problem, read_checkpoint
from languages.locales import LOCALE_BY_TAG
from site_builder.build.config import HUB

from .hub_server import GEMMA, LLAMA, Hub, save_tiny_checkpoints, serve_hub
from .test_browser import _open, _settle

pytestmark = pytest.mark.browser

VRAM, TOKEN_COST = find("llm-inference-vram"), find("token-cost")


@pytest.fixture(scope="module")
def loopback_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, dict[str, tuple[Path, int]]]]:
    checkpoints = save_tiny_checkpoints(tmp_path_factory.mktemp("hub"))
    repos = {repo: folder for repo, (folder, _) in checkpoints.items()} | {"meta/gated": checkpoints[LLAMA][0]}
    with serve_hub(Hub(repos=repos, gated=frozenset({"meta/gated"}))) as hub:
        yield hub, checkpoints


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page whose uncaught exceptions and console errors fail the test, except the browser's own note of
    each answer the Hub refused (a 401, 404 or 429 is what these tests ask for) and of a connection the page's
    policy refused (what the last test asks for)."""
    context = browser.new_context()
    tab = context.new_page()
    problems: list[str] = []
    expected = ("Failed to load resource", "Connecting to ", "Fetch API cannot load")
    tab.on("console", lambda message: message.type == "error" and not message.text.startswith(expected)
           and problems.append(message.text))  # fmt: skip
    tab.on("pageerror", lambda error: problems.append(str(error)))
    yield tab
    context.close()
    assert problems == []


@pytest.fixture
def hub(page: Any, loopback_hub: tuple[Hub, dict[str, tuple[Path, int]]]) -> Iterator[Hub]:
    """Answer this page's requests to the Hub from the loopback Hub."""
    served = loopback_hub[0]

    def forward(route: Any) -> None:
        route.fulfill(response=route.fetch(url=route.request.url.replace(HUB, served.url, 1)))

    page.context.route(f"{HUB}/**", forward)
    served.requests.clear()
    yield served
    served.rate_limited = False


def _fetch(page: Any, model: str, revision: str = "") -> str:
    if not page.evaluate("() => document.querySelector('[data-hub]').open"):
        page.locator("[data-hub] summary").click()
    page.fill("[data-hub-id]", model)
    page.fill("[data-hub-revision]", revision)
    page.click("[data-hub-fetch]")
    page.wait_for_function("() => document.querySelector('[data-hub]').getAttribute('aria-busy') === null")
    _settle(page)
    return str(page.text_content("[data-hub-status]"))


def test_the_page_asks_the_hub_only_when_told_and_fills_what_it_read(
    page: Any,
    base_url: str,
    hub: Hub,
    loopback_hub: tuple[Hub, dict[str, tuple[Path, int]]],
    kits: dict[str, LocaleKit],
) -> None:
    _open(page, base_url, LOCALE_BY_TAG["en"], VRAM)
    assert hub.requests == []  # the page loaded, the engine started: nothing went to the Hub
    said = _fetch(page, LLAMA)
    assert hub.requests[0][:2] == ("GET", f"/{LLAMA}/resolve/main/config.json")
    assert all(ranged.startswith("bytes=0-") for _, path, ranged in hub.requests if path.startswith("/storage/"))
    folder = loopback_hub[1][LLAMA][0]
    headers = [_header(path) for path in sorted(folder.glob("*.safetensors"))]
    expected = read_checkpoint(VRAM, (folder / "config.json").read_text(), headers, kits["en"])
    assert said == expected.message and "hold" in said
    assert {name: page.input_value(f'[name="{name}"]') for name in expected.values} == dict(expected.values)


def test_a_multimodal_checkpoint_and_a_gated_model_in_the_readers_language(
    page: Any,
    base_url: str,
    hub: Hub,
    loopback_hub: tuple[Hub, dict[str, tuple[Path, int]]],
    kits: dict[str, LocaleKit],
) -> None:
    _open(page, base_url, LOCALE_BY_TAG["de"], VRAM)
    said = _fetch(page, GEMMA)
    assert f"{loopback_hub[1][GEMMA][1]:,}".replace(",", ".") in said  # the vision tower counted, in German digits
    assert _fetch(page, "meta/gated") == hub_problem("gated", 0, kits["de"])
    assert _fetch(page, "nobody/nothing") == hub_problem("missing", 0, kits["de"])
    # A revision typed in is the one asked for: the commit reads, a branch the model lacks is said to be missing.
    hub.requests.clear()
    assert _fetch(page, LLAMA, hub.commit(LLAMA)) != hub_problem("no_revision", 0, kits["de"])
    assert hub.requests[0][1] == f"/{LLAMA}/resolve/{hub.commit(LLAMA)}/config.json"
    assert _fetch(page, LLAMA, "v9") == hub_problem("no_revision", 0, kits["de"])
    hub.rate_limited = True
    assert _fetch(page, LLAMA) == hub_problem("rate_limited", 42, kits["de"])


def test_only_pages_with_a_model_menu_may_reach_the_hub(page: Any, base_url: str) -> None:
    policy = "meta[http-equiv='Content-Security-Policy']"
    page.goto(f"{base_url}en/{VRAM.slug}/")
    assert f"connect-src 'self' {HUB} https://*.hf.co;" in str(page.get_attribute(policy, "content"))
    page.goto(f"{base_url}en/{TOKEN_COST.slug}/")
    assert "connect-src 'self';" in str(page.get_attribute(policy, "content"))
    assert page.locator("[data-hub]").count() == 0
    # A page may not reach another host: the policy stops it before any request leaves.
    blocked = page.evaluate("() => fetch('https://huggingface.co/x').then(() => 'reached', () => 'blocked')")
    assert blocked == "blocked"


def _header(path: Path) -> str:
    """A safetensors file's header, read from disk as the page reads it over HTTP."""
    data = path.read_bytes()
    return data[8 : 8 + int.from_bytes(data[:8], "little")].decode()


def test_the_hub_box_reads_on_a_phone(browser: Any, base_url: str) -> None:
    from .test_hardening import _axe_violations

    context = browser.new_context(bypass_csp=True, viewport={"width": 360, "height": 740}, color_scheme="dark")
    tab = context.new_page()
    _open(tab, base_url, LOCALE_BY_TAG["ar"], VRAM)
    tab.locator("[data-hub] summary").click()
    assert tab.is_enabled("[data-hub-fetch]") and tab.get_attribute("[data-hub-id]", "dir") == "ltr"
    assert _axe_violations(tab) == []
    assert tab.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
