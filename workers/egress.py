"""The worker's side of the network firewall: the policy from settings, and what happens when it refuses."""

from __future__ import annotations

import logging

from django.conf import settings

from browser_pool.net import BlockedRequest, EgressPolicy

log = logging.getLogger(__name__)


def egress_policy() -> EgressPolicy:
    return EgressPolicy(
        allow=(*settings.HIVE_OWN_ORIGINS, *settings.HIVE_EGRESS_ALLOW),
        lookups_per_session=settings.HIVE_EGRESS_LOOKUPS_PER_SESSION,
        lookup_timeout_s=settings.HIVE_EGRESS_LOOKUP_TIMEOUT_S,
        idle_timeout_s=settings.HIVE_EGRESS_IDLE_TIMEOUT_S,
    )


_blocked_total = 0


def blocked_total() -> int:
    """Requests this worker process's firewall refused (reported in its heartbeat, read by /metrics)."""
    return _blocked_total


def egress_blocked(blocked: BlockedRequest) -> None:
    global _blocked_total
    _blocked_total += 1
    log.warning(
        "egress blocked for session %s: %s:%s (%s)", blocked.label or "-", blocked.host, blocked.port, blocked.reason
    )
