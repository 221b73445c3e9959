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
from urllib.parse import SplitResult, urlsplit

import h11
from playwright.async_api import BrowserContext

from browser_pool.net.policy import EgressPolicy, Verdict

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
    url: str = ""  # the whole URL for plain http; for a tunnel (https, wss) only "https://host:port" is known

    def describe(self) -> str:
        return f"Blocked by Hive's network firewall: {self.reason}"


BlockedCallback = Callable[[BlockedRequest], None]


class ProxyListener:
    """One listening port, used by one browser context; it knows which session the context serves."""

    def __init__(self, proxy: EgressProxy, label: str) -> None:
        self._proxy = proxy
        self.label = label
        # A page can ask for thousands of names at once; its session waits for its own few look-ups at a time.
        self.lookups = asyncio.Semaphore(max(1, proxy.policy.lookups_per_session))
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
        except (
            ConnectionError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            TimeoutError,
            h11.ProtocolError,
        ):
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
        parts = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
        if len(parts) != 3:
            await _answer(writer, 400, "Bad Request", "malformed request line")
            return
        if parts[0].upper() == "CONNECT":
            await self._tunnel(parts[1], writer, reader, listener)
        else:
            await self._relay_http(head, reader, writer, listener)

    async def _judge(self, host: str, port: int, listener: ProxyListener | None, url: str) -> Verdict:
        try:
            async with asyncio.timeout(self.policy.lookup_timeout_s):
                if listener is None:
                    verdict = await self.policy.check(host, port)
                else:
                    async with listener.lookups:
                        verdict = await self.policy.check(host, port)
        except TimeoutError:
            verdict = Verdict(
                False,
                reason=f"{host} was not resolved within {self.policy.lookup_timeout_s:g} s (this session has "
                f"{self.policy.lookups_per_session} name look-ups at a time); refused",
            )
        if not verdict.allowed:
            blocked = BlockedRequest(
                label=listener.label if listener else "",
                host=host,
                port=port,
                address=verdict.address,
                reason=verdict.reason,
                at=time.time(),
                url=url,
            )
            if listener is not None:
                listener.record(blocked)
            if self.on_blocked is not None:
                self.on_blocked(blocked)
            log.info("egress blocked: %s:%s for %r: %s", host, port, blocked.label, verdict.reason)
        return verdict

    async def _tunnel(
        self, target: str, writer: asyncio.StreamWriter, reader: asyncio.StreamReader, listener: ProxyListener | None
    ) -> None:
        """CONNECT (https, wss): judge the destination once, then pass bytes both ways."""
        host, port = _host_port(target, default_port=443)
        verdict = await self._judge(host, port, listener, f"https://{target}")
        if not verdict.allowed:
            await _answer(writer, 403, "Forbidden", f"Blocked by Hive's network firewall: {verdict.reason}")
            return
        try:
            upstream_reader, upstream_writer = await asyncio.wait_for(
                asyncio.open_connection(verdict.address, port, limit=CHUNK), CONNECT_TIMEOUT_S
            )
        except (OSError, TimeoutError) as exc:
            await _answer(writer, 502, "Bad Gateway", f"could not connect to {host}:{port} ({exc.__class__.__name__})")
            return
        try:
            writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            await _pipe_both(reader, writer, upstream_reader, upstream_writer, idle_s=self.policy.idle_timeout_s)
        finally:
            with contextlib.suppress(Exception):
                upstream_writer.close()

    async def _relay_http(
        self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener: ProxyListener | None
    ) -> None:
        """Plain http, request by request (h11 keeps the messages apart): each request's host is judged on its own,
        and an upstream connection to a checked address is kept while the next request goes to the same host."""
        client = h11.Connection(h11.SERVER)
        client.receive_data(head)
        upstream: _Upstream | None = None
        try:
            idle_s = self.policy.idle_timeout_s
            while True:
                request = await _next_event(client, reader, idle_s)
                if not isinstance(request, h11.Request):
                    return
                url = urlsplit(request.target.decode("latin-1"))
                if url.scheme.lower() != "http" or not url.hostname:
                    await _answer(writer, 400, "Bad Request", "the proxy takes absolute http:// URLs and CONNECT")
                    return
                host, port = url.hostname, url.port or 80
                if upstream is None or (upstream.host, upstream.port) != (host, port):
                    if upstream is not None:
                        upstream.close()
                        upstream = None
                    verdict = await self._judge(host, port, listener, request.target.decode("latin-1"))
                    if not verdict.allowed:
                        await _answer(writer, 403, "Forbidden", f"Blocked by Hive's network firewall: {verdict.reason}")
                        return
                    try:
                        upstream = await _Upstream.open(host, port, verdict.address)
                    except (OSError, TimeoutError) as exc:
                        await _answer(
                            writer, 502, "Bad Gateway", f"could not connect to {host}:{port} ({exc.__class__.__name__})"
                        )
                        return
                kept = await upstream.exchange(request, url, client, reader, writer, idle_s)
                if not kept or client.our_state is not h11.DONE or client.their_state is not h11.DONE:
                    return
                client.start_next_cycle()
        finally:
            if upstream is not None:
                upstream.close()


class _Upstream:
    """One connection to an origin server at a checked address, speaking HTTP/1.1 through h11."""

    def __init__(self, host: str, port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.host, self.port = host, port
        self._reader, self._writer = reader, writer
        self._conn = h11.Connection(h11.CLIENT)

    @classmethod
    async def open(cls, host: str, port: int, address: str) -> _Upstream:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(address, port, limit=CHUNK), CONNECT_TIMEOUT_S)
        return cls(host, port, reader, writer)

    async def exchange(
        self,
        request: h11.Request,
        url: SplitResult,
        client: h11.Connection,
        client_reader: asyncio.StreamReader,
        client_writer: asyncio.StreamWriter,
        idle_s: float,
    ) -> bool:
        """Forward one request and its response; False when either connection must close afterwards."""
        path = (url.path or "/") + (f"?{url.query}" if url.query else "")
        headers = [(k, v) for k, v in request.headers if k.lower() not in _HOP_BY_HOP]
        self._send(h11.Request(method=request.method, target=path.encode("latin-1"), headers=headers))
        while True:  # the request body, as it comes
            event = await _next_event(client, client_reader, idle_s)
            if isinstance(event, h11.Data):
                self._send(event)
            elif isinstance(event, h11.EndOfMessage):
                self._send(h11.EndOfMessage())
                break
            else:
                return False
        await self._writer.drain()
        while True:  # the response, passed on as it comes
            event = await _next_event(self._conn, self._reader, idle_s)
            if isinstance(event, h11.InformationalResponse):
                continue
            if isinstance(event, h11.Response):
                kept = [(k, v) for k, v in event.headers if k.lower() not in _HOP_BY_HOP]
                client_writer.write(
                    client.send(h11.Response(status_code=event.status_code, headers=kept, reason=event.reason)) or b""
                )
            elif isinstance(event, h11.Data):
                client_writer.write(client.send(event) or b"")
                await client_writer.drain()
            elif isinstance(event, h11.EndOfMessage):
                client_writer.write(client.send(h11.EndOfMessage()) or b"")
                await client_writer.drain()
                break
            else:
                return False
        reusable = self._conn.our_state is h11.DONE and self._conn.their_state is h11.DONE
        if reusable:
            self._conn.start_next_cycle()
        return reusable

    def _send(self, event: h11.Event) -> None:
        data = self._conn.send(event)
        if data:
            self._writer.write(data)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._writer.close()


# Connection-level headers are the proxy's business, not the origin's or the browser's.
_HOP_BY_HOP = {
    b"connection", b"keep-alive", b"proxy-connection", b"proxy-authorization", b"proxy-authenticate", b"te",
    b"trailer", b"upgrade",
}  # fmt: skip


async def _next_event(conn: h11.Connection, reader: asyncio.StreamReader, idle_s: float) -> object:
    """The next HTTP event from one side; a peer silent for `idle_s` ends the connection (TimeoutError)."""
    while True:
        event = conn.next_event()
        if event is not h11.NEED_DATA:
            return event
        conn.receive_data(await asyncio.wait_for(reader.read(CHUNK), idle_s))  # b"": closed


def _host_port(target: str, *, default_port: int) -> tuple[str, int]:
    if target.startswith("["):
        host, _, rest = target[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") else default_port
    host, _, port = target.rpartition(":")
    if not host:
        return target, default_port
    return host, int(port)


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, moved: list[float]) -> None:
    try:
        while data := await reader.read(CHUNK):
            moved[0] = time.monotonic()
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
    *,
    idle_s: float,
) -> None:
    """Bytes both ways until the server is done, or until nothing moved either way for `idle_s`: a tunnel kept
    open and silent holds a socket and a task of the worker that every session shares."""
    moved = [time.monotonic()]
    upload = asyncio.create_task(_copy(client_reader, upstream_writer, moved))
    download = asyncio.create_task(_copy(upstream_reader, client_writer, moved))
    try:
        # The server finished (or the tunnel closed): the client connection ends with it.
        while not download.done():
            quiet_for = time.monotonic() - moved[0]
            if quiet_for >= idle_s:
                log.info("egress proxy: closing a tunnel idle for %.0f s", quiet_for)
                return
            await asyncio.wait({download}, timeout=idle_s - quiet_for)
    finally:
        for task in (upload, download):
            task.cancel()
        await asyncio.gather(upload, download, return_exceptions=True)


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
