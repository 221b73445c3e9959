"""Telling an owner that a run waits for them: a scheduled replay for their yes, or the agent for a person to take
over the browser (ask_person): an e-mail to their address (when they have one) and, for a workflow's replay, the
workflow's webhook (events `workflow.run.confirmation_requested`, `workflow.run.person_wanted`). Nobody is watching a
replay that runs at 3 a.m., so the dashboard's card alone would go unseen."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction

from webapp.core.events import publish_to_user
from webapp.runs.models import Run
from webapp.workflows.selectors import workflow_of_run
from webapp.workflows.types import WebhookExtra
from webapp.workflows.webhooks import CONFIRMATION_EVENT, PERSON_EVENT, delivery_schedule

log = logging.getLogger(__name__)


def dashboard_url(conversation_id: int) -> str:
    base = settings.HIVE_PUBLIC_URL or (settings.HIVE_OWN_ORIGINS or ["http://localhost:8000"])[0]
    return f"{base.rstrip('/')}/c/{conversation_id}"


def confirmation_wanted(*, run_id: int, action: str, reason: str, url: str, timeout_s: float) -> None:
    run = Run.objects.select_related("conversation__owner").get(pk=run_id)
    workflow = workflow_of_run(run=run)
    name = workflow.name if workflow else "a workflow"
    link = dashboard_url(run.conversation_id)
    minutes = max(1, round(timeout_s / 60))
    owner = run.conversation.owner
    if owner.email:
        try:
            send_mail(
                subject=f"Hive: the scheduled replay of {name} waits for your yes",
                message=(
                    f"The scheduled replay of the workflow {name!r} wants to {action} on {url or 'the page'}, and "
                    f"that needs your yes: {reason}.\n\nAnswer in the dashboard within {minutes} minutes, or the "
                    f"replay stops there:\n{link}\n"
                ),
                from_email=None,
                recipient_list=[owner.email],
            )
        except Exception as exc:  # a mail server that is down must not end the replay
            log.warning("could not e-mail %s about run %s: %s", owner.email, run_id, exc)
    extra: WebhookExtra = {"confirmation": {"action": action, "reason": reason, "url": url, "dashboard": link,
                                            "timeout_s": timeout_s}}  # fmt: skip
    with transaction.atomic():
        delivery_schedule(run=run, event=CONFIRMATION_EVENT, extra=extra)


def person_wanted(*, run_id: int, reason: str, url: str, timeout_s: float) -> None:
    """The agent asks for a person to take over the browser (`reason`, in the agent's words, on the page `url`)."""
    run = Run.objects.select_related("conversation__owner").get(pk=run_id)
    link = dashboard_url(run.conversation_id)
    minutes = max(1, round(timeout_s / 60))
    owner = run.conversation.owner
    title = run.conversation.title or f"conversation {run.conversation_id}"
    # The owner's dashboard, wherever it is open (the conversation itself shows the request as a card).
    publish_to_user(owner.pk, {"type": "person.wanted", "conversation": run.conversation_id, "title": title,
                               "reason": reason})  # fmt: skip
    if owner.email:
        try:
            send_mail(
                subject=f"Hive: the agent needs you in {title}",
                message=(
                    f"The agent asks for a person to take over the browser on {url or 'the page'}:\n\n{reason}\n\n"
                    f"Open the conversation, take control, do it and hand the browser back within {minutes} "
                    f"minutes; the agent waits until then:\n{link}\n"
                ),
                from_email=None,
                recipient_list=[owner.email],
            )
        except Exception as exc:  # a mail server that is down must not leave the agent without its answer
            log.warning("could not e-mail %s about run %s: %s", owner.email, run_id, exc)
    extra: WebhookExtra = {"person_wanted": {"reason": reason, "url": url, "dashboard": link, "timeout_s": timeout_s}}
    with transaction.atomic():
        delivery_schedule(run=run, event=PERSON_EVENT, extra=extra)
