"""Celery tasks: thin. They take ids and hand the work to the worker's loop."""

from __future__ import annotations

import time
from typing import Any

from webapp.core.retention import retention_prune
from webapp.workflows.models import WebhookDelivery
from webapp.workflows.schedules import schedule_fire
from webapp.workflows.webhooks import deliver, retry_delay_s
from workers.celery_app import app
from workers.limits import time_limits
from workers.reaper import reap_once
from workers.runtime import runtime_get


@app.task(name="workers.tasks.run_turn", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def run_turn(run_id: int) -> None:
    runtime_get().run_turn(run_id, timeout=time_limits().turn_task_s)


@app.task(name="workers.tasks.run_action", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def run_action(run_id: int) -> None:
    runtime_get().run_action(run_id, timeout=time_limits().action_task_s)


@app.task(name="workers.tasks.run_workflow", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def run_workflow(run_id: int) -> None:
    runtime_get().run_workflow(run_id, timeout=time_limits().turn_task_s)


@app.task(name="workers.tasks.deliver_webhook", bind=True, ignore_result=True, time_limit=60, max_retries=None)
def deliver_webhook(self: Any, delivery_id: int) -> None:
    """One attempt; a failed one is tried again later (exponential backoff) until the attempts run out."""
    if not deliver(delivery_id):
        attempts = WebhookDelivery.objects.get(pk=delivery_id).attempts
        raise self.retry(countdown=retry_delay_s(attempts))


@app.task(name="workers.tasks.run_scheduled_workflow", ignore_result=True, time_limit=60)
def run_scheduled_workflow(schedule_id: int) -> None:
    """Sent by Celery beat at a schedule's time: the replay itself is queued like any other run."""
    schedule_fire(schedule_id=schedule_id)


@app.task(name="workers.tasks.open_session", ignore_result=True, time_limit=120)
def open_session(conversation_id: int) -> None:
    runtime_get().open_session(conversation_id, timeout=60)


@app.task(name="workers.tasks.extract_tab", ignore_result=True, time_limit=120)
def extract_tab(conversation_id: int, tab_id: str) -> None:
    runtime_get().extract_tab(conversation_id, tab_id, timeout=90)


@app.task(name="workers.tasks.profile_capture", ignore_result=True, time_limit=120)
def profile_capture(conversation_id: int, name: str, replace: bool, reply: str, answer_by: float) -> None:
    """Save a conversation's browser as a profile; the web request waits for the answer until `answer_by`."""
    if time.time() < answer_by:  # past it, the request has answered already that nobody did it
        runtime_get().capture_profile(conversation_id, name, replace, reply, answer_by)


@app.task(name="workers.tasks.prune", ignore_result=True, time_limit=3600)
def prune() -> None:
    retention_prune()


@app.task(name="workers.tasks.reap", ignore_result=True, time_limit=120)
def reap() -> None:
    reap_once()
