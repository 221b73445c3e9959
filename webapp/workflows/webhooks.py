"""Completion webhooks: when a replay ends, its workflow's URL gets a signed POST, retried with backoff, every
attempt in the delivery log.

The request is signed like this: `X-Hive-Timestamp: <unix seconds>` and
`X-Hive-Signature-256: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" under the workflow's secret>`; a receiver
recomputes it and compares in constant time (and may refuse old timestamps). The POST goes out through the same
network firewall as the browser: an internal address is refused unless the operator allowed it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agents.llm.egress import guarded_client
from browser_pool.net.policy import EgressPolicy
from webapp.conversations.file_selectors import files_of_run
from webapp.core.crypto import decrypt, encrypt
from webapp.core.queue import enqueue
from webapp.runs.models import Run
from webapp.sharing.selectors import conversations_visible
from webapp.workflows.models import WebhookDelivery, Workflow
from webapp.workflows.selectors import parameters_shown, workflow_of_run, workflow_secret_names
from webapp.workflows.types import WebhookExtra, WebhookPayload

DELIVER_TASK = "workers.tasks.deliver_webhook"
EVENT = "workflow.run.finished"
# A scheduled replay waits for the owner's yes (its schedule says "wait").
CONFIRMATION_EVENT = "workflow.run.confirmation_requested"
# The agent (healing a replay's step) asks for a person to take over the browser.
PERSON_EVENT = "workflow.run.person_wanted"
TIMEOUT_S = 10.0


def sign(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


@transaction.atomic
def webhook_set(*, workflow: Workflow, url: str) -> str:
    """Point the workflow's webhook at `url` with a new secret, returned this once."""
    secret = secrets.token_urlsafe(32)
    workflow.webhook_url = url
    workflow.webhook_secret = encrypt(secret)
    workflow.save(update_fields=["webhook_url", "webhook_secret", "updated_at"])
    return secret


def webhook_remove(*, workflow: Workflow) -> None:
    workflow.webhook_url = ""
    workflow.webhook_secret = ""
    workflow.save(update_fields=["webhook_url", "webhook_secret", "updated_at"])


def _payload(run: Run, workflow: Workflow, delivery_id: int, event: str) -> WebhookPayload:
    return {
        "event": event,
        "delivery": delivery_id,
        "workflow": {"id": workflow.pk, "name": workflow.name, "version": run.metadata.get("version")},
        "run": {
            "id": run.pk,
            "conversation": run.conversation_id,
            "status": run.status,
            "error": run.error,
            "started_at": run.started_at.isoformat() if run.started_at else None,
            "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        },
        "parameters": parameters_shown(run.metadata.get("parameters") or {}, workflow_secret_names(workflow=workflow)),
        "outputs": run.metadata.get("outputs") or {},
        "downloads": files_of_run(run_id=run.pk, absolute=True),
    }


def delivery_schedule(*, run: Run, event: str = EVENT, extra: WebhookExtra | None = None) -> WebhookDelivery | None:
    """On a replay's end (or another event of it): record the delivery and send it after the commit.

    The webhook is the workflow owner's, so it hears of the replays the owner may see: those in conversations they
    own or have a share of. A teammate's replay in their own conversation (its parameters, what it read, where it
    ended) stays theirs, as it does in the owner's list of replays."""
    workflow = workflow_of_run(run=run)
    if workflow is None or not workflow.webhook_url:
        return None
    if not conversations_visible(user=workflow.owner).filter(pk=run.conversation_id).exists():
        return None
    delivery = WebhookDelivery.objects.create(workflow=workflow, run=run, url=workflow.webhook_url, payload={})
    payload: WebhookPayload = {**_payload(run, workflow, delivery.pk, event), **(extra or {})}
    delivery.payload = payload
    delivery.save(update_fields=["payload"])
    transaction.on_commit(lambda: enqueue(DELIVER_TASK, delivery.pk))
    return delivery


def deliver(delivery_id: int) -> bool:
    """One attempt; True when the receiver took it (2xx). Every attempt is logged on the delivery."""
    delivery = WebhookDelivery.objects.select_related("workflow").get(pk=delivery_id)
    if delivery.status == WebhookDelivery.Status.DELIVERED:
        return True
    body = json.dumps(delivery.payload, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Hive-Webhook/1",
        "X-Hive-Event": str(delivery.payload.get("event", EVENT)),
        "X-Hive-Delivery": str(delivery.pk),
        "X-Hive-Timestamp": timestamp,
        "X-Hive-Signature-256": sign(decrypt(delivery.workflow.webhook_secret), timestamp, body),
    }
    started = time.monotonic()
    status_code, error = None, ""
    try:
        with guarded_client(EgressPolicy(allow=tuple(settings.HIVE_EGRESS_ALLOW)), timeout_s=TIMEOUT_S) as client:
            response = client.post(delivery.url, content=body, headers=headers)
        status_code = response.status_code
        if not 200 <= status_code < 300:
            error = f"the receiver answered {status_code}"
    except Exception as exc:
        error = str(exc) or type(exc).__name__
    ok = not error
    delivery.attempts += 1
    delivery.log = [*delivery.log, {"at": timezone.now().isoformat(), "status_code": status_code, "error": error,
                                    "ms": int((time.monotonic() - started) * 1000)}]  # fmt: skip
    if ok:
        delivery.status = WebhookDelivery.Status.DELIVERED
    elif delivery.attempts >= settings.HIVE_WEBHOOK_ATTEMPTS:
        delivery.status = WebhookDelivery.Status.FAILED
    delivery.save(update_fields=["attempts", "log", "status", "updated_at"])
    return ok or delivery.status == WebhookDelivery.Status.FAILED


def retry_delay_s(attempts: int) -> float:
    """Exponential backoff: base, 2×base, 4×base …"""
    return float(settings.HIVE_WEBHOOK_BACKOFF_S * 2 ** max(attempts - 1, 0))
