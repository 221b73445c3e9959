"""URL match patterns in Chrome-extension syntax: ``<scheme>://<host>[:<port>]<path>`` with ``*`` wildcards, or
``<all_urls>``. Pure functions, no Django.

- scheme: ``http``, ``https``, ``file``, ``ftp``, or ``*`` (http or https only).
- host: ``*`` (any host), ``*.example.com`` (example.com and its subdomains) or an exact host; empty for
  ``file``. A ``*`` anywhere else in the host is an error.
- port (optional): digits or ``*``; without one any port matches (as in Chrome).
- path: starts with ``/``; each ``*`` matches any run of characters. It is matched against the URL's path and
  query string (not the fragment), as Chrome does for content scripts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

ALL_URLS = "<all_urls>"
SCHEMES = ("http", "https", "file", "ftp")
_WILDCARD_SCHEMES = ("http", "https")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}
_HOST_CHARS = re.compile(r"^[a-z0-9._~!$&'()+,;=%-]+$|^\[[0-9a-f:.]+\]$")


@dataclass(frozen=True, slots=True)
class MatchPattern:
    source: str
    schemes: tuple[str, ...]
    host: str | None  # None: any host
    subdomains: bool  # "*.example.com" also matches "a.b.example.com"
    port: int | None  # None: any port
    path: re.Pattern[str] | None  # None: any path (<all_urls>)

    def matches(self, url: str) -> bool:
        try:
            parts = urlsplit(url.strip())
            port = parts.port
        except ValueError:
            return False
        scheme = parts.scheme.lower()
        if scheme not in self.schemes:
            return False
        if self.host is not None:
            host = (parts.hostname or "").rstrip(".")
            if not (host == self.host or (self.subdomains and host.endswith("." + self.host))):
                return False
        if self.port is not None and (port or _DEFAULT_PORTS.get(scheme)) != self.port:
            return False
        if self.path is None:
            return True
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return self.path.fullmatch(target) is not None


def parse_pattern(pattern: str) -> MatchPattern:
    """Parse one match pattern; a ValueError says what is wrong with it."""
    if not isinstance(pattern, str):
        raise ValueError(f"A match pattern must be a string, not {type(pattern).__name__}.")
    return _parse(pattern)


@functools.lru_cache(maxsize=1024)
def _parse(pattern: str) -> MatchPattern:
    if pattern == ALL_URLS:
        return MatchPattern(pattern, SCHEMES, None, False, None, None)
    if pattern != pattern.strip() or not pattern:
        raise ValueError(f"Match pattern {pattern!r} must not be empty or have spaces around it.")
    scheme, sep, rest = pattern.partition("://")
    if not sep:
        raise ValueError(f"Match pattern {pattern!r} has no '://': write <scheme>://<host><path>, e.g. https://*/*.")
    if scheme == "*":
        schemes: tuple[str, ...] = _WILDCARD_SCHEMES
    elif scheme in SCHEMES:
        schemes = (scheme,)
    else:
        raise ValueError(f"Match pattern {pattern!r} has scheme {scheme!r}: use one of *, {', '.join(SCHEMES)}.")
    slash = rest.find("/")
    if slash < 0:
        raise ValueError(f"Match pattern {pattern!r} has no path: add one starting with '/', e.g. '/*'.")
    authority, path = rest[:slash], rest[slash:]
    host, port = _split_port(pattern, authority)
    if scheme == "file":
        if authority:
            raise ValueError(f"Match pattern {pattern!r}: file patterns have no host (file:///path).")
        return MatchPattern(pattern, schemes, None, False, None, _path_regex(path))
    if not host:
        raise ValueError(f"Match pattern {pattern!r} has no host: use '*' for any host.")
    subdomains = False
    if host == "*":
        return MatchPattern(pattern, schemes, None, False, port, _path_regex(path))
    if host.startswith("*."):
        host, subdomains = host[2:], True
    if "*" in host:
        raise ValueError(
            f"Match pattern {pattern!r}: '*' in the host must be the whole host or its first part ('*.example.com')."
        )
    if not _HOST_CHARS.match(host) or host.startswith(".") or ".." in host:
        raise ValueError(f"Match pattern {pattern!r} has an invalid host {host!r}.")
    if host.startswith("["):
        host = host[1:-1]
    return MatchPattern(pattern, schemes, host.rstrip("."), subdomains, port, _path_regex(path))


def _split_port(pattern: str, authority: str) -> tuple[str, int | None]:
    host, port = authority.lower(), ""
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            raise ValueError(f"Match pattern {pattern!r} has an unclosed '[' in its host.")
        host, after = host[: end + 1], host[end + 1 :]
        if after and not after.startswith(":"):
            raise ValueError(f"Match pattern {pattern!r} has characters after its IPv6 host.")
        port = after[1:]
        if not after:
            return host, None
    elif ":" in host:
        host, _, port = host.partition(":")
    else:
        return host, None
    if port == "*":
        return host, None
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"Match pattern {pattern!r} has an invalid port {port!r}: use digits or '*'.")
    return host, int(port)


def _path_regex(path: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(piece) for piece in path.split("*")), re.DOTALL)


def url_matches(patterns: Iterable[str], url: str) -> bool:
    """Whether ``url`` matches any of ``patterns`` (which must be valid; see ``parse_pattern``)."""
    return any(parse_pattern(pattern).matches(url) for pattern in patterns)
