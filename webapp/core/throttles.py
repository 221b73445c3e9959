"""Rate limits per user (per address before signing in) on the writes that cost the server: runs, actions, tool
calls, sign-ups and sign-ins. Reads are never throttled."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle


class WriteThrottle(ScopedRateThrottle):
    """DRF's scoped throttle (the view's `throttle_scope`), for unsafe methods only."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
