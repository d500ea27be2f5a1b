"""A local HTTP server for the built site, with the MIME types the runtime needs."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

__all__ = ["make_server"]

_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".mo": "application/octet-stream",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
}


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **_TYPES}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        """Stay quiet; the build already said where the site is."""


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """Return a server for `directory`; call `serve_forever()` on it."""
    handler = functools.partial(_Handler, directory=str(directory))
    return ThreadingHTTPServer((host, port), handler)
