"""Reads for runs and steps, always through the conversations a user may see."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, ModelCall, Run, Step


def run_list(*, conversation: Conversation) -> QuerySet[Run]:
    return conversation.runs.prefetch_related(
        Prefetch("steps", queryset=Step.objects.order_by("index")), "confirmations"
    )


def run_get(*, user: AbstractBaseUser | AnonymousUser, run_id: int) -> Run:
    runs = Run.objects.filter(conversation__owner_id=user.pk).prefetch_related(
        Prefetch("steps", queryset=Step.objects.order_by("index")), "confirmations"
    )
    return get_object_or_404(runs, pk=run_id)


def step_get(*, user: AbstractBaseUser | AnonymousUser, step_id: int) -> Step:
    return get_object_or_404(Step.objects.filter(run__conversation__owner_id=user.pk), pk=step_id)


def run_active(*, conversation_id: int) -> Run | None:
    return Run.objects.filter(conversation_id=conversation_id, status__in=Run.ACTIVE).first()


def run_history(*, run: Run) -> list[tuple[str, str]]:
    """The conversation's user and assistant messages up to and including this run's, oldest first."""
    messages = run.conversation.messages.filter(role__in=["user", "assistant"])
    trigger = run.messages.filter(role="user").order_by("id").first()
    if trigger is not None:
        messages = messages.filter(id__lte=trigger.id)
    return [(m.role, m.content) for m in messages.order_by("created_at", "id")]


def confirmation_get(*, user: AbstractBaseUser | AnonymousUser, confirmation_id: int) -> Confirmation:
    return get_object_or_404(Confirmation.objects.filter(run__conversation__owner_id=user.pk), pk=confirmation_id)


def confirmation_state(*, confirmation_id: int) -> str:
    return Confirmation.objects.values_list("status", flat=True).get(pk=confirmation_id)


def model_call_list(*, run: Run) -> QuerySet[ModelCall]:
    return run.model_calls.order_by("index")
