"""Which addresses the hosted browser may connect to.

The decision is taken on the address a connection really goes to, after name resolution: anything that is not a
public (globally routable) unicast address is refused — loopback, private ranges, link-local (the cloud metadata
service at 169.254.169.254 among them), CGNAT, multicast, unspecified, reserved, IPv6 unique-local and link-local,
and the IPv4 addresses hidden inside IPv6 (mapped, 6to4, Teredo, NAT64) are judged as the IPv4 address they carry.
Operators open holes with an explicit allow-list of hosts, `host:port` pairs and CIDR blocks (Hive's own demo
sites, a local test server); nothing is exempted by range.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], Awaitable[list[str]]]

RESOLVE_TIMEOUT_S = 5.0
# Threads for name look-ups, the whole process's: a look-up blocks its thread until the system resolver gives up,
# so they get a pool of their own, never the event loop's default executor that everything else shares.
RESOLVE_THREADS = 8
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class BoundedResolver:
    """The system resolver (getaddrinfo: /etc/hosts, DNS) on a few threads of its own, each look-up bounded in time.
    Look-ups past the thread count wait their turn within the same bound; the caller limits them per session."""

    def __init__(self, *, threads: int = RESOLVE_THREADS, timeout_s: float = RESOLVE_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None

    async def __call__(self, host: str, port: int) -> list[str]:
        """The host's addresses, in the resolver's order of preference."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="hive-dns")
        lookup = functools.partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
        async with asyncio.timeout(self.timeout_s):
            infos = await asyncio.get_running_loop().run_in_executor(self._pool, lookup)
        seen: dict[str, None] = {}
        for info in infos:
            seen.setdefault(str(info[4][0]).split("%", 1)[0], None)
        return list(seen)


system_resolver = BoundedResolver()


def literal_address(host: str) -> IPAddress | None:
    """The address a host names literally, in any spelling a browser accepts (127.1, 2130706433, 0x7f000001,
    0177.0.0.1, [::ffff:127.0.0.1], a trailing dot), or None for a name."""
    text = host.strip().rstrip(".").strip("[]").split("%", 1)[0]
    if not text:
        return None
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if all(c in "0123456789abcdefxABCDEFX." for c in text):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(text))  # the BSD parser browsers follow for IPv4 forms
        except OSError:
            return None
    return None


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def why_internal(ip: IPAddress, *, name_it: bool = True) -> str | None:
    """Why an address is not a public unicast one (None when it is). With `name_it` false the reason never
    spells the address: it is what a name resolved to, which is the host's business, not the page's."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None:
            reason = why_internal(inner)
            if reason is None:
                return None
            return f"{reason} (inside the IPv6 address {ip})" if name_it else f"{reason} (inside an IPv6 address)"
    checks = (
        (ip.is_unspecified, "an unspecified address"),
        (ip.is_loopback, "a loopback address"),
        (ip.is_link_local, "a link-local address (cloud metadata lives here)"),
        (ip.is_multicast, "a multicast address"),
        (isinstance(ip, ipaddress.IPv4Address) and ip in ipaddress.ip_network("100.64.0.0/10"), "a CGNAT address"),
        (isinstance(ip, ipaddress.IPv6Address) and ip in ipaddress.ip_network("fc00::/7"), "a unique-local address"),
        (ip.is_private, "a private-network address"),
        (ip.is_reserved, "a reserved address"),
        (not ip.is_global, "not a public address"),
    )
    return next((reason for hit, reason in checks if hit), None)


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    address: str = ""  # the checked address a connection must use
    reason: str = ""  # why it was refused, in words for the user and the model


@dataclass(frozen=True, slots=True)
class EgressPolicy:
    """Allow-list entries: "example.test" (any port), "127.0.0.1:8000", "[::1]:8000", "10.0.0.0/8",
    "http://127.0.0.1:8000" (an origin: its host and port).

    The proxy's bounds per session: at most `lookups_per_session` name look-ups at once, each answered (or refused)
    within `lookup_timeout_s`; a tunnel or relayed connection with no byte either way for `idle_timeout_s` closes.
    """

    allow: tuple[str, ...] = ()
    resolver: Resolver = field(default=system_resolver, compare=False)
    lookups_per_session: int = 4
    lookup_timeout_s: float = RESOLVE_TIMEOUT_S
    idle_timeout_s: float = 300.0
    _hosts: frozenset[tuple[str, int | None]] = field(init=False, repr=False, compare=False)
    _networks: tuple[IPNetwork, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        hosts, networks = parse_allow_list(self.allow)
        object.__setattr__(self, "_hosts", frozenset(hosts))
        object.__setattr__(self, "_networks", tuple(networks))

    def _listed(self, host: str, port: int, ip: IPAddress | None) -> bool:
        names = {host.lower().rstrip(".").strip("[]")}
        if ip is not None:
            names.add(str(ip))
            if any(ip in network for network in self._networks if network.version == ip.version):
                return True
        return any((name, None) in self._hosts or (name, port) in self._hosts for name in names)

    async def check(self, host: str, port: int) -> Verdict:
        """Resolve once and judge every address; a connection must then go to `Verdict.address` and nowhere else."""
        literal = literal_address(host)
        name = host.lower().rstrip(".")
        if literal is not None:
            addresses = [str(literal)]
        elif name == "localhost" or name.endswith(".localhost"):
            addresses = ["127.0.0.1"]  # browsers send every *.localhost name to loopback without asking DNS
        else:
            try:
                addresses = await self.resolver(host.rstrip("."), port)
            except (OSError, TimeoutError, UnicodeError) as exc:
                return Verdict(False, reason=f"{host} does not resolve ({exc.__class__.__name__}); refused")
            if not addresses:
                return Verdict(False, reason=f"{host} does not resolve; refused")
        for address in addresses:
            ip = ipaddress.ip_address(address)
            reason = why_internal(ip, name_it=literal is not None)
            if reason is not None and not self._listed(host, port, ip):
                # A name's internal address (redis is 172.18.0.3) is a map of the host's network: never said.
                said = f"{host} is {reason}" if literal is not None else f"{host} resolves to {reason}"
                return Verdict(False, address=address, reason=said)
        return Verdict(True, address=addresses[0])


def parse_allow_list(entries: Iterable[str]) -> tuple[set[tuple[str, int | None]], list[IPNetwork]]:
    hosts: set[tuple[str, int | None]] = set()
    networks: list[IPNetwork] = []
    for raw in entries:
        entry = raw.strip()
        if not entry:
            continue
        if "://" in entry:
            scheme, rest = entry.split("://", 1)
            hostport = rest.split("/", 1)[0].rsplit("@", 1)[-1]
            host, port = _split_host_port(hostport)
            hosts.add((host, port if port is not None else {"http": 80, "https": 443}.get(scheme.lower())))
            continue
        if "/" in entry:
            networks.append(ipaddress.ip_network(entry, strict=False))
            continue
        hosts.add(_split_host_port(entry))
    return hosts, networks


def _split_host_port(text: str) -> tuple[str, int | None]:
    text = text.strip().lower()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    literal = literal_address(host)
    return (str(literal) if literal is not None else host.rstrip(".")), (int(port) if port else None)
