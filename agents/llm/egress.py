"""Requests the server makes for a user (their model's base URL) pass the same address policy as the browser.

The check is made when a connection opens, on the address it opens to: the name is resolved once, every address
judged (`browser_pool.net.EgressPolicy`), and the connection goes to the checked address; TLS still verifies the
certificate against the name. A refused connection surfaces as the SDK's connection error, with the reason.
"""

from __future__ import annotations

import asyncio
import typing
from urllib.parse import urlsplit

import httpcore2 as httpcore  # the HTTP stack of openai 3 (a maintained fork of httpx)
import httpx2 as httpx

from browser_pool.net.policy import EgressPolicy


class EgressRefusedError(httpcore.ConnectError):
    pass


def url_problem(url: str) -> str | None:
    """Why a model base URL is unusable on its face (scheme, host), or None."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https"):
        return f"only http and https model URLs are allowed, not {parts.scheme or 'no scheme'}:"
    if not parts.hostname:
        return "the URL has no host"
    return None


class _GuardedAsyncBackend(httpcore.AsyncNetworkBackend):
    def __init__(self, policy: EgressPolicy, inner: httpcore.AsyncNetworkBackend) -> None:
        self._policy = policy
        self._inner = inner

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's interface
        local_address: str | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        verdict = await self._policy.check(host, port)
        if not verdict.allowed:
            raise EgressRefusedError(f"Blocked by Hive's network firewall: {verdict.reason}")
        return await self._inner.connect_tcp(
            verdict.address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise EgressRefusedError("unix sockets are not reachable")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _GuardedSyncBackend(httpcore.NetworkBackend):
    def __init__(self, policy: EgressPolicy, inner: httpcore.NetworkBackend) -> None:
        self._policy = policy
        self._inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.NetworkStream:
        verdict = asyncio.run(self._policy.check(host, port))  # sync callers (Django views) run no loop here
        if not verdict.allowed:
            raise EgressRefusedError(f"Blocked by Hive's network firewall: {verdict.reason}")
        return self._inner.connect_tcp(
            verdict.address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: typing.Iterable[typing.Any] | None = None
    ) -> httpcore.NetworkStream:
        raise EgressRefusedError("unix sockets are not reachable")


def guarded_async_client(policy: EgressPolicy, *, timeout_s: float) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport()
    # httpx builds its httpcore pool without a way to pass a network backend; the pool takes it as this attribute.
    pool = transport._pool
    pool._network_backend = _GuardedAsyncBackend(policy, pool._network_backend)
    return httpx.AsyncClient(transport=transport, timeout=timeout_s)


def guarded_client(policy: EgressPolicy, *, timeout_s: float) -> httpx.Client:
    transport = httpx.HTTPTransport()
    pool = transport._pool
    pool._network_backend = _GuardedSyncBackend(policy, pool._network_backend)
    return httpx.Client(transport=transport, timeout=timeout_s)
