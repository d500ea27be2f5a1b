"""The PyScript peer's program (its page's main.py): the calculator run on the page's main thread.

Copied beside each peer page by `start.add_pyscript_peer`; PyScript puts the page's bundles under
./app and its catalog and number facts beside this file. It uses the same `calculators.live` as our
worker, so the peer does the same work the way PyScript pages do it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from js import document
from pyodide.ffi import create_proxy

sys.path.insert(0, "./app")
from calculators.live import make_engine

__all__: list[str] = []

_form = document.querySelector("form[data-calculator]")
with open("catalog.mo", "rb") as _catalog, open("facts.json", encoding="utf-8") as _facts:
    _engine = make_engine(_catalog.read(), _facts.read(), _form.dataset.module)


def _update(event: Any = None) -> None:
    """Recompute on every edit and write each result where our page writes it."""
    values = {field.name: field.value for field in _form.querySelectorAll("[name]")}
    report = json.loads(_engine.report(json.dumps(values)))
    for result in report["results"]:
        document.querySelector(f'[data-output="{result["name"]}"]').textContent = result["value"]


_form.addEventListener("input", create_proxy(_update))
_update()
