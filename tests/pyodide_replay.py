"""Run by pyodide_replay.mjs inside Pyodide: answer one request line (see the .mjs for the protocol)."""

from __future__ import annotations

import base64
import importlib
import json
import sys
from collections.abc import Callable

from calculators import find
from calculators.live import load_kit, report_json
from calculators.report import LocaleKit

__all__ = ["make_handler"]


def make_handler() -> Callable[[str], str | None]:
    """Return the handler of request lines, which keeps each locale's kit between them."""
    kits: dict[str, LocaleKit] = {}

    def handle(line: str) -> str | None:
        request = json.loads(line)
        if request["type"] == "doctest":
            sys.path.append("/lib/whole_stdlib.zip")  # doctest is in no page's standard library
            import doctest

            failures = {}
            for name in request["modules"]:
                result = doctest.testmod(importlib.import_module(name))
                if result.failed:
                    failures[name] = result.failed
            return json.dumps({"python": sys.version, "failures": failures})
        if request["type"] == "locale":
            kits[request["locale"]] = load_kit(base64.b64decode(request["catalog"]), request["facts"])
            return None
        calculator = find(request["slug"])
        return json.dumps({"json": report_json(kits[request["locale"]], calculator, json.dumps(request["values"]))})

    return handle
