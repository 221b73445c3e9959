"""A site on loopback that serves a few pages and keeps every request that reaches it (method, path with its query,
body), so a test can say exactly what a browser or the server sent it: a teammate's page that collects what is typed
into it, or a webhook receiver."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote_plus


@dataclass
class Received:
    method: str
    path: str  # with its query
    body: bytes

    def text(self) -> str:
        """The request as text, its path and (form-encoded) body decoded, to search for what was sent."""
        return unquote_plus(self.path) + "\n" + unquote_plus(self.body.decode("utf-8", "replace"))


@dataclass
class RecordingSite:
    pages: dict[str, str]  # path → HTML; any other path answers 204
    url: str = ""
    received: list[Received] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def got(self, text: str) -> bool:
        """Whether any request carried `text` (in its address or its body)."""
        with self._lock:
            return any(text in request.text() for request in self.received)

    def requests(self) -> list[Received]:
        with self._lock:
            return list(self.received)


@contextmanager
def recording_site(pages: dict[str, str]) -> Iterator[RecordingSite]:
    site = RecordingSite(pages)

    class Handler(BaseHTTPRequestHandler):
        def _keep(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            with site._lock:
                site.received.append(Received(self.command, self.path, self.rfile.read(length) if length else b""))
            page = site.pages.get(self.path.split("?", 1)[0])
            body = page.encode() if page is not None else b""
            self.send_response(200 if page is not None else 204)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _keep  # noqa: N815 - the base class names them so

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="recording-site", daemon=True)
    thread.start()
    site.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
