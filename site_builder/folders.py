"""Where the site builder's own files live: templates, data and the browser's files, named once."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "BROWSER_DEV",
    "BROWSER_STATIC",
    "BROWSER_TEMPLATED",
    "DATA",
    "NODE_TOOLS",
    "PACKAGE",
    "PACKAGES",
    "PROJECT",
    "TEMPLATES",
]

PACKAGE = Path(__file__).resolve().parent
# The checkout (or the folder holding an installed package): where calculators/ and locales/ sit.
PROJECT = PACKAGE.parent
# The product's Python packages: what a copy of the project must carry to build (with locales/ and site.toml).
PACKAGES = ("calculators", "languages", "site_builder")
TEMPLATES = PACKAGE / "templates"
DATA = PACKAGE / "data"
# Copied into every site as they are.
BROWSER_STATIC = PACKAGE / "browser" / "static"
# Filled in by the build (versions, digests, the runtime's lock) before they are written.
BROWSER_TEMPLATED = PACKAGE / "browser" / "templated"
# Only the dev server's builds carry these.
BROWSER_DEV = PACKAGE / "browser" / "dev"
# Node.js scripts the build runs with the pinned Pyodide.
NODE_TOOLS = PACKAGE / "build" / "node"
