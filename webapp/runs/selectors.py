"""Reads for runs and steps, always through the conversations a user may see (webapp.sharing.selectors)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404

from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, ModelCall, Run, Step
from webapp.sharing.selectors import RANK, Access, access_require, conversation_access


def _with_details(runs: QuerySet[Run]) -> QuerySet[Run]:
    """Runs as the API shows them: their steps, confirmations, who started them and how often they called the model."""
    return (
        runs.select_related("started_by")
        .prefetch_related(Prefetch("steps", queryset=Step.objects.order_by("index")), "confirmations")
        .annotate(model_call_count=Count("model_calls"))
    )


def run_list(*, conversation: Conversation) -> QuerySet[Run]:
    # Explicitly ordered: with the model-call count's GROUP BY, PostgreSQL returns rows in no particular order.
    return _with_details(conversation.runs.all()).order_by("created_at", "id")


def _conversation_of(rows: QuerySet[Any], field: str = "conversation_id") -> int | None:
    return rows.values_list(field, flat=True).first()


def _require(*, user: AbstractBaseUser | AnonymousUser, conversation_id: int | None, need: Access) -> None:
    """404 for a missing object or a conversation the user cannot see; 403 when they may see but not act."""
    if conversation_id is None:
        raise Http404
    access_require(access=conversation_access(user=user, conversation_id=conversation_id), need=need)


def run_get(*, user: AbstractBaseUser | AnonymousUser, run_id: int, need: Access = "viewer") -> Run:
    _require(user=user, conversation_id=_conversation_of(Run.objects.filter(pk=run_id)), need=need)
    return _with_details(Run.objects.filter(pk=run_id)).get()


def step_get(*, user: AbstractBaseUser | AnonymousUser, step_id: int) -> Step:
    steps = Step.objects.filter(pk=step_id)
    _require(user=user, conversation_id=_conversation_of(steps, "run__conversation_id"), need="viewer")
    return steps.get()


def run_starter(*, run_id: int) -> User | None:
    """The person whose own stores a run draws on (its credentials; browser profiles and a vault would resolve from
    here too): the one who started it, while their account is active and they may still act in the run's
    conversation (a share revoked or expired since then ends that). None otherwise, and the run draws on nobody's:
    never on the conversation owner's for a run someone else started."""
    run = Run.objects.select_related("started_by").filter(pk=run_id).first()
    starter = run.started_by if run is not None else None
    if run is None or starter is None or not starter.is_active:
        return None
    access = conversation_access(user=starter, conversation_id=run.conversation_id)
    return starter if access is not None and RANK[access] >= RANK["controller"] else None


def run_active(*, conversation_id: int) -> Run | None:
    return Run.objects.filter(conversation_id=conversation_id, status__in=Run.ACTIVE).first()


def run_queue_position(*, run: Run) -> int | None:
    """1 for the next queued run to be taken, 2 for the one after it ...; None when the run is not waiting."""
    if run.status != Run.Status.QUEUED:
        return None
    ahead = Run.objects.filter(status=Run.Status.QUEUED).filter(
        Q(created_at__lt=run.created_at) | Q(created_at=run.created_at, pk__lt=run.pk)
    )
    return ahead.count() + 1


def runs_waiting(*, limit: int) -> list[Run]:
    """The first queued runs, in the order they wait."""
    return list(Run.objects.filter(status=Run.Status.QUEUED).order_by("created_at", "pk")[:limit])


def run_history(*, run: Run) -> list[tuple[str, str]]:
    """The conversation's user and assistant messages up to and including this run's, oldest first."""
    messages = run.conversation.messages.filter(role__in=["user", "assistant"])
    trigger = run.messages.filter(role="user").order_by("id").first()
    if trigger is not None:
        messages = messages.filter(id__lte=trigger.id)
    return [(m.role, m.content) for m in messages.order_by("created_at", "id")]


def confirmation_get(
    *, user: AbstractBaseUser | AnonymousUser, confirmation_id: int, need: Access = "viewer"
) -> Confirmation:
    confirmations = Confirmation.objects.filter(pk=confirmation_id)
    _require(user=user, conversation_id=_conversation_of(confirmations, "run__conversation_id"), need=need)
    return confirmations.get()


def confirmation_state(*, confirmation_id: int) -> str:
    return Confirmation.objects.values_list("status", flat=True).get(pk=confirmation_id)


def model_call_list(*, run: Run) -> QuerySet[ModelCall]:
    return run.model_calls.order_by("index")
