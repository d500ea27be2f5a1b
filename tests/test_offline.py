"""Offline use through the service worker, in Chromium against the project's server: a deploy, search, share links.

"Offline" here is the server shut down, so nothing the service worker asks of the network can answer.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from calculators import LocaleKit, find, make_report
from languages.locales import LOCALE_BY_TAG
from site_builder.build.assets import versioned
from site_builder.devserver.server import make_server

from .test_browser import _open, _settle
from .test_search import _search

pytestmark = pytest.mark.browser

EN = LOCALE_BY_TAG["en"]
GRAD = find("gradient-accumulation-memory")

_CONTROLLED = """() => navigator.serviceWorker.ready.then(() => new Promise(resolve =>
    navigator.serviceWorker.controller ? resolve()
        : navigator.serviceWorker.addEventListener('controllerchange', resolve)))"""
# A new service worker has taken over once it is activated (the controller changes when it starts activating).
_UPDATED = """() => navigator.serviceWorker.getRegistration().then(registration => new Promise((resolve, reject) => {
    navigator.serviceWorker.addEventListener('controllerchange', () => {
        const worker = navigator.serviceWorker.controller;
        if (worker.state === 'activated') resolve();
        worker.addEventListener('statechange', () => worker.state === 'activated' && resolve());
    }, { once: true });
    registration.update();
    setTimeout(() => reject(new Error('no new service worker took over')), 30000);
}))"""
# Each page the site's caches hold, with the versioned files it names that its own cache does not hold.
_PAGES = r"""async () => {
    const pages = {};
    for (const name of (await caches.keys()).filter(name => name.startsWith('ai-calculators-'))) {
        const cache = await caches.open(name);
        const held = new Set((await cache.keys()).map(request => request.url));
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            if (!(response.headers.get('content-type') || '').startsWith('text/html')) continue;
            const named = (await response.text()).matchAll(/"([^"]*_app\/[^"]*\?v=[0-9a-f]+)"/g);
            pages[request.url] = [...named].map(([, value]) => new URL(value, request.url).href)
                .filter(file => !held.has(file));
        }
    }
    return pages;
}"""


@contextmanager
def _serving(directory: Path) -> Iterator[tuple[str, Callable[[], None]]]:
    """Serve `directory` on a free port; yield its address and a function that takes the server down."""
    server = make_server(directory, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stopped = False

    def stop() -> None:
        nonlocal stopped
        if not stopped:
            server.shutdown()
            server.server_close()
            stopped = True

    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", stop
    finally:
        stop()


def _wait_until(tab: Any, condition: Callable[[], bool], seconds: float = 10) -> None:
    """Wait for `condition` (which asks the page something asynchronous: wait_for_function would not wait)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        tab.wait_for_timeout(100)


def _deploy(out: Path) -> str:
    """Publish the next build over `out`: its app.js changed, so its pages and its service worker name
    another version of it, and the worker another cache. Return the new version's URL."""
    app = out / "_app" / "app.js"
    old = versioned("_app/app.js", app)
    app.write_bytes(app.read_bytes() + b"\n// the next build\n")
    new = versioned("_app/app.js", app)
    for path in out.rglob("*.html"):
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    worker = out / "sw.js"
    text = worker.read_text(encoding="utf-8").replace(old, new)
    worker.write_text(text.replace('const CACHE = "ai-calculators-', 'const CACHE = "ai-calculators-next-'), "utf-8")
    return new


def test_a_deploy_leaves_one_consistent_cache_that_works_offline(
    browser: Any, site: Path, tmp_path: Path, kits: dict[str, LocaleKit]
) -> None:
    out = tmp_path / "dist"
    shutil.copytree(site, out)
    context = browser.new_context()
    tab = context.new_page()
    with _serving(out) as (url, stop):
        _open(tab, url, EN, GRAD)
        tab.evaluate(_CONTROLLED)
        new = _deploy(out)
        tab.evaluate(_UPDATED)
        (cache,) = [key for key in tab.evaluate("() => caches.keys()") if key.startswith("ai-calculators-")]
        assert cache.startswith("ai-calculators-next-")
        # Every page the new cache holds runs on the files beside it (the open tab's old copy is not one).
        pages = tab.evaluate(_PAGES)
        assert f"{url}en/{GRAD.slug}/" in pages
        assert {page: missing for page, missing in pages.items() if missing} == {}
        # Offline, once the HTTP cache has let go of the old build's files too: the page is the new
        # build's and recomputes.
        context.new_cdp_session(tab).send("Network.clearBrowserCache")
        stop()
        tab.reload()
        assert new in (tab.get_attribute("script[src*='app.js']", "src") or "")
        tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=30_000)
        tab.fill('[name="micro_batch"]', "16")
        _settle(tab)
        expected = make_report(GRAD, {**GRAD.defaults(), "micro_batch": "16"}, kits[EN.tag]).results[0]
        assert tab.text_content(f'[data-output="{expected.name}"]') == expected.value
    context.close()


def test_search_works_offline_after_a_first_search(browser: Any, site: Path) -> None:
    context = browser.new_context()
    tab = context.new_page()
    with _serving(site) as (url, stop):
        tab.goto(f"{url}en/")
        tab.evaluate(_CONTROLLED)
        assert _search(tab, url, "en", "accumulation")
        stop()
        links = _search(tab, url, "en", "accumulation")
        assert any(link.endswith(f"/en/{GRAD.slug}/") for link in links), links
    context.close()


def test_share_links_are_stored_as_their_page(browser: Any, base_url: str) -> None:
    context = browser.new_context()
    tab = context.new_page()
    page = f"{base_url}en/{GRAD.slug}/"
    _open(tab, base_url, EN, GRAD)
    tab.evaluate(_CONTROLLED)
    forget = """(page) => caches.keys()
        .then(names => Promise.all(names.map(name => caches.open(name).then(cache => cache.delete(page)))))"""
    for query in ("?micro_batch=16", "?micro_batch=32"):
        tab.evaluate(forget, page)
        _open(tab, base_url, EN, GRAD, query)
        # The share link's page is stored again (the service worker may do it after the page has loaded).
        _wait_until(tab, lambda: page in tab.evaluate(_PAGES))
    assert list(tab.evaluate(_PAGES)) == [page]
    context.close()
