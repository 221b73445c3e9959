"""The address of the client a request comes from, as the operator's reverse proxies define it.

Every limit keyed on an address (the throttles before sign-in, the sign-in lockout) asks here. With no proxy
configured the client is the peer of the connection and `X-Forwarded-For` is ignored: a client that sends its own
header cannot pick the key it is counted under. Behind proxies the operator names them, by count
(`HIVE_NUM_PROXIES`) or by address, nearest last (`HIVE_TRUSTED_PROXIES`); the connection's peer is the nearest
proxy, so it is put at the end of the forwarded chain, and python-ipware takes the client at the position those
proxies fix. Addresses a client wrote further left are never read.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from python_ipware import IpWare

FORWARDED_FOR = "HTTP_X_FORWARDED_FOR"


def client_address(request: Any) -> str:
    """The client's address for a Django request (or anything with a `META` mapping)."""
    meta = request.META
    peer = str(meta.get("REMOTE_ADDR") or "")
    proxies: list[str] = list(settings.HIVE_TRUSTED_PROXIES)
    count: int = settings.HIVE_NUM_PROXIES
    if not proxies and not count:
        return peer
    forwarded = str(meta.get(FORWARDED_FOR) or "").strip()
    chain = f"{forwarded}, {peer}" if forwarded else peer
    resolver = IpWare(precedence=(FORWARDED_FOR,), proxy_count=count or None, proxy_list=proxies or None)
    # Not strict: a chain longer than the proxies (what the client wrote itself) is fine, its left part is ignored.
    # A chain shorter than them, or whose last hops are not the trusted proxies, did not come through them: the peer.
    address, _ = resolver.get_client_ip({FORWARDED_FOR: chain}, strict=False)
    return str(address) if address is not None else peer
