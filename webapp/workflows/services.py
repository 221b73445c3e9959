"""Saving a run as a workflow, and starting a replay of it."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from rest_framework import status

from browser_pool.actions import ACTIONS
from browser_pool.actions.registry import NAVIGATING_ACTIONS
from webapp.conversations.models import Conversation
from webapp.conversations.services import conversation_create
from webapp.core.crypto import decrypt, encrypt
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run, Step
from webapp.runs.services import run_create, run_ensure_idle
from webapp.workflows.models import Credential, Workflow, WorkflowShare, WorkflowVersion
from webapp.workflows.selectors import SECRET_MASK

# Actions that only look: a replay does not need them.
LOOKING = frozenset({"get_elements", "get_element_details", "screenshot", "list_tabs"})
# The arguments of these actions that hold what the user typed or chose: they become parameters.
TYPED = {"type": ("text",), "select": ("value", "label")}
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def _is_secret_field(target: dict[str, Any]) -> bool:
    attributes = target.get("attributes") or {}
    return attributes.get("type") == "password" or "password" in str(attributes.get("autocomplete", ""))


def _parameter_name(target: dict[str, Any], taken: set[str]) -> str:
    attributes = target.get("attributes") or {}
    words = attributes.get("name") or target.get("name") or attributes.get("placeholder") or attributes.get("id")
    base = re.sub(r"[^a-z0-9]+", "_", str(words or "value").lower()).strip("_")[:40] or "value"
    if base[0].isdigit():
        base = f"field_{base}"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _replayable(step: Step) -> bool:
    return (
        step.kind == Step.Kind.ACTION
        and step.status == Step.Status.SUCCEEDED
        and step.action in ACTIONS
        and step.action not in LOOKING
    )


def _recorded(step: Step, arguments: dict[str, Any], intent: str) -> dict[str, Any]:
    recorded: dict[str, Any] = {
        "action": step.action,
        "arguments": arguments,
        "target": step.target or {},
        "url": (step.target or {}).get("url", ""),
        "intent": intent,
    }
    # The step's effect, checked when it is replayed: it led to another page.
    if step.action in NAVIGATING_ACTIONS and step.action != "navigate" and '"navigated": true' in step.observation:
        recorded["expect"] = {"navigated": True}
    return recorded


def healed_steps(steps: list[Step], values: dict[str, str], intent: str) -> list[dict[str, Any]]:
    """What the agent did to get a step done, as steps to replay next time: a value it typed that is a parameter's
    value becomes that parameter again."""
    out = []
    by_value = {value: name for name, value in values.items() if value}
    for step in steps:
        if not _replayable(step) or ("index" in (step.arguments or {}) and not step.target):
            continue
        arguments = {key: value for key, value in (step.arguments or {}).items() if key != "index"}
        for key in TYPED.get(step.action, ()):
            if isinstance(arguments.get(key), str) and arguments[key] in by_value:
                arguments[key] = "{{" + by_value[arguments[key]] + "}}"
        out.append(_recorded(step, arguments, f"{_intent(step, '')} (healed from: {intent})"))
    return out


@transaction.atomic
def workflow_version_add(*, version: WorkflowVersion, steps: list[dict[str, Any]], note: str) -> WorkflowVersion:
    """A new version of the workflow (the next number), keeping the parameters."""
    workflow = Workflow.objects.select_for_update().get(pk=version.workflow_id)
    latest = workflow.versions.order_by("-number").values_list("number", flat=True).first() or 0
    created = WorkflowVersion.objects.create(workflow=workflow, number=latest + 1, steps=steps,
                                             parameters=version.parameters, note=note[:500])  # fmt: skip
    workflow.save(update_fields=["updated_at"])
    return created


def _intent(step: Step, thought: str) -> str:
    target = step.target or {}
    aim = f' "{target.get("name")}"' if target.get("name") else ""
    what = f"{step.action}{aim}"
    return f"{what} — {thought}" if thought else what


def steps_from_run(run: Run) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The replayable steps of a run and the parameters made of what was typed in it."""
    steps: list[dict[str, Any]] = []
    parameters: list[dict[str, Any]] = []
    taken: set[str] = set()
    thought = ""
    for step in run.steps.order_by("index"):
        if step.kind == Step.Kind.THOUGHT:
            thought = step.observation.strip()[:300]
            continue
        if not _replayable(step):
            continue
        arguments = {key: value for key, value in (step.arguments or {}).items() if key != "index"}
        if "index" in (step.arguments or {}) and not step.target:
            raise ApplicationError(
                f"Step {step.index} ({step.action}) aimed at an element Hive could not record (inside a frame, or "
                "gone before it was described); this run cannot be saved as a workflow."
            )
        for key in TYPED.get(step.action, ()):
            if isinstance(arguments.get(key), str):
                name = _parameter_name(step.target or {}, taken)
                label = (step.target or {}).get("name", "")
                if _is_secret_field(step.target or {}):
                    # Never kept: a replay names a credential from the user's store instead.
                    parameters.append({"name": name, "type": "secret", "default": "", "label": label})
                else:
                    parameters.append({"name": name, "type": "string", "default": arguments[key], "label": label})
                arguments[key] = "{{" + name + "}}"
        steps.append(_recorded(step, arguments, _intent(step, thought)))
        thought = ""
    if not steps:
        raise ApplicationError("This run did nothing a workflow could replay (no successful browser actions).")
    return steps, parameters


@transaction.atomic
def workflow_save_from_run(*, run: Run, user: User, name: str) -> Workflow:
    name = name.strip()
    if not name:
        raise ApplicationError("Give the workflow a name.")
    if run.status != Run.Status.SUCCEEDED:
        raise ApplicationError("Only a run that succeeded can be saved as a workflow.")
    steps, parameters = steps_from_run(run)
    workflow = Workflow.objects.create(owner=user, name=name[:200])
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=steps, parameters=parameters, source_run=run,
                                   note=f"Saved from run {run.pk}")  # fmt: skip
    return workflow


def secret_names(version: WorkflowVersion) -> set[str]:
    return {p["name"] for p in version.parameters if p.get("type") == "secret"}


def secrets_resolve(*, owner_id: int, version: WorkflowVersion, values: dict[str, str]) -> dict[str, str]:
    """On the worker, just before typing: each secret parameter's credential name replaced by its value."""
    resolved = dict(values)
    for name in secret_names(version):
        credential = Credential.objects.filter(owner_id=owner_id, name=values.get(name, "")).first()
        if credential is None:
            raise ApplicationError(f"No credential named {values.get(name, '')!r} for the parameter {name}.")
        resolved[name] = decrypt(credential.value)
    return resolved


def masked(values: dict[str, str], version: WorkflowVersion) -> dict[str, str]:
    """The values as steps, logs, prompts and webhooks may show them."""
    hidden = secret_names(version)
    return {name: SECRET_MASK if name in hidden else value for name, value in values.items()}


def credential_set(*, owner: User, name: str, value: str) -> Credential:
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", name):
        raise ApplicationError("A credential's name is letters, digits, '_', '.' or '-' (at most 100).")
    if not value:
        raise ApplicationError("The credential's value is empty.")
    credential, _ = Credential.objects.update_or_create(owner=owner, name=name, defaults={"value": encrypt(value)})
    return credential


def parameters_resolve(version: WorkflowVersion, given: dict[str, Any]) -> dict[str, str]:
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
    *, workflow: Workflow, user: User, parameters: dict[str, Any], conversation: Conversation | None = None
) -> Run:
    """Queue a replay of the workflow's latest version, in the given conversation or a new one."""
    version = workflow.versions.order_by("-number").first()
    if version is None:
        raise ApplicationError("This workflow has no steps.", status_code=status.HTTP_409_CONFLICT)
    values = parameters_resolve(version, parameters)
    if conversation is None:
        conversation = conversation_create(owner=user, title=f"Workflow: {workflow.name}"[:200])
    conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
    run_ensure_idle(conversation=conversation)
    metadata = {"workflow": workflow.pk, "version": version.number, "version_id": version.pk, "parameters": values}
    return run_create(conversation=conversation, kind=Run.Kind.WORKFLOW, metadata=metadata)


def fill(arguments: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """Arguments with `{{name}}` replaced by the parameter's value."""

    def one(value: Any) -> Any:
        if isinstance(value, str):
            return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
        return value

    return {key: one(value) for key, value in arguments.items()}


PARAMETER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


@transaction.atomic
def workflow_update(
    *,
    workflow: Workflow,
    name: str | None = None,
    description: str | None = None,
    rename: dict[str, str] | None = None,
    defaults: dict[str, str] | None = None,
) -> Workflow:
    """Rename the workflow, describe it, rename parameters (their `{{placeholders}}` in the steps follow) or change
    their defaults. A change to the parameters is a new version."""
    if name is not None:
        if not name.strip():
            raise ApplicationError("Give the workflow a name.")
        workflow.name = name.strip()[:200]
    if description is not None:
        workflow.description = description.strip()
    workflow.save()
    rename, defaults = rename or {}, defaults or {}
    if not rename and not defaults:
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
    parameters = [
        {**p, "name": rename.get(p["name"], p["name"]), "default": str(defaults.get(p["name"], p.get("default", "")))}
        for p in version.parameters
    ]

    def renamed(value: Any) -> Any:
        if isinstance(value, str):
            return PLACEHOLDER.sub(lambda m: "{{" + rename.get(m.group(1), m.group(1)) + "}}", value)
        return value

    steps = [{**s, "arguments": {k: renamed(v) for k, v in (s.get("arguments") or {}).items()}} for s in version.steps]
    changes = [f"renamed {old} to {new}" for old, new in rename.items()] + [f"new default for {n}" for n in defaults]
    WorkflowVersion.objects.create(workflow=workflow, number=version.number + 1, steps=steps, parameters=parameters,
                                   note=("Edited: " + ", ".join(changes))[:500])  # fmt: skip
    return workflow


@transaction.atomic
def workflow_delete(*, workflow: Workflow) -> None:
    """The workflow, its versions, schedules (and their beat entries) and delivery log; runs stay in their
    conversations."""
    for schedule in workflow.schedules.select_related("periodic_task"):
        if schedule.periodic_task is not None:
            schedule.periodic_task.delete()
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
