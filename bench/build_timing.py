"""Run inside a copy of the project (its root on PYTHONPATH): time its catalogs and a build without search.

`catalogue.measure_catalogue` runs this file as a script in each synthetic copy, so the copy's own
packages are the ones measured; it prints one JSON object.
"""

from __future__ import annotations

import json
import time

from site_builder.build import PROJECT, BuildConfig, build, read_catalogs

__all__: list[str] = []

if __name__ == "__main__":
    started = time.perf_counter()
    read_catalogs(PROJECT)
    catalog_seconds = time.perf_counter() - started
    started = time.perf_counter()
    summary = build(BuildConfig(out=PROJECT / "dist", search=False))
    build_seconds = time.perf_counter() - started
    print(json.dumps({"catalog_seconds": catalog_seconds, "build_seconds": build_seconds, "pages": summary.pages}))
