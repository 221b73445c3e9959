"""Serve a folder (or any request handler) over HTTP on 127.0.0.1 from a background thread, for pages the browser
tests open."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class _QuietHandler(SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        # Tests change pages between visits (a redesigned form at the same address): the browser must not keep one.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class names it so
        return


class PageHandler(BaseHTTPRequestHandler):
    """A handler for a test site written in code: quiet, pages never cached, the request's cookies at hand."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class names it so
        return

    def _send(self, status: int, body: str = "", headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _cookies(self) -> dict[str, str]:
        jar = SimpleCookie(self.headers.get("Cookie", ""))
        return {name: morsel.value for name, morsel in jar.items()}


@contextmanager
def serve_handler(handler: Callable[..., BaseHTTPRequestHandler], name: str) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:<port>``) of a server answering with ``handler``; stop it afterwards."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def serve_directory(root: Path) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:<port>``) of a server for ``root``; stop it afterwards."""
    handler: Any = functools.partial(_QuietHandler, directory=str(root))
    with serve_handler(handler, f"static:{root.name}") as base:
        yield base
