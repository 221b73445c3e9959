"""A hand-off to a person (the agent's ask_person): a confirmation of its run with the action `ask_person`, answered
like any other (a controller's "Done" or "Can't help"), and also by handing the browser's controls back while one is
pending: taking over, doing the step and handing back is the answer the agent waits for."""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from agents.tools.handoff import Outcome
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Confirmation, Run
from webapp.runs.services import confirmation_answer

log = logging.getLogger(__name__)

HANDOFF_ACTION = "ask_person"


def handoff_outcome(*, run_id: int) -> tuple[Outcome, str]:
    """What became of the run's latest hand-off, and who answered it ("" when nobody did)."""
    latest = (
        Confirmation.objects.filter(run_id=run_id, action=HANDOFF_ACTION)
        .select_related("decided_by")
        .order_by("-created_at", "-id")
        .first()
    )
    if latest is None or latest.status in (Confirmation.Status.PENDING, Confirmation.Status.EXPIRED):
        return "timed_out", ""
    person = latest.decided_by.get_username() if latest.decided_by is not None else ""
    return ("handed_back" if latest.status == Confirmation.Status.APPROVED else "declined"), person


def handoffs_hand_back(*, conversation_id: int, user: User) -> None:
    """`user` handed the browser back: the conversation's pending hand-offs are answered as done by them. Their
    right to hand back was checked by the caller; one that expired meanwhile stays expired."""
    pending = Confirmation.objects.filter(
        run__conversation_id=conversation_id,
        run__status__in=(Run.Status.RUNNING, Run.Status.WAITING),
        action=HANDOFF_ACTION,
        status=Confirmation.Status.PENDING,
        expires_at__gt=timezone.now(),
    )
    for confirmation in pending:
        try:
            with transaction.atomic():
                confirmation_answer(confirmation=confirmation, user=user, approve=True)
        except ApplicationError as exc:  # answered or expired in the meantime: that answer stands
            log.info("hand-off %s not answered by the hand-back: %s", confirmation.pk, exc.message)
