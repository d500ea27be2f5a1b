"""Shared fixtures, for tests/ and the tests beside each calculator: one real build, a local server, a real Chromium."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.chromium import CHROMIUM, CHROMIUM_ARGS
from calculators import LocaleKit
from calculators.live import load_kit
from languages.locales import number_facts_json
from site_builder.build import BuildConfig, build, read_catalogs
from site_builder.build.presets import preset_values, read_presets
from site_builder.devserver.server import make_server
from tests.helpers import ModelPreset

# The PyScript peer's program runs only in a browser page (it imports `js`): no doctest to collect.
collect_ignore = ["bench/pyscript_page.py"]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the whole site once for the whole run, in strict mode as CI does, into a temporary folder.

    xdist's workers share the folder above their own temporary ones: the first to get the lock builds,
    the others wait for it and read what it wrote, so the site is built once however many workers run.
    """
    # Under xdist each worker's folder lies in the run's; without it, the run's own folder (its parent holds
    # every earlier run's, whose site may be another commit's).
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = shared / "site" / "dist"
    with (shared / "site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "site.built").exists():
            build(BuildConfig(out=out, strict=True))
            (shared / "site.built").touch()
    return out


@pytest.fixture(scope="session")
def kits() -> dict[str, LocaleKit]:
    """Load each locale's kit the way the build and the browser do, by its tag ("en", "zh-TW")."""
    return {
        locale.tag: load_kit(mo, number_facts_json(locale))
        for locale, mo in read_catalogs(BuildConfig().project)[0].items()
    }


@pytest.fixture(scope="session")
def model_preset() -> ModelPreset:
    """Give the inputs a model preset of the site fills in a calculator, as the page's menu does."""
    models = {model.id: model for model in read_presets().models}
    return lambda calculator, model_id: preset_values(calculator, models[model_id])


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


# Test files whose tests are independent and CPU-bound: xdist spreads them over both workers. Every other
# file runs whole on one worker (`--dist loadgroup` in ./dev), so a browser file's pages share one engine.
_SPREAD = {
    "tests/test_properties.py",
    "tests/test_core_rules.py",
    "tests/test_numbers.py",
    # Browser files whose tests each open their own pages: spread, they keep both workers busy to the end.
    "tests/test_hardening.py",
    "tests/test_layout.py",
}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the test ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test with its file, except in the files that are worth spreading."""
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if path not in _SPREAD:
            item.add_marker(pytest.mark.xdist_group(path))
