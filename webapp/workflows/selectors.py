"""Reads for workflows: a user sees their own."""

from __future__ import annotations

import difflib

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from webapp.workflows.models import Workflow, WorkflowVersion


def workflow_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Workflow]:
    return Workflow.objects.filter(owner_id=user.pk).prefetch_related("versions")


def workflow_get(*, user: AbstractBaseUser | AnonymousUser, workflow_id: int) -> Workflow:
    return get_object_or_404(workflow_list(user=user), pk=workflow_id)


def workflow_latest(*, workflow: Workflow) -> WorkflowVersion | None:
    return workflow.versions.order_by("-number").first()


def _line(step: dict[str, object]) -> str:
    return f"{step.get('action')}: {step.get('intent') or ''}"


def workflow_versions(*, workflow: Workflow) -> list[dict[str, object]]:
    """Every version, newest first, with what changed from the one before it (a unified diff of the steps)."""
    versions = list(workflow.versions.order_by("number"))
    out: list[dict[str, object]] = []
    previous: list[str] = []
    for version in versions:
        lines = [_line(step) for step in version.steps]
        diff = list(
            difflib.unified_diff(previous, lines, f"v{version.number - 1}", f"v{version.number}", lineterm="", n=1)
        )
        out.append({"number": version.number, "note": version.note, "created_at": version.created_at,
                    "source_run": version.source_run_id, "steps": len(lines), "changes": diff})  # fmt: skip
        previous = lines
    return list(reversed(out))
