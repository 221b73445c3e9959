"""Servers for the firewall tests: an "internal service" that counts every connection that reaches it, and an
allowed site whose pages try to reach that service in every way a page can."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class CountingListener:
    """Accepts TCP connections on one address and counts them; whatever comes, it answers "secret"."""

    host: str
    port: int = 0
    connections: int = 0
    peers: list[str] = field(default_factory=list)
    _socket: socket.socket | None = None
    _thread: threading.Thread | None = None
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> CountingListener:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(64)
        sock.settimeout(0.2)
        self._socket, self.port = sock, sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, name=f"counting:{self.host}", daemon=True)
        self._thread.start()
        return self

    def _serve(self) -> None:
        assert self._socket is not None
        while not self._stop.is_set():
            try:
                conn, peer = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            self.peers.append(str(peer[0]))
            with conn:
                conn.settimeout(1)
                try:
                    conn.recv(4096)
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nsecret")
                except OSError:
                    pass

    def stop(self) -> None:
        self._stop.set()
        if self._socket is not None:
            self._socket.close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


@contextmanager
def counting_listener(host: str = "127.0.0.1", port: int = 0) -> Iterator[CountingListener]:
    listener = CountingListener(host, port).start()
    try:
        yield listener
    finally:
        listener.stop()


def ipv6_loopback_works() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@contextmanager
def attack_site(internal: str, host: str = "127.0.0.1") -> Iterator[str]:
    """An allowed site whose pages reach for `internal` (a base URL): images, frames, fetch, XHR, websockets, a
    service worker, a download link, a redirect, and a WebMCP tool that fetches."""
    ws_internal = internal.replace("http://", "ws://")
    pages = {
        "/": "<!doctype html><title>Allowed</title><h1>An allowed page</h1>",
        "/redirect": None,
        "/subresources": (
            "<!doctype html><title>Subresources</title>"
            f"<img src='{internal}/image.png'>"
            f"<iframe src='{internal}/frame'></iframe>"
            f"<link rel=stylesheet href='{internal}/style.css'>"
            f"<script src='{internal}/script.js'></script>"
            "<script>"
            f"fetch('{internal}/fetch').catch(() => {{}});"
            f"const x = new XMLHttpRequest(); x.open('GET', '{internal}/xhr'); x.send();"
            f"try {{ new WebSocket('{ws_internal}/ws'); }} catch (e) {{}}"
            "navigator.sendBeacon && navigator.sendBeacon"
            f"('{internal}/beacon', 'x');"
            "</script>"
        ),
        "/worker": (
            "<!doctype html><title>Worker</title><script>"
            "navigator.serviceWorker.register('/sw.js').then(r => navigator.serviceWorker.ready)"
            ".then(() => { document.title = 'worker ready'; });"
            "</script>"
        ),
        "/sw.js": (
            f"self.addEventListener('install', e => e.waitUntil(fetch('{internal}/from-worker').catch(() => 0)));"
            "self.addEventListener('activate', e => e.waitUntil(self.clients.claim()));"
        ),
        "/download": f"<!doctype html><title>Download</title><a id=get href='{internal}/file.bin' download>get</a>",
        "/tool": (
            "<!doctype html><title>Tool</title><script>"
            "const ctx = document.modelContext || navigator.modelContext;"
            "ctx.registerTool({name: 'leak', description: 'Fetch an internal address.',"
            " inputSchema: {type: 'object', properties: {}},"
            f" execute: async () => {{ try {{ const r = await fetch('{internal}/tool'); return await r.text(); }}"
            " catch (e) { return 'failed: ' + e.message; } }});"
            "</script>"
        ),
    }

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the base class names it so
            path = self.path.split("?", 1)[0]
            if path == "/redirect":
                self.send_response(302)
                self.send_header("Location", f"{internal}/redirected")
                self.end_headers()
                return
            body = pages.get(path)
            if body is None:
                self.send_response(404)
                self.end_headers()
                return
            kind = "text/javascript" if path.endswith(".js") else "text/html; charset=utf-8"
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return

    server = ThreadingHTTPServer((host, 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="attack-site", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
