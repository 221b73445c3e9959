"""Saving a conversation's browser as a profile: the worker holding the session (or restoring it) saves it as it is
now and keeps it as the profile; this side waits for its answer on a Redis list made for the one request. Only the
answer travels through Redis (the profile's id or a refusal), never the state itself."""

from __future__ import annotations

import json
import time
import uuid

import redis
from django.conf import settings
from rest_framework import status

from webapp.conversations.models import Conversation
from webapp.core import placement
from webapp.core.exceptions import ApplicationError
from webapp.core.queue import enqueue
from webapp.profiles.models import BrowserProfile
from webapp.profiles.selectors import holder_text, profile_holder
from webapp.profiles.services import profile_name_clean

CAPTURE_TASK = "workers.tasks.profile_capture"
REPLY_PREFIX = "hive:profile-capture:"
NO_ANSWER = "No browser worker answered in time: try again in a moment."
NO_WORKER = "No browser worker is running: the browser cannot be saved now."


def profile_capture(*, conversation: Conversation, name: str, replace: bool) -> BrowserProfile:
    """The conversation's browser (cookies, local storage, IndexedDB) as its owner's profile `name`."""
    name = profile_name_clean(name)
    existing = BrowserProfile.objects.filter(owner_id=conversation.owner_id, name=name).first()
    if existing is not None and not replace:
        raise ApplicationError(f"You already have a profile named “{name}”: replace it, or choose another name.")
    holder = profile_holder(profile=existing, besides=conversation.pk) if existing is not None else None
    if existing is not None and holder is not None:
        raise ApplicationError(holder_text(existing.name, holder), status_code=status.HTTP_409_CONFLICT)
    wait_s = settings.HIVE_PROFILE_CAPTURE_WAIT_S
    reply = REPLY_PREFIX + uuid.uuid4().hex
    try:
        if not placement.alive_workers():
            raise ApplicationError(NO_WORKER, status_code=status.HTTP_503_SERVICE_UNAVAILABLE)
        queue = placement.queue_for_conversation(conversation.pk)
        enqueue(CAPTURE_TASK, conversation.pk, name, replace, reply, time.time() + wait_s, queue=queue)
        # A connection of its own: the shared client's socket timeout is shorter than this wait.
        with redis.Redis.from_url(settings.REDIS_URL, socket_timeout=wait_s + 5, socket_connect_timeout=2) as conn:
            answer = conn.blpop([reply], timeout=max(1, round(wait_s)))
    except redis.RedisError as exc:
        raise ApplicationError(NO_ANSWER, status_code=status.HTTP_503_SERVICE_UNAVAILABLE) from exc
    if answer is None:
        raise ApplicationError(NO_ANSWER, status_code=status.HTTP_503_SERVICE_UNAVAILABLE)
    outcome = json.loads(answer[1])
    if "error" in outcome:
        raise ApplicationError(str(outcome["error"]), status_code=int(outcome.get("status", 400)))
    return BrowserProfile.objects.get(pk=int(outcome["profile"]))
