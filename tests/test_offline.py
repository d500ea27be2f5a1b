"""Offline use through the service worker, in Chromium against the project's server: a deploy, search, share links.

"Offline" here is the server shut down, so nothing the service worker asks of the network can answer.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
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
VRAM = find("llm-training-vram")

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
    worker.write_text(text.replace('const BUILD = "ai-calculators-', 'const BUILD = "ai-calculators-next-'), "utf-8")
    return new


def test_a_deploy_leaves_one_consistent_cache_that_works_offline(
    browser: Any, site: Path, tmp_path: Path, kits: dict[str, LocaleKit]
) -> None:
    out = tmp_path / "dist"
    shutil.copytree(site, out)
    context = browser.new_context()
    tab = context.new_page()
    with _serving(out) as (url, stop):
        # A page read earlier, in a tab since closed: the README promises every page opened.
        _open(tab, url, EN, VRAM)
        tab.evaluate(_CONTROLLED)
        _wait_until(tab, lambda: f"{url}en/{VRAM.slug}/" in tab.evaluate(_PAGES))
        _open(tab, url, EN, GRAD)
        new = _deploy(out)
        tab.evaluate(_UPDATED)
        (cache,) = [key for key in tab.evaluate("() => caches.keys()") if key.startswith("ai-calculators-")]
        assert cache.startswith("ai-calculators-next-")
        # Every page the new cache holds runs on the files beside it (the open tab's old copy is not one).
        pages = tab.evaluate(_PAGES)
        assert {f"{url}en/{GRAD.slug}/", f"{url}en/{VRAM.slug}/"} <= set(pages)
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


_SEARCH_FILES = """() => caches.keys()
    .then(names => Promise.all(names.filter(name => name.startsWith('ai-calculators-'))
    .map(name => caches.open(name).then(cache => cache.keys()))))
    .then(lists => lists.flat().filter(request => request.url.includes('/pagefind/')).length)"""


def test_search_works_offline_after_a_first_search(browser: Any, site: Path) -> None:
    context = browser.new_context()
    tab = context.new_page()
    languages = json.loads((site / "pagefind" / "offline.json").read_text(encoding="utf-8"))
    with _serving(site) as (url, stop):
        tab.goto(f"{url}en/")
        tab.evaluate(_CONTROLLED)
        assert _search(tab, url, "en", "accumulation")
        # The whole English index is stored, not only what "accumulation" needed.
        _wait_until(tab, lambda: tab.evaluate(_SEARCH_FILES) >= len(languages["en"]), seconds=30)
        stop()
        links = _search(tab, url, "en", "accumulation")
        assert any(link.endswith(f"/en/{GRAD.slug}/") for link in links), links
        # A word never searched online is found offline too.
        links = _search(tab, url, "en", "cosine")
        assert any(link.endswith("/en/cosine-similarity/") for link in links), links
    context.close()


def test_offline_before_any_search_says_it_could_not_search(browser: Any, site: Path) -> None:
    context = browser.new_context()
    tab = context.new_page()
    with _serving(site) as (url, stop):
        tab.goto(f"{url}en/")
        tab.evaluate(_CONTROLLED)
        stop()
        assert _search(tab, url, "en", "cosine") == []
        status = tab.locator("#search-status")
        assert status.text_content() == status.get_attribute("data-unavailable") != status.get_attribute("data-empty")
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


def _linked_copy(site: Path, out: Path) -> None:
    """Copy `site` to `out` as hard links (a whole build in a moment); `_replace` a file before changing it."""
    shutil.copytree(site, out, copy_function=os.link)


def _replace(path: Path, text: str) -> None:
    """Write `text` to `path` as a new file, so that the file it was linked to stays as it was."""
    path.unlink()
    path.write_text(text, encoding="utf-8")


def _next_worker(out: Path) -> None:
    """Deploy a build whose only change is its service worker's cache: a deploy whose files are all stored."""
    worker = out / "sw.js"
    text = worker.read_text(encoding="utf-8")
    _replace(worker, text.replace('const BUILD = "ai-calculators-', 'const BUILD = "ai-calculators-next-'))


def test_a_deploy_while_the_connection_drops_keeps_every_offline_page(browser: Any, site: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _linked_copy(site, out)
    server = make_server(out, port=0)
    dropping = threading.Event()
    handler = server.RequestHandlerClass

    def answer(*args: Any, **kwargs: Any) -> Any:
        request = args[0]
        if dropping.is_set():
            head = request.recv(4096, socket.MSG_PEEK).split(b" ", 2)
            if len(head) > 1 and not head[1].endswith(b"/sw.js"):
                return None  # the connection drops: no answer at all
        return handler(*args, **kwargs)

    server.RequestHandlerClass = answer  # type: ignore[assignment]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context()
    tab = context.new_page()
    try:
        _open(tab, url, EN, VRAM)
        tab.evaluate(_CONTROLLED)
        _open(tab, url, EN, GRAD)
        _wait_until(tab, lambda: {f"{url}en/{GRAD.slug}/", f"{url}en/{VRAM.slug}/"} <= set(tab.evaluate(_PAGES)))
        _next_worker(out)
        dropping.set()  # only the new sw.js gets through: it installs from the old cache, and activates offline
        tab.evaluate(_UPDATED)
        (cache,) = [key for key in tab.evaluate("() => caches.keys()") if key.startswith("ai-calculators-")]
        assert cache.startswith("ai-calculators-next-")
        assert {f"{url}en/{GRAD.slug}/", f"{url}en/{VRAM.slug}/"} <= set(tab.evaluate(_PAGES))
        _open(tab, url, EN, VRAM)  # a page no tab held during the deploy, with the server unreachable
        tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    finally:
        context.close()
        server.shutdown()
        server.server_close()


_SNAPSHOTS = """(site) => caches.open('python-snapshots ' + site).then(c => c.keys()).then(keys => keys.length)"""


def test_two_sites_on_one_origin_keep_each_other_s_offline_cache_and_snapshot(
    browser: Any, site: Path, tmp_path: Path
) -> None:
    # GitHub Pages serves every project of a user from <user>.github.io: /a/ and /b/ are neighbours.
    root = tmp_path / "pages"
    for name in ("a", "b"):
        _linked_copy(site, root / name)
    context = browser.new_context()
    tab = context.new_page()
    with _serving(root) as (url, _):
        for name in ("a", "b"):
            _open(tab, f"{url}{name}/", EN, GRAD)
            tab.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
            tab.wait_for_function(f"() => ({_SNAPSHOTS})('/{name}/').then(count => count === 1)", timeout=30_000)
            page = f"{url}{name}/en/{GRAD.slug}/"
            _wait_until(tab, lambda page=page: page in tab.evaluate(_PAGES))
        _next_worker(root / "b")
        tab.evaluate(_UPDATED)
        names = tab.evaluate("() => caches.keys()")
        assert sorted(name.rsplit(" ", 1)[1] for name in names if name.startswith("ai-calculators-")) == ["/a/", "/b/"]
        assert tab.evaluate(_SNAPSHOTS, "/a/") == 1 and tab.evaluate(_SNAPSHOTS, "/b/") == 1
        assert f"{url}a/en/{GRAD.slug}/" in tab.evaluate(_PAGES)
    context.close()
