"""Saving a run as a workflow, and starting a replay of it."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from rest_framework import status

from agents.secrets import PLACEHOLDER
from webapp.conversations.models import Conversation
from webapp.conversations.services import conversation_create
from webapp.core.crypto import decrypt, encrypt
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.llm.selectors import model_profile_default
from webapp.profiles.models import BrowserProfile
from webapp.profiles.services import profile_use_set
from webapp.runs.models import Run, Step
from webapp.runs.selectors import run_starter
from webapp.runs.services import run_create, run_ensure_idle
from webapp.runs.types import RunMetadata
from webapp.sharing.selectors import Access, access_require, conversation_access
from webapp.workflows.models import Credential, Workflow, WorkflowShare, WorkflowVersion
from webapp.workflows.selectors import parameters_shown
from webapp.workflows.steps import WorkflowStep, placeholders, steps_edit, steps_from
from webapp.workflows.types import Parameter


@transaction.atomic
def workflow_version_add(*, version: WorkflowVersion, steps: list[WorkflowStep], note: str) -> WorkflowVersion:
    """A new version of the workflow (the next number), keeping the parameters."""
    workflow = Workflow.objects.select_for_update().get(pk=version.workflow_id)
    latest = workflow.versions.order_by("-number").values_list("number", flat=True).first() or 0
    created = WorkflowVersion.objects.create(workflow=workflow, number=latest + 1, steps=steps,
                                             parameters=version.parameters, note=note[:500])  # fmt: skip
    workflow.save(update_fields=["updated_at"])
    return created


def _workflow_create(*, user: User, name: str, source: Any, source_run: Run | None, note: str) -> Workflow:
    name = name.strip()
    if not name:
        raise ApplicationError("Give the workflow a name.")
    steps, parameters = steps_from(source)
    workflow = Workflow.objects.create(owner=user, name=name[:200])
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=steps, parameters=parameters,
                                   source_run=source_run, note=note)  # fmt: skip
    return workflow


@transaction.atomic
def workflow_save_from_run(*, run: Run, user: User, name: str) -> Workflow:
    if run.status != Run.Status.SUCCEEDED:
        raise ApplicationError("Only a run that succeeded can be saved as a workflow.")
    return _workflow_create(user=user, name=name, source=run.steps.order_by("index"), source_run=run,
                            note=f"Saved from run {run.pk}")  # fmt: skip


@transaction.atomic
def workflow_save_from_steps(*, conversation: Conversation, user: User, name: str, first: int, last: int) -> Workflow:
    """A workflow of the steps of a conversation from `first` to `last` (step ids, both kept), whatever runs they
    were in: the agent's, or actions done by hand. Steps that failed or only looked are left out."""
    steps = Step.objects.filter(run__conversation=conversation)
    ends = set(steps.filter(pk__in=[first, last]).values_list("pk", flat=True))
    if ends != {first, last}:
        raise ApplicationError("Both ends of the range must be steps of this conversation.")
    if first > last:
        raise ApplicationError("The range starts after it ends: give the earlier step first.")
    source = steps.filter(pk__gte=first, pk__lte=last).order_by("pk")
    return _workflow_create(user=user, name=name, source=source, source_run=None,
                            note=f"Saved from steps {first}–{last} of conversation {conversation.pk}")  # fmt: skip


def secret_names(version: WorkflowVersion) -> set[str]:
    return {p["name"] for p in version.parameters if p.get("type") == "secret"}


def secrets_resolve(*, run_id: int, version: WorkflowVersion, values: dict[str, str]) -> dict[str, str]:
    """On the worker, just before typing: each secret parameter's credential name replaced by its value, taken from
    the store of the person who started the run (webapp.runs.selectors.run_starter) and no other. So a teammate who
    runs a workflow in the owner's conversation brings their own secrets, and a name that is not theirs fails the
    same way whether or not the conversation's owner has a credential by that name."""
    hidden = sorted(secret_names(version))
    if not hidden:
        return dict(values)
    starter = run_starter(run_id=run_id)
    if starter is None:
        raise ApplicationError(
            "The person who started this replay can no longer act in this conversation (or their account is closed):"
            " its secret parameters are not filled in."
        )
    resolved = dict(values)
    for name in hidden:
        given = values.get(name, "")
        credential = Credential.objects.filter(owner=starter, name=given).first()
        if credential is None:
            raise ApplicationError(
                f"No credential named {given!r} for the parameter {name} in {starter.username}'s credential store."
            )
        resolved[name] = decrypt(credential.value)
    return resolved


def masked(values: dict[str, str], version: WorkflowVersion) -> dict[str, str]:
    """The values as steps, logs, prompts and webhooks may show them."""
    return parameters_shown(values, secret_names(version))


def credential_set(*, owner: User, name: str, value: str) -> Credential:
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", name):
        raise ApplicationError("A credential's name is letters, digits, '_', '.' or '-' (at most 100).")
    if not value:
        raise ApplicationError("The credential's value is empty.")
    credential, _ = Credential.objects.update_or_create(owner=owner, name=name, defaults={"value": encrypt(value)})
    return credential


def parameters_resolve(version: WorkflowVersion, given: JsonObject) -> dict[str, str]:
    """The values a replay uses: the given ones over the defaults; unknown names are refused. A secret parameter's
    value is the name of a credential (looked up when the replay runs, on the worker)."""
    known = {p["name"]: p for p in version.parameters}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ApplicationError(
            f"Unknown parameter(s): {', '.join(unknown)}. This workflow takes: {', '.join(known) or 'none'}."
        )
    values = {name: str(p.get("default", "")) for name, p in known.items()}
    for name, value in given.items():
        if not isinstance(value, str | int | float | bool):
            raise ApplicationError(f"The parameter {name} must be text.")
        values[name] = str(value)
    missing = sorted(name for name in secret_names(version) if not values.get(name))
    if missing:
        raise ApplicationError(f"Name a saved credential for: {', '.join(missing)}.")
    return values


@transaction.atomic
def workflow_run_start(
    *,
    workflow: Workflow,
    user: User,
    parameters: JsonObject,
    conversation: Conversation | None = None,
    extra: RunMetadata | None = None,
    profile: BrowserProfile | None = None,
    profile_writes: bool = True,
) -> Run:
    """Queue a replay of the workflow's latest version, in the given conversation or a new one, started by `user`
    (whose credentials fill its secret parameters); `extra` goes into the run's metadata (a schedule's id and how it
    treats confirmations). With `profile` (one `user` may start from), the conversation's browser starts from it:
    choosing a conversation's profile is its owner's, so a named conversation must be the starter's own."""
    version = workflow.versions.order_by("-number").first()
    if version is None:
        raise ApplicationError("This workflow has no steps.", status_code=status.HTTP_409_CONFLICT)
    values = parameters_resolve(version, parameters)
    if conversation is None:
        conversation = conversation_create(
            owner=user, title=f"Workflow: {workflow.name}"[:200], model_profile=model_profile_default(user=user)
        )
    else:  # the one rule, whichever way the run was asked for (REST, MCP): the starter may act in it
        need: Access = "owner" if profile is not None else "controller"
        access_require(access=conversation_access(user=user, conversation_id=conversation.pk), need=need)
    conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
    run_ensure_idle(conversation=conversation)
    if profile is not None:
        profile_use_set(conversation=conversation, profile=profile, writes=profile_writes, user=user)
    metadata: RunMetadata = {"workflow": workflow.pk, "version": version.number, "version_id": version.pk,
                             "parameters": values, **(extra or {})}  # fmt: skip
    return run_create(conversation=conversation, started_by=user, kind=Run.Kind.WORKFLOW, metadata=metadata)


PARAMETER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


@transaction.atomic
def workflow_update(
    *,
    workflow: Workflow,
    name: str | None = None,
    description: str | None = None,
    rename: dict[str, str] | None = None,
    defaults: dict[str, str] | None = None,
    steps: list[Any] | None = None,
) -> Workflow:
    """Rename the workflow, describe it, edit its steps (webapp.workflows.steps.steps_edit: written with the
    parameters' current names), rename parameters (their `{{placeholders}}` follow) or change their defaults. A change
    to the steps or parameters is a new version; a parameter no step uses any more is dropped."""
    if name is not None:
        if not name.strip():
            raise ApplicationError("Give the workflow a name.")
        workflow.name = name.strip()[:200]
    if description is not None:
        workflow.description = description.strip()
    workflow.save()
    rename, defaults = rename or {}, defaults or {}
    if not rename and not defaults and steps is None:
        return workflow
    version = workflow.versions.order_by("-number").first()
    if version is None:
        raise ApplicationError("This workflow has no steps.")
    known = {p["name"] for p in version.parameters}
    unknown = sorted((set(rename) | set(defaults)) - known)
    if unknown:
        raise ApplicationError(f"Unknown parameter(s): {', '.join(unknown)}.")
    bad = sorted(new for new in rename.values() if not PARAMETER_NAME.match(new))
    if bad:
        raise ApplicationError(f"A parameter's name is a letter or _ then letters, digits or _: not {', '.join(bad)}.")
    final = [rename.get(p["name"], p["name"]) for p in version.parameters]
    if len(set(final)) != len(final):
        raise ApplicationError("Two parameters would have the same name.")
    secret = {p["name"] for p in version.parameters if p.get("type") == "secret"}
    if set(defaults) & secret:
        raise ApplicationError("A secret parameter has no default: it names a credential when the workflow runs.")
    changes: list[str] = []
    edited = list(version.steps)
    if steps is not None:
        examples = {p["name"]: str(p.get("default") or "x") for p in version.parameters}
        edited = steps_edit(version.steps, steps, examples)
        changes.append("steps edited")
    used = set().union(*(placeholders(s.get("arguments") or {}) for s in edited))
    parameters: list[Parameter] = [
        {**p, "name": rename.get(p["name"], p["name"]), "default": str(defaults.get(p["name"], p.get("default", "")))}
        for p in version.parameters
        if p["name"] in used
    ]
    dropped = sorted(known - used)

    def renamed(value: Any) -> Any:
        if isinstance(value, str):
            return PLACEHOLDER.sub(lambda m: "{{" + rename.get(m.group(1), m.group(1)) + "}}", value)
        return value

    edited = [{**s, "arguments": {k: renamed(v) for k, v in (s.get("arguments") or {}).items()}} for s in edited]
    changes += [f"renamed {old} to {new}" for old, new in rename.items() if old != new]
    changes += [f"new default for {n}" for n in defaults] + [f"dropped {n} (no step uses it)" for n in dropped]
    WorkflowVersion.objects.create(workflow=workflow, number=version.number + 1, steps=edited, parameters=parameters,
                                   note=("Edited: " + ", ".join(changes or ["no change"]))[:500])  # fmt: skip
    return workflow


@transaction.atomic
def workflow_delete(*, workflow: Workflow) -> None:
    """The workflow, its versions, schedules (and their beat entries: receivers.schedule_removed) and delivery log;
    runs stay in their conversations."""
    workflow.delete()


@transaction.atomic
def workflow_share(*, workflow: Workflow, username: str, role: str) -> WorkflowShare:
    """Share with a teammate by username (or change their role)."""
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise ApplicationError(f"No user named {username.strip()!r}.")
    if user.pk == workflow.owner_id:
        raise ApplicationError("That is the workflow's owner.")
    share, _ = WorkflowShare.objects.update_or_create(workflow=workflow, user=user, defaults={"role": role})
    return share


@transaction.atomic
def run_output_set(*, run_id: int, name: str, value: Any) -> None:
    """Keep what a replay's extraction step returned, under the step's output name."""
    run = Run.objects.select_for_update().get(pk=run_id)
    run.metadata = {**run.metadata, "outputs": {**(run.metadata.get("outputs") or {}), name: value}}
    run.save(update_fields=["metadata"])
