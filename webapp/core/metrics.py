"""Prometheus metrics at /metrics, behind a bearer token (`HIVE_METRICS_TOKEN`; without one the endpoint is off).

Workers are separate processes, possibly on other machines, so nothing is kept in this process's memory: each
scrape reads the figures where they already live — runs, steps, model calls and tokens in the database; pool
sessions, queue depths and the firewall's refusals from Redis (each worker's heartbeat carries its own counts).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from webapp.core import placement
from webapp.runs.models import ModelCall, Run, Step

LATENCY_BUCKETS_MS = (50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000)


def _histogram(name: str, documentation: str, queryset: QuerySet[Any], field: str) -> HistogramMetricFamily:
    """A histogram (in seconds) of the durations stored in `field` (milliseconds), counted by the database."""
    counts = queryset.aggregate(
        total=Count("pk", filter=Q(**{f"{field}__isnull": False})),
        summed=Sum(field),
        **{f"le_{bound}": Count("pk", filter=Q(**{f"{field}__lte": bound})) for bound in LATENCY_BUCKETS_MS},
    )
    buckets = [(str(bound / 1000), counts[f"le_{bound}"]) for bound in LATENCY_BUCKETS_MS]
    buckets.append(("+Inf", counts["total"]))
    return HistogramMetricFamily(name, documentation, buckets=buckets, sum_value=(counts["summed"] or 0) / 1000)


class HiveCollector(Collector):
    def collect(self) -> Iterator[Metric]:
        runs = GaugeMetricFamily("hive_runs", "Runs by status.", labels=["status"])
        by_status = dict(Run.objects.values_list("status").annotate(n=Count("pk")))
        for status in Run.Status.values:
            runs.add_metric([status], by_status.get(status, 0))
        yield runs
        tokens = CounterMetricFamily("hive_tokens", "Model tokens used by runs (all endings).", labels=["kind"])
        used = Run.objects.aggregate(prompt=Sum("prompt_tokens"), completion=Sum("completion_tokens"))
        tokens.add_metric(["prompt"], used["prompt"] or 0)
        tokens.add_metric(["completion"], used["completion"] or 0)
        yield tokens
        yield _histogram("hive_step_duration_seconds", "How long steps took.", Step.objects.all(), "duration_ms")
        yield _histogram(
            "hive_model_call_duration_seconds", "How long model calls took.", ModelCall.objects.all(), "duration_ms"
        )
        yield from self._from_redis()

    def _from_redis(self) -> Iterator[Metric]:
        sessions = GaugeMetricFamily("hive_pool_sessions", "Browser sessions per worker.", labels=["worker", "state"])
        blocked = CounterMetricFamily(
            "hive_egress_blocked", "Requests the network firewall refused, per worker process.", labels=["worker"]
        )
        depth = GaugeMetricFamily("hive_queue_depth", "Tasks waiting in a Celery queue.", labels=["queue"])
        workers = GaugeMetricFamily("hive_workers", "Workers heartbeating.")
        try:
            alive = placement.alive_workers()
            client = placement.client()
            queues = [placement.SHARED_QUEUE, *(str(info.get("queue") or "") for info in alive.values())]
            lengths = {queue: int(client.llen(queue)) for queue in queues if queue}
        except Exception:  # Redis away: the database figures above still answer
            return
        workers.add_metric([], len(alive))
        for worker_id, info in alive.items():
            capacity, live = int(info.get("capacity") or 0), int(info.get("sessions") or 0)
            sessions.add_metric([worker_id, "in_use"], live)
            sessions.add_metric([worker_id, "free"], max(0, capacity - live))
            blocked.add_metric([worker_id], int(info.get("egress_blocked") or 0))
        for queue, length in lengths.items():
            depth.add_metric([queue], length)
        yield from (workers, sessions, blocked, depth)


_REGISTRY = CollectorRegistry(auto_describe=False)
_REGISTRY.register(HiveCollector())


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    token = settings.HIVE_METRICS_TOKEN
    if not token:
        return JsonResponse({"detail": "Metrics are off: set HIVE_METRICS_TOKEN to turn them on."}, status=404)
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), token.encode()):
        return JsonResponse({"detail": "Send Authorization: Bearer <HIVE_METRICS_TOKEN>."}, status=401)
    return HttpResponse(generate_latest(_REGISTRY), content_type="text/plain; version=0.0.4; charset=utf-8")
