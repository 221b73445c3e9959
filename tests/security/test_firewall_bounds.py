"""The firewall's own manners towards strangers: a refusal never tells a page, the agent or the logs what address an
internal name resolves to; one session's name look-ups cannot tie up the resolver (or the event loop's shared
threads) for the others; and a tunnel nobody uses is closed. Real listeners on loopback count what reaches them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio

from agents.safety import SafetyConfig, SafetyPolicy
from browser_pool.actions import execute_action
from browser_pool.config import BrowserConfig
from browser_pool.net import BlockedRequest, EgressPolicy, EgressProxy
from browser_pool.net.policy import BoundedResolver
from browser_pool.pool import BrowserPool
from tests.support.listeners import CountingListener
from tests.support.waiting import eventually

pytestmark = pytest.mark.asyncio

# What a host's internal DNS answers (docker's for compose services, say): the names a stranger may probe.
INTERNAL = {
    "redis.internal.test": "172.18.0.3",
    "metadata.internal.test": "169.254.169.254",
    "db.internal.test": "::ffff:10.0.0.5",
}


async def internal_dns(host: str, port: int) -> list[str]:
    return [INTERNAL.get(host, "127.0.0.1")]


@pytest.mark.browser
async def test_a_refusal_never_names_the_address_a_name_resolved_to(
    site: str, internal: CountingListener, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    blocked: list[BlockedRequest] = []
    pool = BrowserPool(
        BrowserConfig(max_sessions=1, warm_contexts=0, egress=EgressPolicy(allow=(site,), resolver=internal_dns)),
        on_egress_blocked=blocked.append,
    )
    await pool.start()
    try:
        session = await pool.acquire("prober")
        for name, address in INTERNAL.items():
            result = await execute_action(session, "navigate", {"url": f"http://{name}:{internal.port}/"})
            assert not result.ok
            shown = " ".join([result.error, *result.blocked, await session.active_page.content()])
            assert f"{name} resolves to a" in result.error
            assert address not in shown, f"the refusal of {name} names its address"
            assert address.removeprefix("::ffff:") not in shown
        assert (await execute_action(session, "navigate", {"url": f"{site}/"})).ok, "the allowed site still works"
    finally:
        await pool.stop(save_sessions=False)
    assert len(blocked) >= len(INTERNAL)
    assert all(b.reason and not any(a in b.reason for a in INTERNAL.values()) for b in blocked)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "redis.internal.test" in logged, "the refusal is logged"
    assert not any(address in logged for address in INTERNAL.values())
    assert internal.connections == 0


async def test_the_agents_own_refusal_names_no_resolved_address_either() -> None:
    async def resolve(host: str) -> list[str]:
        return [INTERNAL[host]]

    policy = SafetyPolicy(SafetyConfig(), resolver=resolve)
    refusal = await policy.navigation_block("http://redis.internal.test:6379/")
    assert refusal is not None
    assert "redis.internal.test resolves to a private-network address" in refusal
    assert "172.18.0.3" not in refusal
    typed = await policy.navigation_block("http://10.1.2.3/")
    assert typed is not None
    assert "10.1.2.3 is a private-network address" in typed, "an address the user typed may be said"


@dataclass
class SlowDns:
    """A resolver that answers after a while and counts the look-ups in flight at once."""

    delay_s: float
    in_flight: int = 0
    most: int = 0
    asked: list[str] = field(default_factory=list)

    async def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            await asyncio.sleep(self.delay_s)
            return ["127.0.0.1"]
        finally:
            self.in_flight -= 1


async def proxy_get(proxy_url: str, host: str, port: int) -> bytes:
    """A plain-http request for http://host:port/ through the proxy; its whole answer."""
    address, proxy_port = proxy_url.removeprefix("http://").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(address, int(proxy_port))
    writer.write(f"GET http://{host}:{port}/ HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    try:
        return await reader.read()
    finally:
        writer.close()


@pytest_asyncio.fixture
async def proxy_with_slow_dns(internal: CountingListener) -> AsyncIterator[tuple[EgressProxy, SlowDns]]:
    dns = SlowDns(delay_s=0.3)
    policy = EgressPolicy(allow=("127.0.0.1",), resolver=dns, lookups_per_session=3, lookup_timeout_s=1.0)
    proxy = EgressProxy(policy)
    try:
        yield proxy, dns
    finally:
        await proxy.close()


async def test_a_sessions_name_lookups_wait_their_turn_and_time_out_without_holding_up_another_session(
    proxy_with_slow_dns: tuple[EgressProxy, SlowDns], internal: CountingListener
) -> None:
    proxy, dns = proxy_with_slow_dns
    flooding, quiet = await proxy.open_listener("flooding"), await proxy.open_listener("quiet")
    flood = [
        asyncio.create_task(proxy_get(flooding.server_url, f"n{i}.example.test", internal.port)) for i in range(30)
    ]
    await eventually(lambda: dns.in_flight == 3, 5, "the flooding session's look-ups under way")
    answered = await proxy_get(quiet.server_url, "quiet.example.test", internal.port)
    assert b"secret" in answered, "another session's look-up is not queued behind the flood"
    answers = await asyncio.gather(*flood)
    assert dns.most <= 3 + 1, "one session never has more look-ups at once than its share (plus the quiet one)"
    refused = [a for a in answers if b"was not resolved within" in a]
    assert refused, "look-ups kept waiting past the bound are refused, not queued for ever"
    assert all(b"403" in a.split(b"\r\n", 1)[0] for a in refused)
    assert len(dns.asked) < 30, "the refused ones never reached the resolver"


async def test_the_system_resolver_keeps_to_its_own_few_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing(ThreadPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("a name look-up used the event loop's default executor")

    asyncio.get_running_loop().set_default_executor(Refusing(1))
    running, most, lock = 0, 0, threading.Lock()
    real = socket.getaddrinfo

    def slow_lookup(*args: Any, **kwargs: Any) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.2)  # a slow DNS server, as the system resolver meets it
        with lock:
            running -= 1
        return real("localhost", *args[1:], **kwargs)

    monkeypatch.setattr("browser_pool.net.policy.socket.getaddrinfo", slow_lookup)
    resolver = BoundedResolver(threads=2, timeout_s=5)
    answers = await asyncio.gather(*(resolver(f"host{i}.test", 80) for i in range(8)))
    assert all("127.0.0.1" in a or "::1" in a for a in answers)
    assert most == 2

    hurried = BoundedResolver(threads=1, timeout_s=0.1)
    with pytest.raises(TimeoutError):
        await hurried("slow.test", 80)


class HoldingListener:
    """A service on loopback that accepts connections, echoes what it gets and records when each one closes."""

    def __init__(self) -> None:
        self.accepted = 0
        self.closed = 0
        self._server: asyncio.Server | None = None
        self.port = 0

    async def __aenter__(self) -> HoldingListener:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        try:
            while data := await reader.read(1024):
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            self.closed += 1
            writer.close()


async def tunnel(proxy_url: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    address, proxy_port = proxy_url.removeprefix("http://").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(address, int(proxy_port))
    writer.write(f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200")
    return reader, writer


async def test_a_silent_tunnel_is_closed_and_a_busy_one_is_not() -> None:
    proxy = EgressProxy(EgressPolicy(allow=("127.0.0.1",), idle_timeout_s=1.0))
    listener = await proxy.open_listener("tunnels")
    try:
        async with HoldingListener() as service:
            silent_reader, silent = await tunnel(listener.server_url, service.port)
            busy_reader, busy = await tunnel(listener.server_url, service.port)
            await eventually(lambda: service.accepted == 2, 5, "both tunnels reaching the service")
            started = time.monotonic()
            while time.monotonic() - started < 2.5:  # the busy one talks every 0.2 s for twice the idle bound
                busy.write(b"ping")
                assert await asyncio.wait_for(busy_reader.readexactly(4), 5) == b"ping"
                await asyncio.sleep(0.2)
            assert await asyncio.wait_for(silent_reader.read(), 5) == b"", "the silent tunnel was closed"
            await eventually(lambda: service.closed == 1, 5, "the service seeing the silent tunnel go")
            busy.write(b"still")
            assert await asyncio.wait_for(busy_reader.readexactly(5), 5) == b"still"
            for writer in (silent, busy):
                with contextlib.suppress(ConnectionError):
                    writer.close()
    finally:
        await proxy.close()


async def test_a_silent_relayed_connection_is_closed(internal: CountingListener) -> None:
    proxy = EgressProxy(EgressPolicy(allow=("127.0.0.1",), idle_timeout_s=1.0))
    listener = await proxy.open_listener("relay")
    try:
        address, port = listener.server_url.removeprefix("http://").rsplit(":", 1)
        reader, writer = await asyncio.open_connection(address, int(port))
        writer.write(f"GET {internal.url}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"secret"), 5)
        assert head.startswith(b"HTTP/1.1 200")
        # Kept alive and then silent: the proxy lets go of it after the idle bound.
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
    finally:
        await proxy.close()
