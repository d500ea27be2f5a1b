"""Shared fixtures, for tests/ and the tests beside each calculator: one real build, a local server, a real Chromium."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from calculators import LocaleKit
from calculators.core.live import load_kit
from site_builder.bench import CHROMIUM, CHROMIUM_ARGS
from site_builder.build import BuildConfig, build, read_catalogs
from site_builder.locales import Locale, number_facts_json
from site_builder.server import make_server


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the whole site once, in strict mode as CI does, into a temporary folder."""
    out = tmp_path_factory.mktemp("site") / "dist"
    build(BuildConfig(out=out, strict=True))
    return out


@pytest.fixture(scope="session")
def kits() -> dict[Locale, LocaleKit]:
    """Load each locale's kit the way the build and the browser do."""
    return {
        locale: load_kit(mo, number_facts_json(locale))
        for locale, mo in read_catalogs(BuildConfig().project)[0].items()
    }


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    """Serve the built site on a free local port."""
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Start Debian's Chromium through Playwright (no downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page whose console errors and uncaught exceptions fail the test."""
    context = browser.new_context()
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: problems.append(str(error)))
    yield tab
    context.close()
    assert problems == []
