"""Per-user quotas an operator sets (0 = no limit): runs per hour, live browser sessions at once, and tokens per day
on the server's own model. A refusal is a 429 that says which limit and when it resets.

A live session is a conversation's browser that is working (a run queued, running or waiting) or watched (a
websocket on it streams its live view, which keeps the session open on a worker). Both count against the owner's
`HIVE_QUOTA_CONCURRENT_SESSIONS`, checked when a run is created and when a socket asks to watch: one account
holding many sockets or many conversations cannot fill the workers' pools. Watching sockets are kept per owner in
`hive:live-sessions:<owner id>`, a sorted set of `<conversation id>|<channel name>` by when each was last seen, so a
web process that died leaves nothing counted for longer than the presence TTL.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

import redis
from django.conf import settings
from django.db.models import F, Sum
from django.utils import timezone
from rest_framework import status

from webapp.core import placement
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run

log = logging.getLogger(__name__)

LIVE_SESSIONS_PREFIX = "hive:live-sessions:"
# Atomically: forget stale sockets, count the owner's live conversations (working ones given in ARGV[6], watched
# ones in the set), and add this socket unless that would make one conversation too many. Returns -1 when added,
# else the count of live conversations.
_CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local live, count = {}, 0
for cid in string.gmatch(ARGV[6], '%d+') do
  if not live[cid] then live[cid] = true; count = count + 1 end
end
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local cid = string.match(member, '^(%d+)|')
  if cid and not live[cid] then live[cid] = true; count = count + 1 end
end
local limit = tonumber(ARGV[4])
if limit > 0 and not live[ARGV[3]] and count >= limit then return count end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3] .. '|' .. ARGV[7])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return -1
"""


class QuotaExceededError(ApplicationError):
    def __init__(self, message: str, *, limit: str, resets_at: datetime | None) -> None:
        super().__init__(message, status_code=status.HTTP_429_TOO_MANY_REQUESTS)
        self.extra = {"limit": limit, "resets_at": resets_at.isoformat() if resets_at else None}


def quota_check(*, owner_id: int, uses_server_model: bool, conversation_id: int | None = None) -> None:
    """Raise QuotaExceededError when a new run for this owner (in `conversation_id`) would go past a limit."""
    now = timezone.now()
    runs = Run.objects.filter(conversation__owner_id=owner_id)
    per_hour = settings.HIVE_QUOTA_RUNS_PER_HOUR
    if per_hour:
        recent = runs.filter(created_at__gte=now - timedelta(hours=1)).order_by("created_at")
        if recent.count() >= per_hour:
            first = recent.first()
            resets = first.created_at + timedelta(hours=1) if first else None
            raise QuotaExceededError(
                f"You have started {per_hour} runs in the last hour, the most this server allows; "
                f"the next one can start at {_when(resets)}.",
                limit="runs_per_hour",
                resets_at=resets,
            )
    sessions = settings.HIVE_QUOTA_CONCURRENT_SESSIONS
    if sessions:
        live = _working_conversations(owner_id) | _watched_conversations(owner_id)
        if conversation_id not in live and len(live) >= sessions:
            raise QuotaExceededError(
                f"{sessions} of your conversations have live browsers already (working, or open in a dashboard), "
                "the most this server allows at once; wait for one to finish, stop it, or close it.",
                limit="concurrent_sessions",
                resets_at=None,
            )
    tokens = settings.HIVE_QUOTA_TOKENS_PER_DAY
    if tokens and uses_server_model:
        since = now - timedelta(days=1)
        used = (
            runs.filter(created_at__gte=since, conversation__model_profile__isnull=True)
            .aggregate(total=Sum(F("prompt_tokens") + F("completion_tokens")))
            .get("total")
            or 0
        )
        if used >= tokens:
            oldest = runs.filter(created_at__gte=since).order_by("created_at").first()
            resets = oldest.created_at + timedelta(days=1) if oldest else None
            raise QuotaExceededError(
                f"You have used {used:,} tokens of the server's model in the last 24 hours (the limit is {tokens:,}); "
                f"more from {_when(resets)}, or add a model profile of your own in Settings.",
                limit="tokens_per_day",
                resets_at=resets,
            )


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "later"


def queue_check() -> None:
    """Beyond what the workers can take, runs wait in a queue of bounded length; a run past it is refused (429)
    instead of waiting for longer than anyone would."""
    limit = settings.HIVE_QUEUE_LIMIT
    if limit and Run.objects.filter(status=Run.Status.QUEUED).count() >= limit:
        raise QuotaExceededError(
            f"Hive is at capacity: {limit} runs are already waiting for a browser. Try again in a minute.",
            limit="queue",
            resets_at=None,
        )


def _working_conversations(owner_id: int) -> set[int]:
    active = Run.objects.filter(conversation__owner_id=owner_id, status__in=Run.ACTIVE)
    return set(active.values_list("conversation_id", flat=True).distinct())


def _live_key(owner_id: int) -> str:
    return f"{LIVE_SESSIONS_PREFIX}{owner_id}"


def _watched_conversations(owner_id: int) -> set[int]:
    """The owner's conversations a socket watches now; none while Redis is away (a run then waits in the queue,
    and sockets cannot register either)."""
    key = _live_key(owner_id)
    try:
        with placement.client().pipeline() as pipe:
            pipe.zremrangebyscore(key, "-inf", time.time() - settings.HIVE_PRESENCE_TTL_S)
            pipe.zrange(key, 0, -1)
            members = pipe.execute()[1]
    except redis.RedisError as exc:
        log.warning("could not read the live sessions of user %s: %r", owner_id, exc)
        return set()
    return {int(member.split(b"|", 1)[0]) for member in members}


def live_session_claim(*, owner_id: int, conversation_id: int, channel_name: str) -> None:
    """Count a socket that wants to watch the conversation's live browser against its owner's quota; raise
    QuotaExceededError (nothing counted) when its browser would be one live session too many."""
    now = time.time()
    working = ",".join(str(cid) for cid in _working_conversations(owner_id))
    limit = settings.HIVE_QUOTA_CONCURRENT_SESSIONS
    script = placement.client().register_script(_CLAIM)
    args = [now, now - settings.HIVE_PRESENCE_TTL_S, conversation_id, limit, settings.HIVE_PRESENCE_TTL_S, working]
    count = int(script(keys=[_live_key(owner_id)], args=[*args, channel_name]))
    if count >= 0:
        raise QuotaExceededError(
            f"{count} of this account's conversations have live browsers already (working, or open in a dashboard), "
            f"the most this server allows at once ({limit}). This one shows its messages and steps, and its live "
            "browser as soon as one of the others is closed or finishes.",
            limit="concurrent_sessions",
            resets_at=None,
        )


def live_session_seen(*, owner_id: int, conversation_id: int, channel_name: str) -> None:
    """The watching socket is still there: keep it counted past the presence TTL."""
    key = _live_key(owner_id)
    with placement.client().pipeline() as pipe:
        pipe.zadd(key, {f"{conversation_id}|{channel_name}": time.time()}, xx=True)
        pipe.expire(key, settings.HIVE_PRESENCE_TTL_S)
        pipe.execute()


def live_session_release(*, owner_id: int, conversation_id: int, channel_name: str) -> None:
    placement.client().zrem(_live_key(owner_id), f"{conversation_id}|{channel_name}")
