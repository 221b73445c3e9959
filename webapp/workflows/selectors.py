"""Reads for workflows: a user sees their own."""

from __future__ import annotations

import difflib
import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, OuterRef, Q, QuerySet, Subquery, Value, When
from django.shortcuts import get_object_or_404
from rest_framework import status

from agents.secrets import SECRET_MASK  # how a secret parameter's value shows anywhere (steps, history, prompts)
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.sharing.selectors import RANK, Access
from webapp.workflows.models import WebhookDelivery, Workflow, WorkflowShare, WorkflowVersion
from webapp.workflows.steps import WorkflowStep, as_steps

if TYPE_CHECKING:
    from webapp.runs.models import Run

_TOO_LITTLE = {
    "controller": "You can see this workflow but not run it: ask its owner to make you a controller.",
    "owner": "Only the workflow's owner can do that.",
}


def workflow_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Workflow]:
    """Owned and shared workflows, each annotated with the caller's `access`."""
    if not user.is_authenticated:
        return Workflow.objects.none()
    shared_role = WorkflowShare.objects.filter(workflow=OuterRef("pk"), user_id=user.pk).values("role")[:1]
    return (
        Workflow.objects.filter(Q(owner_id=user.pk) | Q(shares__user_id=user.pk))
        .distinct()
        .annotate(access=Case(When(owner_id=user.pk, then=Value("owner")), default=Subquery(shared_role)))
        .prefetch_related("versions")
    )


def workflow_get(*, user: AbstractBaseUser | AnonymousUser, workflow_id: int, need: Access = "viewer") -> Workflow:
    """404 without access; 403 with the reason when the access is below what is needed."""
    workflow = get_object_or_404(workflow_list(user=user), pk=workflow_id)
    if RANK[workflow.access] < RANK[need]:  # type: ignore[attr-defined]
        raise ApplicationError(_TOO_LITTLE[need], status_code=status.HTTP_403_FORBIDDEN)
    return workflow


def workflow_of_run(*, run: Run) -> Workflow | None:
    """The workflow a replay replays (None for other runs, or when the workflow was deleted)."""
    workflow_id = run.metadata.get("workflow")
    return Workflow.objects.filter(pk=workflow_id).first() if workflow_id is not None else None


def workflow_latest(*, workflow: Workflow) -> WorkflowVersion | None:
    return workflow.versions.order_by("-number").first()


def workflow_secret_names(*, workflow: Workflow) -> set[str]:
    """The secret parameters of every version: a run of an older version is masked by what it had."""
    return {p["name"] for v in workflow.versions.all() for p in v.parameters if p.get("type") == "secret"}


def parameters_shown(values: dict[str, str], secret: set[str]) -> dict[str, str]:
    """A secret parameter's value names the starter's credential: shown as the mask, like the secret itself."""
    return {name: SECRET_MASK if name in secret else value for name, value in values.items()}


def workflow_deliveries(*, workflow: Workflow, limit: int = 100) -> list[WebhookDelivery]:
    """The delivery log, newest first, its payloads' secret parameters masked (rows kept from before payloads were
    masked when made included)."""
    secret = workflow_secret_names(workflow=workflow)
    deliveries = list(workflow.deliveries.all()[:limit])
    for delivery in deliveries:
        if isinstance(delivery.payload, dict) and isinstance(delivery.payload.get("parameters"), dict):
            delivery.payload = {
                **delivery.payload,
                "parameters": parameters_shown(delivery.payload["parameters"], secret),
            }
    return deliveries


class VersionSummary(TypedDict):
    """A version as the workflow's history lists it (VersionOutput)."""

    number: int
    note: str
    created_at: datetime
    source_run: int | None
    steps: int  # how many
    changes: list[str]  # a unified diff of the steps' actions and intents against the version before


class WorkflowRunSummary(TypedDict):
    """A replay as the workflow's run list shows it (WorkflowRunOutput), secrets masked."""

    id: int
    conversation: int
    status: str
    error: str
    version: int | None
    parameters: dict[str, str]
    url: str  # where its last action left the page
    created_at: datetime
    finished_at: datetime | None
    prompt_tokens: int
    outputs: JsonObject


def _line(step: WorkflowStep) -> str:
    return f"{step.get('action')}: {step.get('intent') or ''}"


def workflow_versions(*, workflow: Workflow) -> list[VersionSummary]:
    """Every version, newest first, with what changed from the one before it (a unified diff of the steps)."""
    versions = list(workflow.versions.order_by("number"))
    out: list[VersionSummary] = []
    previous: list[str] = []
    for version in versions:
        lines = [_line(step) for step in as_steps(version.steps)]
        diff = list(
            difflib.unified_diff(previous, lines, f"v{version.number - 1}", f"v{version.number}", lineterm="", n=1)
        )
        out.append({"number": version.number, "note": version.note, "created_at": version.created_at,
                    "source_run": version.source_run_id, "steps": len(lines), "changes": diff})  # fmt: skip
        previous = lines
    return list(reversed(out))


def workflow_runs(
    *, workflow: Workflow, user: AbstractBaseUser | AnonymousUser, limit: int = 50
) -> list[WorkflowRunSummary]:
    """The workflow's replays the caller may see (in conversations visible to them), newest first, with what each
    ended on (secrets masked)."""
    from webapp.runs.models import Run  # the runs app sits beside this one
    from webapp.sharing.selectors import conversations_visible

    runs = (
        Run.objects.filter(kind=Run.Kind.WORKFLOW, metadata__workflow=workflow.pk)
        .filter(conversation__in=conversations_visible(user=user))
        .order_by("-created_at")[:limit]
    )
    secret = workflow_secret_names(workflow=workflow)
    out: list[WorkflowRunSummary] = []
    for run in runs:
        url = run_end_url(run=run)
        parameters = parameters_shown(run.metadata.get("parameters") or {}, secret)
        out.append({"id": run.pk, "conversation": run.conversation_id, "status": run.status, "error": run.error,
                    "version": run.metadata.get("version"), "parameters": parameters, "url": url,
                    "created_at": run.created_at, "finished_at": run.finished_at,
                    "prompt_tokens": run.prompt_tokens,
                    "outputs": run.metadata.get("outputs") or {}})  # fmt: skip
    return out


def run_end_url(*, run: Any) -> str:
    """The address a replay's last action left the page on ("" when it did not say)."""
    last = run.steps.filter(kind="action").order_by("-index").first()
    try:
        return str(json.loads(last.observation).get("url", "")) if last is not None else ""
    except (ValueError, AttributeError):
        return ""
