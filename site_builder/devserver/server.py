"""A local HTTP server for the built site, with the MIME types the runtime needs and a reload channel."""

from __future__ import annotations

import functools
import re
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["RELOAD_PATH", "ReloadHub", "make_server"]

RELOAD_PATH = "/__reload"
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
_FOLDER = re.compile(r"[a-z]{2}(?:-[a-z]{2})?")  # a locale's folder: en, zh-tw, pt-br


class ReloadHub:
    """Tells open pages that the site was rebuilt (a counter that waiters watch)."""

    def __init__(self) -> None:
        self._version = 0
        self._changed = threading.Condition()

    def notify(self) -> None:
        """Announce a new build."""
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """Return the build counter once it passes `seen`, or after `timeout` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != seen, timeout=timeout)
            return self._version

    @property
    def version(self) -> int:
        """Return the current build counter."""
        return self._version


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **_TYPES}  # noqa: RUF012 - the stdlib's hook
    hub: ReloadHub | None = None
    on_sent: Callable[[str, int], None] | None = None

    def copyfile(self, source: Any, outputfile: Any) -> None:
        """Send a file's body, telling `on_sent` how many bytes went (the benchmark counts them)."""
        if self.on_sent is None:
            super().copyfile(source, outputfile)
            return
        sent = 0
        while chunk := source.read(64 * 1024):
            outputfile.write(chunk)
            sent += len(chunk)
        self.on_sent(self.path, sent)

    def do_GET(self) -> None:
        """Serve files, and the server-sent events of the reload channel when there is one."""
        if self.hub is not None and self.path.endswith(RELOAD_PATH):
            self._stream_reloads(self.hub)
        else:
            super().do_GET()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Answer a missing file with the site's own 404 page (its locale's, by the address), as a host would."""
        page = self._not_found_page() if code == HTTPStatus.NOT_FOUND else None
        if page is None:
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(code, message)
        self.send_header("Content-Type", _TYPES[".html"])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found_page(self) -> Path | None:
        """Return `<locale>/404.html` for an address under a locale's folder, else the root's 404.html, if built."""
        site = Path(self.directory)
        folder = urlsplit(self.path).path.lstrip("/").split("/", 1)[0]
        candidates = [site / folder / "404.html"] if _FOLDER.fullmatch(folder) else []
        return next((page for page in [*candidates, site / "404.html"] if page.is_file()), None)

    def _stream_reloads(self, hub: ReloadHub) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = hub.version
        while True:
            current = hub.wait(seen, timeout=15)
            message = b"data: reload\n\n" if current != seen else b": still here\n\n"
            seen = current
            try:
                self.wfile.write(message)
                self.wfile.flush()
            except OSError:
                return

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet; the build already said where the site is."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """Ignore browsers that hang up mid-download (a closed tab); report anything else."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


def make_server(
    directory: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    hub: ReloadHub | None = None,
    on_sent: Callable[[str, int], None] | None = None,
) -> ThreadingHTTPServer:
    """Return a server for `directory` (with a reload channel if `hub` is given); call `serve_forever()`.

    `on_sent(path, bytes)` is told of every file body sent.
    """
    handler = type("Handler", (_Handler,), {"hub": hub, "on_sent": staticmethod(on_sent) if on_sent else None})
    return _Server((host, port), functools.partial(handler, directory=str(directory)))
