"""Reads for workflows: a user sees their own."""

from __future__ import annotations

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
