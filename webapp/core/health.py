"""Health for orchestrators: `/healthz` says the web process answers; `/readyz` says it can do work — the database
and Redis answer, and at least one worker heartbeats with room for another session. JSON either way, 503 when not
ready, so a load balancer or compose can act on it."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from webapp.core import placement


class Check(TypedDict):
    ok: bool
    error: NotRequired[str]  # the exception's class, when it failed
    alive: NotRequired[int]  # workers heartbeating
    free_sessions: NotRequired[int]  # room for more browser sessions, over every live worker


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True}


def _redis() -> Check:
    try:
        placement.client().ping()
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True}


def _workers() -> Check:
    try:
        alive = placement.alive_workers()
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__, "alive": 0, "free_sessions": 0}
    free = sum(max(0, int(info.get("capacity") or 0) - int(info.get("sessions") or 0)) for info in alive.values())
    return {"ok": bool(alive) and free > 0, "alive": len(alive), "free_sessions": free}


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "redis": _redis(), "workers": _workers()}
    ready = all(check["ok"] for check in checks.values())
    return JsonResponse({"ready": ready, "checks": checks}, status=200 if ready else 503)
