"""Writes for runs and steps. Each publishes what changed to the conversation's group after commit."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from decimal import Decimal
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from rest_framework import status

from browser_pool.types import RecordedTarget
from webapp.conversations.models import Conversation
from webapp.core import placement
from webapp.core.events import ConfirmationAnswerCommand, command_session, publish_on_commit
from webapp.core.exceptions import ApplicationError
from webapp.core.queue import enqueue
from webapp.core.types import JsonObject
from webapp.profiles.selectors import profile_writer_check
from webapp.runs.costs import CallTotals, call_facts, run_call_totals
from webapp.runs.models import Confirmation, ModelCall, Run, Step
from webapp.runs.quotas import queue_check, quota_check
from webapp.runs.selectors import run_queue_position, runs_waiting
from webapp.runs.serializers import ConfirmationOutput, run_shape, step_shape
from webapp.runs.signals import run_finished
from webapp.runs.types import PlanStepPayload, RunMetadata
from webapp.usage.quotas import money_quota_check

log = logging.getLogger(__name__)

RUN_TURN_TASK = "workers.tasks.run_turn"
RUN_ACTION_TASK = "workers.tasks.run_action"
RUN_WORKFLOW_TASK = "workers.tasks.run_workflow"
TASK_OF_KIND = {
    Run.Kind.TURN: RUN_TURN_TASK,
    Run.Kind.ACTION: RUN_ACTION_TASK,
    Run.Kind.TOOL: RUN_ACTION_TASK,
    Run.Kind.WORKFLOW: RUN_WORKFLOW_TASK,
}
QUEUE_POSITIONS_SHOWN = 20  # waiting runs told their new place when one starts; the rest see it on their next read
BUSY_MESSAGE = "The agent is working in this browser right now. Wait for it or stop it."

DISPATCH_GRACE_S = 5  # a run just created is being dispatched after its commit: leave it be
NOT_PICKED_UP_ERROR = "No worker picked this run up in time (the service was restarting or overloaded). Send it again."
ORPHANED_RUN_ERROR = (
    "The worker running this turn stopped (it crashed or was shut down) before the turn finished. "
    "Send the message again to retry."
)


def _publish_run(run: Run) -> None:
    publish_on_commit(run.conversation_id, {"type": "run.updated", "run": run_shape(run)})


def _publish_step(step: Step, conversation_id: int, *, created: bool) -> None:
    kind: Literal["step.created", "step.updated"] = "step.created" if created else "step.updated"
    publish_on_commit(conversation_id, {"type": kind, "step": step_shape(step)})


def _dispatch(run: Run) -> None:
    """After commit: send the run to the worker holding the conversation's session (or the best other one)."""
    task = TASK_OF_KIND[Run.Kind(run.kind)]

    def send() -> None:
        try:
            queue = placement.queue_for_conversation(run.conversation_id)
            enqueue(task, run.pk, queue=queue)
        except Exception as exc:
            # Redis is away: the run stays queued and the reaper sends it again (runs_requeue_stranded).
            log.warning("could not dispatch run %s (%r); it stays queued and will be sent again", run.pk, exc)
            return
        Run.objects.filter(pk=run.pk).update(queue=queue, dispatched_at=timezone.now())

    transaction.on_commit(send)


def run_ensure_idle(*, conversation: Conversation, refusal: str = BUSY_MESSAGE) -> None:
    """The one check that a conversation has no run in progress (409 otherwise). Inside a transaction it locks the
    conversation's active runs; the database's one-active-run constraint settles a race between two checks."""
    if Run.objects.select_for_update().filter(conversation=conversation, status__in=Run.ACTIVE).exists():
        raise ApplicationError(refusal, status_code=status.HTTP_409_CONFLICT)


@transaction.atomic
def run_create(
    *, conversation: Conversation, started_by: User, kind: str = Run.Kind.TURN, metadata: RunMetadata | None = None
) -> Run:
    """Queue a run; it is sent to a worker after the commit. The caller has checked that the conversation is idle.
    `started_by` is the person who asked for it: the run uses their own stores (credentials), whoever owns the
    conversation."""
    # Quotas count every run (turns, actions by hand, tool calls); tokens only where the server's model is used.
    uses_server_model = conversation.model_profile_id is None
    quota_check(owner_id=conversation.owner_id, uses_server_model=uses_server_model, conversation_id=conversation.pk)
    money_quota_check(owner_id=conversation.owner_id, uses_server_model=uses_server_model)
    queue_check()
    profile_writer_check(conversation_id=conversation.pk)  # 409 while another session writes its browser profile
    try:
        with transaction.atomic():
            run = Run.objects.create(
                conversation=conversation, started_by=started_by, kind=kind, metadata=metadata or {}
            )
    except IntegrityError as exc:  # a concurrent request won the race for the conversation's one active run
        raise ApplicationError(BUSY_MESSAGE, status_code=status.HTTP_409_CONFLICT) from exc
    run.model_call_count = 0  # type: ignore[attr-defined]  # known: the serializers need not count them
    # Its place, counted once for the event and for the answer to the request that created it.
    run.known_queue_position = run_queue_position(run=run)  # type: ignore[attr-defined]
    _publish_run(run)
    _dispatch(run)
    return run


@transaction.atomic
def run_create_for_action(
    *, conversation: Conversation, started_by: User, action: str, arguments: JsonObject, source: str = ""
) -> Run:
    """A browser action the user runs by hand; it waits its turn like a message does. `source` "mcp": an MCP
    client's call, which (like the agent) waits while a person holds the browser."""
    run_ensure_idle(conversation=conversation)
    metadata: RunMetadata = {"action": action, "arguments": arguments}
    if source:
        metadata["source"] = source
    return run_create(conversation=conversation, started_by=started_by, kind=Run.Kind.ACTION, metadata=metadata)


@transaction.atomic
def run_create_for_tool_call(
    *,
    conversation: Conversation,
    started_by: User,
    name: str,
    arguments: JsonObject,
    source: str = "",
    read_only: bool = False,
) -> Run:
    """A WebMCP tool of the active tab called by hand from the Tool Inspector (or by an MCP client; `read_only` as
    the tool declares it, for the safety policy)."""
    run_ensure_idle(conversation=conversation)
    metadata: RunMetadata = {"tool": name, "arguments": arguments}
    if source:
        metadata["source"], metadata["read_only"] = source, read_only
    return run_create(conversation=conversation, started_by=started_by, kind=Run.Kind.TOOL, metadata=metadata)


@transaction.atomic
def runs_requeue_stranded(*, alive_queues: Iterable[str]) -> list[Run]:
    """Queued runs no worker took: sent to a worker that died, never sent (Redis was away), or whose message was
    lost (Redis restarted) — send them again, to a live worker; a run nobody took for too long fails with why."""
    now = timezone.now()
    alive = {*alive_queues, placement.SHARED_QUEUE, ""}  # "": never sent (handled by dispatched_at below)
    queued = Run.objects.select_for_update().filter(status=Run.Status.QUEUED)
    give_up = now - timedelta(seconds=settings.HIVE_QUEUED_GIVE_UP_S)
    for run in queued.filter(created_at__lt=give_up):
        run_finish(run_id=run.pk, status=Run.Status.FAILED, error=NOT_PICKED_UP_ERROR)
    resend_before = now - timedelta(seconds=settings.HIVE_QUEUED_RESEND_S)
    stranded = list(
        queued.filter(created_at__gte=give_up).filter(
            ~Q(queue__in=alive)
            | Q(dispatched_at__isnull=True, created_at__lt=now - timedelta(seconds=DISPATCH_GRACE_S))
            | Q(dispatched_at__lt=resend_before)
        )
    )
    for run in stranded:
        _dispatch(run)
    return stranded


@transaction.atomic
def run_start(*, run_id: int, worker_id: str) -> Run | None:
    """Claim a queued run for a worker. None when it is no longer queued (aborted, or already claimed)."""
    run = (
        Run.objects.select_for_update(of=("self", "conversation"))
        .select_related("conversation", "started_by")
        .filter(pk=run_id)
        .first()
    )
    if run is None or run.status != Run.Status.QUEUED:
        return None
    run.model_call_count = 0  # type: ignore[attr-defined]  # a queued run has made none
    run.status = Run.Status.RUNNING
    run.worker_id = worker_id
    run.started_at = timezone.now()
    run.save(update_fields=["status", "worker_id", "started_at"])
    _publish_run(run)
    # Everyone still waiting moved up one place.
    for waiting in runs_waiting(limit=QUEUE_POSITIONS_SHOWN):
        _publish_run(waiting)
    return run


@transaction.atomic
def run_set_status(*, run_id: int, status: str) -> Run:
    run = Run.objects.select_for_update().get(pk=run_id)
    if run.is_active and run.status != status:
        run.status = status
        run.save(update_fields=["status"])
        _publish_run(run)
    return run


@transaction.atomic
def run_finish(
    *,
    run_id: int,
    status: str,
    error: str = "",
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    model_calls: bool = True,
) -> Run:
    """End a run once. A run that already ended keeps its first ending. `model_calls=False`: the caller knows the run
    made none (an action by hand), so there is nothing to add up."""
    run = Run.objects.select_for_update(of=("self",)).select_related("started_by").get(pk=run_id)
    if not run.is_active:
        return run
    run.status = status
    run.error = error
    # Every model call of the run is in its log with the usage the service reported and its price, the calls of a
    # turn that failed or was aborted (which cannot report a total) and those made inside tools included.
    logged = run_call_totals(run_id=run.pk) if model_calls else CallTotals(0, 0, Decimal(0), 0)
    run.prompt_tokens += max(prompt_tokens, logged.prompt_tokens)
    run.completion_tokens += max(completion_tokens, logged.completion_tokens)
    run.cost_usd, run.unpriced_calls = logged.cost_usd, logged.unpriced_calls
    run.model_call_count = logged.calls  # type: ignore[attr-defined]
    run.finished_at = timezone.now()
    run.save(
        update_fields=[
            "status", "error", "prompt_tokens", "completion_tokens", "cost_usd", "unpriced_calls", "finished_at"
        ]
    )  # fmt: skip
    for pending in run.confirmations.filter(status=Confirmation.Status.PENDING).values_list("pk", flat=True):
        confirmation_settle(confirmation_id=pending, status=Confirmation.Status.EXPIRED)
    # A cancelled turn cannot report the step it was in: it ends with the run, for the run's reason.
    for step in run.steps.filter(status=Step.Status.RUNNING):
        step.status = Step.Status.FAILED
        step.error = error or "The run ended before this step finished."
        step.save(update_fields=["status", "error"])
        _publish_step(step, run.conversation_id, created=False)
    _publish_run(run)
    run_finished.send(sender=Run, run=run)
    return run


@transaction.atomic
def run_abort(*, run: Run) -> Run:
    """Stop a run. A queued run ends at once; a running one is cancelled by its worker, which records it."""
    run = Run.objects.select_for_update().get(pk=run.pk)
    if not run.is_active:
        return run
    if run.status == Run.Status.QUEUED:
        return run_finish(run_id=run.pk, status=Run.Status.ABORTED, error="Stopped before it started.")
    run.abort_requested = True
    run.save(update_fields=["abort_requested"])
    command_session(run.conversation_id, {"type": "run.abort", "run_id": run.pk})
    return run


@transaction.atomic
def runs_fail_orphaned(*, alive_worker_ids: Iterable[str]) -> list[Run]:
    """Fail running runs whose worker no longer heartbeats: their turn cannot finish."""
    orphans = list(
        Run.objects.select_for_update()
        .filter(status__in=[Run.Status.RUNNING, Run.Status.WAITING])
        .exclude(worker_id__in=list(alive_worker_ids))
    )
    return [run_finish(run_id=run.pk, status=Run.Status.FAILED, error=ORPHANED_RUN_ERROR) for run in orphans]


def _step_add(*, run_id: int, **fields: Any) -> Step:
    """The run's next step (its index taken under the run's lock), announced once written."""
    run = Run.objects.select_for_update().get(pk=run_id)
    step = Step.objects.create(run=run, index=run.steps.count(), **fields)
    _publish_step(step, run.conversation_id, created=True)
    return step


@transaction.atomic
def step_start(*, run_id: int, kind: str, action: str = "", arguments: JsonObject | None = None) -> Step:
    return _step_add(run_id=run_id, kind=kind, action=action, arguments=arguments or {})


@transaction.atomic
def step_note(*, run_id: int, message: str) -> Step:
    """A notice in the run's steps (the agent paused, a person took over), written whole: nobody sees it empty."""
    return _step_add(
        run_id=run_id, kind=Step.Kind.SYSTEM, action="notice", status=Step.Status.SUCCEEDED, observation=message
    )


@transaction.atomic
def step_finish(
    *,
    step_id: int,
    status: str,
    observation: str = "",
    error: str = "",
    duration_ms: int | None = None,
    screenshot: bytes | None = None,
    target: RecordedTarget | None = None,
) -> Step:
    step = Step.objects.select_related("run").get(pk=step_id)
    step.status = status
    step.target = target or {}
    step.observation = observation
    step.error = error
    step.duration_ms = duration_ms
    written = ["status", "target", "observation", "error", "duration_ms"]
    if screenshot:
        step.screenshot.save(f"step-{step.pk}.jpg", ContentFile(screenshot), save=False)
        written.append("screenshot")
    step.save(update_fields=written)
    _publish_step(step, step.run.conversation_id, created=False)
    return step


@transaction.atomic
def model_call_record(*, run_id: int, request: JsonObject, response: JsonObject, duration_ms: int) -> ModelCall:
    """`request` as the model service took it, `response` as the agent's model client summed up what came back:
    the model that answered, the tokens the service reported and what they cost (agents/llm/client.py)."""
    index = ModelCall.objects.filter(run_id=run_id).count()
    return ModelCall.objects.create(
        run_id=run_id,
        index=index,
        request=request,
        response=response,
        duration_ms=max(0, duration_ms),
        **call_facts(response),
    )


@transaction.atomic
def run_plan_set(*, run_id: int, steps: list[PlanStepPayload]) -> Run:
    run = Run.objects.select_for_update().get(pk=run_id)
    run.metadata = {**run.metadata, "plan": steps}
    run.save(update_fields=["metadata"])
    publish_on_commit(run.conversation_id, {"type": "plan.updated", "run": run.pk, "steps": steps})
    return run


def _publish_confirmation(confirmation: Confirmation, conversation_id: int) -> None:
    kind: Literal["confirmation.requested", "confirmation.updated"] = (
        "confirmation.requested" if confirmation.status == Confirmation.Status.PENDING else "confirmation.updated"
    )
    publish_on_commit(conversation_id, {"type": kind, "confirmation": ConfirmationOutput(confirmation).data})


@transaction.atomic
def confirmation_request(
    *,
    run_id: int,
    step_id: int | None,
    action: str,
    arguments: JsonObject,
    reason: str,
    url: str = "",
    timeout_s: float,
) -> Confirmation:
    """Ask the user; the run waits meanwhile."""
    run = Run.objects.select_for_update().get(pk=run_id)
    confirmation = Confirmation.objects.create(
        run=run,
        step_id=step_id,
        action=action,
        arguments=arguments,
        reason=reason,
        url=url[:2000],
        expires_at=timezone.now() + timedelta(seconds=timeout_s),
    )
    _publish_confirmation(confirmation, run.conversation_id)
    run_set_status(run_id=run_id, status=Run.Status.WAITING)
    return confirmation


def confirmation_answer(*, confirmation: Confirmation, user: User, approve: bool) -> Confirmation:
    """The owner's (or a controller's) yes or no. An expired confirmation is settled as such and refused."""
    with transaction.atomic():
        confirmation = Confirmation.objects.select_for_update().select_related("run").get(pk=confirmation.pk)
        if confirmation.status != Confirmation.Status.PENDING:
            raise ApplicationError(
                f"This confirmation was already answered ({confirmation.status}).", status_code=status.HTTP_409_CONFLICT
            )
        expired = confirmation.expires_at <= timezone.now()
        if not expired:
            confirmation.status = Confirmation.Status.APPROVED if approve else Confirmation.Status.DENIED
            confirmation.decided_by = user
            confirmation.decided_at = timezone.now()
            confirmation.save(update_fields=["status", "decided_by", "decided_at"])
            _publish_confirmation(confirmation, confirmation.run.conversation_id)
            conversation_id = confirmation.run.conversation_id
            answer: ConfirmationAnswerCommand = {
                "type": "confirmation.answer",
                "id": confirmation.pk,
                "approved": approve,
            }
            command_session(conversation_id, answer)
            return confirmation
    confirmation_settle(confirmation_id=confirmation.pk, status=Confirmation.Status.EXPIRED)
    raise ApplicationError("This confirmation expired; the step was not run.", status_code=status.HTTP_409_CONFLICT)


@transaction.atomic
def confirmation_settle(*, confirmation_id: int, status: str) -> Confirmation:
    """End a pending confirmation without an answer (it expired, or its run ended)."""
    confirmation = Confirmation.objects.select_for_update().select_related("run").get(pk=confirmation_id)
    if confirmation.status == Confirmation.Status.PENDING:
        confirmation.status = status
        confirmation.decided_at = timezone.now()
        confirmation.save(update_fields=["status", "decided_at"])
        _publish_confirmation(confirmation, confirmation.run.conversation_id)
    return confirmation
