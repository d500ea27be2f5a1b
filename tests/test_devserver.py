"""The dev server: serves the site, rebuilds what an edit touches, and reloads the open page."""

from __future__ import annotations

import errno
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from languages.locales import LOCALES
from site_builder import cli, folders
from site_builder.build import PROJECT
from site_builder.devserver import watcher
from site_builder.devserver.server import make_server

from .test_offline import _CONTROLLED


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(log: Path, pattern: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8")
        if re.search(pattern, text):
            return text
        time.sleep(0.2)
    raise AssertionError(f"{pattern!r} not in:\n{log.read_text(encoding='utf-8')}")


@pytest.fixture
def dev_site(tmp_path: Path) -> Iterator[tuple[Path, str, Path]]:
    """A copy of the project served by `python -m site_builder serve`, so edits touch only the copy."""
    project = tmp_path / "project"
    for name in (*folders.PACKAGES, "locales"):
        shutil.copytree(PROJECT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PROJECT / "site.toml", project / "site.toml")
    (project / "node_modules").symlink_to(PROJECT / "node_modules")
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("w", encoding="utf-8") as output:
        process = subprocess.Popen(
            [sys.executable, "-u", "-m", "site_builder", "serve", "--port", str(port), "--out", str(project / "dist"),
             "--only", "llm-training-vram"],
            cwd=project, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        _wait_for(log, r"serving on http://localhost:\d+/")
        yield project, f"http://127.0.0.1:{port}/", log
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.browser
def test_catalog_edit_rebuilds_one_locale_and_reloads(page: Any, dev_site: tuple[Path, str, Path]) -> None:
    project, url, log = dev_site
    assert re.search(r"built \d+ pages in 10 locales \(\d+ files\) into .* in [\d.]+ s, 0 warnings", log.read_text())
    page.goto(f"{url}de/llm-training-vram/")
    # Let the worker finish its downloads first: a reload that cancels them logs a failed load.
    page.wait_for_selector('[data-engine][data-state="ready"]', timeout=60_000)
    assert page.text_content("#results-heading") == "Ergebnisse"
    catalog = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace('msgstr "Ergebnisse"', 'msgstr "Resultate"'), "utf-8"
    )
    page.wait_for_function("() => document.querySelector('#results-heading')?.textContent === 'Resultate'")
    assert re.search(r"rebuilt \d+ pages \(de\); \d+ files changed", _wait_for(log, r"\(de\)"))


@pytest.mark.browser
def test_template_edit_rebuilds_every_locale(page: Any, dev_site: tuple[Path, str, Path]) -> None:
    project, url, log = dev_site
    page.goto(f"{url}fr/")
    template = project / "site_builder" / "templates" / "home.html"
    text = template.read_text(encoding="utf-8").replace('<p class="summary">', '<p class="summary" data-edited>', 1)
    template.write_text(text, encoding="utf-8")
    page.wait_for_selector("[data-edited]", timeout=30_000)
    assert "(every locale)" in _wait_for(log, r"rebuilt \d+ pages \(every locale\)")


def test_quiet_and_verbose(tmp_path: Path) -> None:
    def run(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "site_builder", "build", "--out", str(tmp_path / "dist"), "--only", "lr-warmup",
             *flags],
            cwd=PROJECT, capture_output=True, text=True, check=True,
        )  # fmt: skip

    assert run("--quiet").stdout == ""
    normal = run().stdout
    # --only builds one calculator's pages: the root page and 404, and a home, 404, category page, page and
    # embed per locale.
    assert re.fullmatch(r"built 52 pages in 10 locales \(\d+ files\) into .+ in [\d.]+ s, 0 warnings\n", normal)
    assert "strict: True" in run("--verbose", "--strict").stdout


@pytest.mark.browser
def test_a_day_of_page_views_tabs_edits_and_restarts(browser: Any, dev_site: tuple[Path, str, Path]) -> None:
    """With the service worker installed: page views by the dozen, more tabs than Chromium opens
    connections to one host (six), and every tab still reloads after an edit and after a restart."""
    project, url, log = dev_site
    context = browser.new_context()
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.goto(f"{url}en/")
    tab.evaluate(_CONTROLLED)
    for _ in range(12):
        tab.reload()
    tabs = [tab, *(context.new_page() for _ in range(7))]
    for other in tabs[1:]:
        other.goto(f"{url}fr/")
    template = project / "site_builder" / "templates" / "home.html"
    text = template.read_text(encoding="utf-8").replace('<p class="summary">', '<p class="summary" data-edited>', 1)
    template.write_text(text, encoding="utf-8")
    for each in tabs:
        each.wait_for_selector("[data-edited]", timeout=30_000)
    # A calculator edit restarts the server: once it is back, every page reloads with the new build.
    module = project / "calculators" / "training" / "llm_training_vram" / "__init__.py"
    text = module.read_text(encoding="utf-8")
    assert '"Estimate the GPU memory' in text
    module.write_text(text.replace('"Estimate the GPU memory', '"Restarted: estimate the GPU memory'), encoding="utf-8")
    for each in tabs:
        each.wait_for_selector("text=Restarted: estimate", timeout=60_000)
    assert "calculators changed: restarting" in log.read_text(encoding="utf-8")
    context.close()


def test_a_missing_address_gets_the_sites_own_404_page(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "404.html").write_text("<h1>Page not found</h1>", encoding="utf-8")
    (tmp_path / "de" / "404.html").write_text("<h1>Seite nicht gefunden</h1>", encoding="utf-8")
    server = make_server(tmp_path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"

    def missing(path: str, method: str = "GET") -> tuple[int, str, str]:
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(urllib.request.Request(url + path, method=method), timeout=10)
        with answer.value as response:
            return response.code, response.headers["Content-Type"], response.read().decode()

    try:
        # Under a locale's folder, that locale's page; anywhere else (or an unknown folder), the root's.
        assert missing("de/no-such-calculator/") == (404, "text/html; charset=utf-8", "<h1>Seite nicht gefunden</h1>")
        assert missing("fr/nothing")[2] == missing("nothing.js")[2] == "<h1>Page not found</h1>"
        assert missing("de/gone", "HEAD") == (404, "text/html; charset=utf-8", "")
    finally:
        server.shutdown()
        server.server_close()


def test_the_root_404_page_links_every_languages_home(site: Path) -> None:
    """The one a host such as GitHub Pages serves for any missing address, from the site's path, not its address."""
    page = (site / "404.html").read_text(encoding="utf-8")
    for locale in LOCALES:
        assert f'<a href="/{locale.folder}/" hreflang="{locale.tag}" lang="{locale.tag}"' in page


def test_a_busy_port_is_named_before_the_build(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(
            [sys.executable, "-m", "site_builder", "serve", "--port", str(port), "--out", str(tmp_path / "dist")],
            cwd=PROJECT, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert (run.returncode, run.stdout, run.stderr) == (1, "", f"port {port} is in use: choose another with --port\n")
    assert not (tmp_path / "dist").exists()


def test_a_port_taken_during_the_build_is_named_too(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def serve(*args: object) -> None:
        raise OSError(errno.EADDRINUSE, "Address already in use")

    monkeypatch.setattr(cli, "_port_in_use", lambda port: False)
    monkeypatch.setattr(watcher, "serve", serve)
    assert cli.main(["serve", "--port", "8123", "--quiet"]) == 1
    assert capsys.readouterr().err == "port 8123 is in use: choose another with --port\n"


def test_pytest_says_as_each_test_file_finishes() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "tests/test_numbers.py",
         "-k", "parse", "-o", "addopts="],
        cwd=PROJECT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert re.search(r"^tests/test_numbers\.py: \d+ tests in \d+ s$", run.stdout, re.MULTILINE), run.stdout
    assert re.search(r"\[\s*\d+/\d+\]$", run.stdout, re.MULTILINE), "the count of tests done ends the lines of dots"


def test_a_rebuild_never_writes_through_a_link_in_its_output(tmp_path: Path) -> None:
    # A link inside the output (a file or a folder) is replaced, and what it points to is left as it was.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_bytes(b"mine")
    out = tmp_path / "dist"
    (out / "en").mkdir(parents=True)
    (out / "index.html").symlink_to(outside / "notes.txt")
    (out / "ja").symlink_to(outside)
    written = watcher.write_changed({"index.html": b"<p>home</p>", "ja/notes.txt": b"<p>ja</p>"}, out)
    assert written == 2 and (out / "index.html").read_bytes() == b"<p>home</p>"
    assert not (out / "index.html").is_symlink() and not (out / "ja").is_symlink()
    assert [p.name for p in outside.iterdir()] == ["notes.txt"] and (outside / "notes.txt").read_bytes() == b"mine"


def test_a_broken_edit_is_named_and_the_last_good_build_stays_served(dev_site: tuple[Path, str, Path]) -> None:
    # A template half typed, a calculator saved mid-edit (an editor's autosave), a price date with a time: each is
    # named at its own file and line, and the server keeps serving until the next edit mends it.
    project, url, log = dev_site
    page = f"{url}en/llm-training-vram/"
    served = urllib.request.urlopen(page, timeout=10).read()
    template = project / "site_builder" / "templates" / "home.html"
    good_template = template.read_text(encoding="utf-8")
    template.write_text(good_template.replace("{% block", "{% blok", 1), encoding="utf-8")
    line = 1 + good_template[: good_template.index("{% block")].count("\n")
    _wait_for(log, rf"build failed: {re.escape(str(template))}:{line}: .*still serving the last build")
    module = project / "calculators" / "training" / "llm_training_vram" / "__init__.py"
    good_module = module.read_text(encoding="utf-8")
    module.write_text(good_module + "\ndef half_typed(\n", encoding="utf-8")
    _wait_for(log, rf"build failed: {re.escape(str(module))}:\d+: SyntaxError.*still serving the last build")
    prices = project / "site_builder" / "data" / "prices.toml"
    good_prices = prices.read_text(encoding="utf-8")
    prices.write_text(good_prices.replace("read_on = 2026-12-02\n", "read_on = 2026-12-02T10:00:00\n", 1), "utf-8")
    _wait_for(log, rf"build failed: {re.escape(str(prices))}:\d+: PricePreset .*read_on must be a date")
    assert urllib.request.urlopen(page, timeout=10).read() == served, "still up, still the last good build"
    template.write_text(good_template, encoding="utf-8")
    prices.write_text(good_prices, encoding="utf-8")
    module.write_text(good_module, encoding="utf-8")
    _wait_for(log, "calculators changed: restarting")
    _wait_for(log, r"serving on http://localhost:\d+/.*\n(.*\n)*.*serving on http://localhost:\d+/", timeout=120)


def test_pages_served_on_another_port_name_that_port(dev_site: tuple[Path, str, Path]) -> None:
    # Canonical links and the Embed dialog's snippet said localhost:8000 on any port: a copied embed loaded nothing.
    _, url, _ = dev_site
    port = url.rstrip("/").rsplit(":", 1)[1]
    html = urllib.request.urlopen(f"{url}en/llm-training-vram/", timeout=10).read().decode()
    assert f'rel="canonical" href="http://localhost:{port}/en/llm-training-vram/"' in html
    assert f'data-script="http://localhost:{port}/_app/embed.js"' in html and "localhost:8000" not in html
