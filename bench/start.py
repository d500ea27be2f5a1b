"""The live start, measured: ours beside a PyScript page and beside Pyodide's own plain boot.

Three contenders serve the same calculator, each from its own local server (its own origin, so
no storage is shared): `ours` (the site as built: precompiled standard library and memory
snapshots), `plain` (the same site built with `quick_start=False`: Pyodide booted as its loader
does, today's start) and `peer` (the calculator as a PyScript page, PyScript self-hosted from its
npm package on the same self-hosted Pyodide). Each visit makes one edit the moment the document
is parsed and times navigation → that edit's result on screen; the servers count every byte sent.
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calculators import find, make_report
from calculators.live import load_kit
from languages.locales import LOCALES, number_facts_json
from site_builder.build import PROJECT, read_catalogs
from site_builder.build.assets import RUNTIME_FILES
from site_builder.devserver.server import make_server

from .chromium import CHROMIUM, CHROMIUM_ARGS

# The peer page's program, the same for every page (it reads its calculator from the form).
_PEER_PROGRAM = Path(__file__).with_name("pyscript_page.py")

__all__ = [
    "EDIT",
    "FIRST",
    "PYSCRIPT",
    "SECOND",
    "THROTTLED",
    "Contender",
    "Tally",
    "add_pyscript_peer",
    "contender",
    "expected_results",
    "fresh_profile",
    "measure_live_start",
    "serve",
]

PYSCRIPT = PROJECT / "node_modules" / "@pyscript" / "core"
FIRST, SECOND = "gradient-accumulation-memory", "effective-batch-size"
# The edit a reader makes at once: both calculators have this input and this output.
EDIT = {"input": "micro_batch", "value": "7", "output": "effective_batch"}
# Chromium's network emulation for "a 10 Mbit/s link with a 40 ms round trip".
THROTTLED = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}


@dataclass
class Tally:
    """The bytes a server sent, by path: reset before a visit, read after it."""

    sent: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str, size: int) -> None:
        with self.lock:
            key = path.split("?", 1)[0]
            self.sent[key] = self.sent.get(key, 0) + size

    def take(self) -> dict[str, int]:
        with self.lock:
            sent, self.sent = self.sent, {}
            return sent


@contextmanager
def serve(site: Path) -> Iterator[tuple[str, Tally]]:
    """Serve `site` on a free local port, counting the bytes of every file sent."""
    tally = Tally()
    server = make_server(site, port=0, on_sent=tally.add)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", tally
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class Contender:
    """One way of putting the calculator on a page: where its first and second pages are."""

    name: str
    url: str
    first: str
    second: str
    tally: Tally


def add_pyscript_peer(site: Path) -> None:
    """Write `peer/<slug>/`: the calculator as a PyScript page, runtime and PyScript self-hosted.

    The same HTML and the same Python (`calculators.live`, the page's own bundles and
    catalog), run the way PyScript pages run Python: on the page's main thread.
    """
    peer = site / "peer"
    shutil.copytree(PYSCRIPT / "dist", peer / "pyscript", ignore=shutil.ignore_patterns("*.map"))
    (peer / "pyodide").mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy(PROJECT / "node_modules" / "pyodide" / name, peer / "pyodide" / name)
    for slug in (FIRST, SECOND):
        _write_peer_page(site, slug)


def _write_peer_page(site: Path, slug: str) -> None:
    html = (site / "en" / slug / "index.html").read_text(encoding="utf-8")
    head_end = html.index("</head>")
    html = (
        html[:head_end]
        + '<link rel="stylesheet" href="../pyscript/core.css"><script type="module" src="../pyscript/core.js"></script>'
        + html[head_end:]
    )
    # Our scripts and our policy out: the page is PyScript's.
    html = _without(html, '<meta http-equiv="Content-Security-Policy"', ">")
    while '<script type="module" src="../../_app/' in html:
        html = _without(html, '<script type="module" src="../../_app/', "</script>")
    html = html.replace("</body>", '<script type="py" src="main.py" config="pyscript.json"></script></body>')
    page = site / "peer" / slug
    page.mkdir(parents=True)
    (page / "index.html").write_text(html, encoding="utf-8")
    config = {
        "interpreter": "../pyodide/pyodide.mjs",
        "files": {
            "../../_app/core.zip": "./app/*",
            f"../../_app/calculators/{slug}.zip": "./app/*",
            f"../../_app/locales/en/{slug}.mo": "./catalog.mo",
            "../../_app/locales/en.json": "./facts.json",
        },
    }
    (page / "pyscript.json").write_text(json.dumps(config), encoding="utf-8")
    shutil.copy(_PEER_PROGRAM, page / "main.py")


def _without(html: str, start: str, end: str) -> str:
    at = html.index(start)
    return html[:at] + html[html.index(end, at) + len(end) :]


def expected_results() -> dict[str, str]:
    """The text the edited output must show, by page slug: worked out by CPython, not by the pages."""
    kit = load_kit(read_catalogs(PROJECT)[0][LOCALES[0]], number_facts_json(LOCALES[0]))
    expected = {}
    for slug in (FIRST, SECOND):
        calculator = find(slug)
        report = make_report(calculator, {**calculator.defaults(), EDIT["input"]: EDIT["value"]}, kit)
        expected[slug] = next(r.value for r in report.results if r.name == EDIT["output"])
    return expected


# Run in every document before its own scripts: make the edit when the document is parsed, then
# note the moment the output shows the edit's result (milliseconds since navigation started).
_EDIT_AT_ONCE = """
(() => {
  const expected = /*EXPECTED*/ {};
  const slug = location.pathname.split("/").filter(Boolean).pop();
  if (!(slug in expected)) return;
  window.__live = null;
  document.addEventListener("DOMContentLoaded", () => {
    const input = document.querySelector('[name="/*INPUT*/"]');
    const output = document.querySelector('[data-output="/*OUTPUT*/"]');
    const check = () => {
      if (window.__live === null && output.textContent.trim() === expected[slug]) window.__live = performance.now();
    };
    new MutationObserver(check).observe(output, { childList: true, characterData: true, subtree: true });
    input.value = "/*VALUE*/";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    check();
  });
})();
"""


def _edit_script(expected: dict[str, str]) -> str:
    script = _EDIT_AT_ONCE.replace("/*EXPECTED*/ {}", json.dumps(expected))
    for key in ("input", "output", "value"):
        script = script.replace(f"/*{key.upper()}*/", EDIT[key])
    return script


def _open(context: Any, url: str, throttled: bool = False) -> tuple[Any, dict[str, Any]]:
    """Open `url` in a new tab and wait for the edit's result; return the tab (still open) and the timing."""
    tab = context.new_page()
    if throttled:
        session = context.new_cdp_session(tab)
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", THROTTLED)
    tab.goto(url)
    tab.wait_for_function("() => window.__live !== null", timeout=120_000, polling=20)
    seconds = tab.evaluate("window.__live") / 1000
    # Ours only: how the engine started and what each step took.
    detail = tab.evaluate("() => performance.getEntriesByName('calculator:engine-ready')[0]?.detail ?? null")
    return tab, {"seconds": seconds, "engine": detail}


def fresh_profile(browser: Any, script: str) -> Any:
    """Start Chromium on a fresh profile of its own, with a disk cache as a reader's browser has.

    (A plain Playwright context keeps its HTTP cache in memory, where files of the runtime's size
    are not kept at all: every visit would fetch them again.)
    """

    folder = tempfile.mkdtemp(prefix="profile-")
    context = browser.browser_type.launch_persistent_context(folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    context.add_init_script(script)
    context.on("close", lambda _: shutil.rmtree(folder, ignore_errors=True))
    return context


def _runtime_bytes(sent: dict[str, int]) -> int:
    return sum(size for path, size in sent.items() if "/pyodide/" in path or path.endswith("stdlib.zip"))


@dataclass
class _Runs:
    """One contender's measurements over the rounds."""

    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    slow: list[float] = field(default_factory=list)
    first_bytes: list[dict[str, int]] = field(default_factory=list)
    repeat_bytes: list[dict[str, int]] = field(default_factory=list)
    engine: dict[str, Any] = field(default_factory=dict)


def measure_live_start(browser: Any, contenders: Sequence[Contender], runs: int, throttled: bool) -> dict[str, Any]:
    """Navigation → first live result of an edit made at once: cold, warm, and cold on a slow link.

    The contenders take turns within each round, so the machine's drifts touch them alike.
    """
    script = _edit_script(expected_results())
    measured = {contender.name: _Runs() for contender in contenders}
    for _ in range(runs):
        for contender in contenders:
            _visit_twice(browser, script, contender, measured[contender.name])
    if throttled:
        for _ in range(runs):
            for contender in contenders:
                context = fresh_profile(browser, script)
                _, visit = _open(context, contender.url + contender.first, throttled=True)
                measured[contender.name].slow.append(visit["seconds"])
                context.close()
    results: dict[str, Any] = {
        name: {
            "cold_seconds": round(statistics.median(taken.cold), 3),
            "warm_seconds": round(statistics.median(taken.warm), 3),
            "throttled_cold_seconds": round(statistics.median(taken.slow), 3) if taken.slow else None,
            "cold_runs": [round(s, 3) for s in taken.cold],
            "warm_runs": [round(s, 3) for s in taken.warm],
            "throttled_runs": [round(s, 3) for s in taken.slow],
            "first_visit_bytes": _median_bytes(taken.first_bytes),
            "repeat_visit_bytes": _median_bytes(taken.repeat_bytes),
            "engine": taken.engine,
        }
        for name, taken in measured.items()
    }
    ours, peer, plain = results["ours"], results["peer"], results["plain"]
    results["ratios"] = {
        "cold_vs_peer": round(ours["cold_seconds"] / peer["cold_seconds"], 3),
        "warm_vs_peer": round(ours["warm_seconds"] / peer["warm_seconds"], 3),
        "cold_vs_plain": round(ours["cold_seconds"] / plain["cold_seconds"], 3),
    }
    if throttled:
        results["ratios"]["throttled_vs_peer"] = round(
            ours["throttled_cold_seconds"] / peer["throttled_cold_seconds"], 3
        )
        results["ratios"]["throttled_vs_plain"] = round(
            ours["throttled_cold_seconds"] / plain["throttled_cold_seconds"], 3
        )
    return results


def _visit_twice(browser: Any, script: str, contender: Contender, runs: _Runs) -> None:
    """A first visit on a fresh profile, then a second page of the same site in that profile."""
    context = fresh_profile(browser, script)
    contender.tally.take()
    tab, first = _open(context, contender.url + contender.first)
    critical = contender.tally.take()
    # A reader stays: the first visit's background work (service worker, snapshot) finishes.
    tab.wait_for_timeout(3000)
    tab.close()
    background = contender.tally.take()
    tab, second = _open(context, contender.url + contender.second)
    repeat = contender.tally.take()
    tab.close()
    context.close()
    runs.cold.append(first["seconds"])
    runs.warm.append(second["seconds"])
    runs.engine = {"first": first["engine"], "second": second["engine"]}
    runs.first_bytes.append(
        {
            "until_live": sum(critical.values()),
            "runtime_until_live": _runtime_bytes(critical),
            "whole_visit": sum(critical.values()) + sum(background.values()),
        }
    )
    runs.repeat_bytes.append({"total": sum(repeat.values()), "runtime": _runtime_bytes(repeat)})


def _median_bytes(rows: Sequence[dict[str, int]]) -> dict[str, int]:
    return {key: int(statistics.median(row[key] for row in rows)) for key in rows[0]}


def contender(name: str, url: str, tally: Tally, peer: bool = False) -> Contender:
    """Name a contender served at `url`: the peer's pages live under `peer/`, the sites' under `en/`."""
    folder = "peer" if peer else "en"
    return Contender(name=name, url=url, first=f"{folder}/{FIRST}/", second=f"{folder}/{SECOND}/", tally=tally)
