"""A local HTTP server for the built site, with the MIME types the runtime needs."""

from __future__ import annotations

import functools
import sys
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
    ".svg": "image/svg+xml",
    ".html": "text/html; charset=utf-8",
}


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **_TYPES}  # noqa: RUF012 - the stdlib's hook

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet; the build already said where the site is."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """Ignore browsers that hang up mid-download (a closed tab); report anything else."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """Return a server for `directory`; call `serve_forever()` on it."""
    handler = functools.partial(_Handler, directory=str(directory))
    return _Server((host, port), handler)
