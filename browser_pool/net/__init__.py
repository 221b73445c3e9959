"""The hosted browser's network firewall: an address policy and the filtering proxy that enforces it."""

from browser_pool.net.policy import EgressPolicy, Verdict, literal_address, system_resolver, why_internal
from browser_pool.net.proxy import BlockedRequest, EgressProxy, ProxyListener, listener_for

__all__ = [
    "BlockedRequest",
    "EgressPolicy",
    "EgressProxy",
    "ProxyListener",
    "Verdict",
    "listener_for",
    "literal_address",
    "system_resolver",
    "why_internal",
]
