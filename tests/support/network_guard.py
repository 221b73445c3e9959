"""Fail any test that would reach a real model service (or anything else off this machine).

Tests may talk to loopback only: the scripted model server, Redis, Daphne, Chromium. A connection to
any other address is refused and recorded; the test that made it fails.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

violations: list[str] = []
_original_connect = socket.socket.connect
_original_connect_ex = socket.socket.connect_ex


def _is_local(address: Any) -> bool:
    if not isinstance(address, tuple):  # unix sockets
        return True
    host = str(address[0])
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check(sock: socket.socket, address: Any) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(address):
        violations.append(repr(address))
        raise ConnectionRefusedError(f"Hive's test guard refused a connection off this machine: {address!r}")


def _guarded_connect(self: socket.socket, address: Any) -> None:
    _check(self, address)
    return _original_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    _check(self, address)
    return _original_connect_ex(self, address)


def install() -> None:
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign,assignment]


def subprocess_env() -> dict[str, str]:
    """Environment for servers the tests start: no real model credentials, and a dead proxy for anything
    that is not loopback, so a stray call to a real model service fails there too."""
    return {
        "HTTP_PROXY": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "ALL_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1,localhost,::1",
        "OPENAI_API_KEY": "",
        "OPENAI_BASE_URL": "",
    }
