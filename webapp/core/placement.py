"""Where a conversation's browser session lives, and which queue its work goes to.

Workers heartbeat their id, queue, capacity and load under `hive:worker:<id>` (with a TTL). A worker that
holds a conversation's session records itself under `hive:session-home:<conversation id>`. Work for a
conversation goes to its home worker's own queue while that worker is alive; otherwise to the
least-loaded live worker, which restores the session from its last save; with no live worker at all,
to the shared queue, where the first worker to start picks it up.
"""

from __future__ import annotations

import json
import re
from typing import TypedDict

import redis
from django.conf import settings

WORKER_KEY_PREFIX = "hive:worker:"
SESSION_HOME_PREFIX = "hive:session-home:"
VIEWERS_PREFIX = "hive:viewers:"
ASSIGNED_PREFIX = "hive:assigned:"  # conversations placed on a worker since its last heartbeat
SHARED_QUEUE = "hive"

_clients: dict[str, redis.Redis] = {}


def client() -> redis.Redis:
    url = settings.REDIS_URL
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return _clients[url]


def worker_queue(worker_id: str) -> str:
    return "hive.worker." + re.sub(r"[^\w.@-]", "-", worker_id)


def session_home_key(conversation_id: int | str) -> str:
    return f"{SESSION_HOME_PREFIX}{conversation_id}"


def viewers_key(conversation_id: int | str) -> str:
    return f"{VIEWERS_PREFIX}{conversation_id}"


class WorkerLoad(TypedDict):
    """A worker's heartbeat (workers.runtime), read back here to place work and by health checks and metrics."""

    id: str
    queue: str
    capacity: int
    sessions: int  # live browser sessions
    turns: int  # runs in progress
    egress_blocked: int  # requests its network firewall refused so far
    ts: float  # time.time()


def alive_workers() -> dict[str, WorkerLoad]:
    conn = client()
    keys = list(conn.scan_iter(match=WORKER_KEY_PREFIX + "*", count=500))
    if not keys:
        return {}
    workers: dict[str, WorkerLoad] = {}
    for key, raw in zip(keys, conn.mget(keys), strict=True):
        if raw is None:
            continue
        try:
            info = json.loads(raw)
        except ValueError:
            continue
        workers[key.decode().removeprefix(WORKER_KEY_PREFIX)] = info
    return workers


def _load_ratio(info: WorkerLoad, assigned: int = 0) -> tuple[float, int]:
    capacity = max(1, int(info.get("capacity") or 1))
    return ((int(info.get("sessions") or 0) + assigned) / capacity, int(info.get("turns") or 0))


def session_home(conversation_id: int) -> str | None:
    raw = client().get(session_home_key(conversation_id))
    if not raw:
        return None
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def queue_for_conversation(conversation_id: int) -> str:
    workers = alive_workers()
    home = session_home(conversation_id)
    if home and home in workers:
        return str(workers[home].get("queue") or worker_queue(home))
    if not workers:
        return SHARED_QUEUE
    # The loads come from heartbeats seconds old: alone they would send every new conversation of a burst to the
    # same worker. Conversations placed since its last heartbeat count as sessions it is about to hold.
    conn = client()
    ids = sorted(workers)
    recent = conn.mget([ASSIGNED_PREFIX + worker_id for worker_id in ids])
    chosen_id = min(ids, key=lambda wid: _load_ratio(workers[wid], int(recent[ids.index(wid)] or 0)))
    chosen = workers[chosen_id]
    with conn.pipeline() as pipe:
        pipe.incr(ASSIGNED_PREFIX + chosen_id)
        pipe.expire(ASSIGNED_PREFIX + chosen_id, int(settings.HIVE_WORKER_HEARTBEAT_S) + 1)
        # Its next runs go there too, before the worker has opened the session and recorded it.
        pipe.set(session_home_key(conversation_id), chosen_id, nx=True)
        pipe.execute()
    return str(chosen.get("queue") or worker_queue(chosen_id))
