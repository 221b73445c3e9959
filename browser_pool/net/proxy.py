"""The egress firewall: a forward proxy every byte of the hosted browser goes through.

Chromium sends all its traffic to it (pages, subresources, fetch/XHR, websockets, service workers, downloads;
`CONNECT` for TLS and websockets, absolute-URI requests for plain http). For each connection the proxy resolves the
name once, judges every address with the `EgressPolicy`, and connects to the address it judged — so a name cannot
pass the check as a public address and then connect to a private one (DNS rebinding). A refused request gets a
403 whose text says why; the listener that served it (one per browser context) remembers it for the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext

from browser_pool.net.policy import EgressPolicy

log = logging.getLogger(__name__)

MAX_HEAD_BYTES = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 10.0
CHUNK = 64 * 1024
REMEMBERED = 200  # blocked requests a listener keeps for its session


@dataclass(frozen=True, slots=True)
class BlockedRequest:
    label: str  # the session's key ("" for traffic outside any session)
    host: str
    port: int
    address: str
    reason: str
    at: float  # time.time(), comparable with a page's performance.timeOrigin

    def describe(self) -> str:
        return f"Blocked by Hive's network firewall: {self.reason}"


BlockedCallback = Callable[[BlockedRequest], None]


class ProxyListener:
    """One listening port, used by one browser context; it knows which session the context serves."""

    def __init__(self, proxy: EgressProxy, label: str) -> None:
        self._proxy = proxy
        self.label = label
        self.blocked: deque[BlockedRequest] = deque(maxlen=REMEMBERED)
        self.blocked_count = 0
        self._server: asyncio.Server | None = None
        self.port = 0

    @property
    def server_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._proxy.serve, "127.0.0.1", 0, limit=MAX_HEAD_BYTES)
        self.port = self._server.sockets[0].getsockname()[1]
        self._proxy.listeners[self._server] = self

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._proxy.listeners.pop(self._server, None)
            self._server = None

    def blocked_since(self, count: int) -> list[BlockedRequest]:
        """The requests refused after `blocked_count` was `count` (as many as are still remembered)."""
        new = self.blocked_count - count
        return list(self.blocked)[-new:] if new > 0 else []

    def blocked_after(self, wall_time: float) -> int:
        """How many remembered refusals happened after `wall_time` (seconds since the epoch)."""
        return sum(1 for blocked in self.blocked if blocked.at >= wall_time)

    def record(self, blocked: BlockedRequest) -> None:
        self.blocked.append(blocked)
        self.blocked_count += 1


# The listener serving each browser context, so actions on a page can ask what its session had refused.
_BY_CONTEXT: weakref.WeakKeyDictionary[BrowserContext, ProxyListener] = weakref.WeakKeyDictionary()


def listener_for(context: BrowserContext) -> ProxyListener | None:
    return _BY_CONTEXT.get(context)


def bind_context(context: BrowserContext, listener: ProxyListener) -> None:
    _BY_CONTEXT[context] = listener


class EgressProxy:
    def __init__(self, policy: EgressPolicy, *, on_blocked: BlockedCallback | None = None) -> None:
        self.policy = policy
        self.on_blocked = on_blocked
        self.listeners: dict[asyncio.Server, ProxyListener] = {}
        self._connections: set[asyncio.Task[None]] = set()

    async def open_listener(self, label: str = "") -> ProxyListener:
        listener = ProxyListener(self, label)
        await listener.start()
        return listener

    async def close(self) -> None:
        for listener in list(self.listeners.values()):
            await listener.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.gather(*self._connections, return_exceptions=True)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        listener = self._listener_of(writer)
        try:
            await self._handle(reader, writer, listener)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        except Exception:
            log.exception("egress proxy: unexpected error")
        finally:
            with contextlib.suppress(Exception):
                writer.close()
            if task is not None:
                self._connections.discard(task)

    def _listener_of(self, writer: asyncio.StreamWriter) -> ProxyListener | None:
        port = writer.get_extra_info("sockname")[1]
        return next((listener for listener in self.listeners.values() if listener.port == port), None)

    async def _handle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener: ProxyListener | None
    ) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        request_line, _, header_block = head.decode("latin-1").partition("\r\n")
        parts = request_line.split(" ")
        if len(parts) != 3:
            await _answer(writer, 400, "Bad Request", "malformed request line")
            return
        method, target, version = parts
        if method.upper() == "CONNECT":
            host, port = _host_port(target, default_port=443)
        else:
            url = urlsplit(target)
            if url.scheme.lower() != "http" or not url.hostname:
                await _answer(writer, 400, "Bad Request", "the proxy takes absolute http:// URLs and CONNECT")
                return
            host, port = url.hostname, url.port or 80
        verdict = await self.policy.check(host, port)
        if not verdict.allowed:
            blocked = BlockedRequest(
                label=listener.label if listener else "",
                host=host,
                port=port,
                address=verdict.address,
                reason=verdict.reason,
                at=time.time(),
            )
            if listener is not None:
                listener.record(blocked)
            if self.on_blocked is not None:
                self.on_blocked(blocked)
            log.info("egress blocked: %s:%s for %r: %s", host, port, blocked.label, verdict.reason)
            await _answer(writer, 403, "Forbidden", blocked.describe())
            return
        try:
            upstream_reader, upstream_writer = await asyncio.wait_for(
                asyncio.open_connection(verdict.address, port, limit=CHUNK), CONNECT_TIMEOUT_S
            )
        except (OSError, TimeoutError) as exc:
            await _answer(writer, 502, "Bad Gateway", f"could not connect to {host}:{port} ({exc.__class__.__name__})")
            return
        try:
            if method.upper() == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            else:
                upstream_writer.write(_origin_form(method, target, version, header_block))
            await _pipe_both(reader, writer, upstream_reader, upstream_writer)
        finally:
            with contextlib.suppress(Exception):
                upstream_writer.close()


def _host_port(target: str, *, default_port: int) -> tuple[str, int]:
    if target.startswith("["):
        host, _, rest = target[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") else default_port
    host, _, port = target.rpartition(":")
    if not host:
        return target, default_port
    return host, int(port)


def _origin_form(method: str, target: str, version: str, header_block: str) -> bytes:
    """The request as the origin server expects it: a path, no proxy headers, one request per connection (the
    next request may be for another host, and must be judged on its own)."""
    url = urlsplit(target)
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    kept = [
        line
        for line in header_block.split("\r\n")
        if line
        and line.split(":", 1)[0].strip().lower() not in ("proxy-connection", "proxy-authorization", "connection")
    ]
    return (
        f"{method} {path} {version}\r\n" + "".join(f"{line}\r\n" for line in kept) + "Connection: close\r\n\r\n"
    ).encode("latin-1")


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            if writer.can_write_eof():
                writer.write_eof()


async def _pipe_both(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
) -> None:
    upload = asyncio.create_task(_copy(client_reader, upstream_writer))
    download = asyncio.create_task(_copy(upstream_reader, client_writer))
    try:
        await download  # the server finished (or the tunnel closed): the client connection ends with it
    finally:
        upload.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await upload


async def _answer(writer: asyncio.StreamWriter, status: int, phrase: str, text: str) -> None:
    body = (
        f"<!doctype html><meta charset=utf-8><title>Blocked</title><p>{html.escape(text)}</p>"
        if status == 403
        else text
    ).encode()
    kind = "text/html; charset=utf-8" if status == 403 else "text/plain; charset=utf-8"
    writer.write(
        f"HTTP/1.1 {status} {phrase}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
        f"X-Hive-Egress: blocked\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(ConnectionError, OSError):
        await writer.drain()
