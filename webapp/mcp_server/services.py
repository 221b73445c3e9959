"""What an MCP call does in the database: find or make the client's conversation, queue its run, read the result.

Everything here is a plain Django service run on the database thread; the checks are the REST API's own (access,
one active run, quotas, the queue bound), so an MCP client can do nothing a script with the same token could not.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from browser_pool.actions import validate_arguments
from webapp.conversations.browser_selectors import browser_session_tools
from webapp.conversations.browser_services import FILE_ADD_NEEDS, conversation_file_add
from webapp.conversations.file_selectors import files_of_run
from webapp.conversations.models import Conversation, Message
from webapp.conversations.selectors import conversation_get
from webapp.conversations.services import conversation_create, message_send
from webapp.conversations.types import ConversationFilePayload, PageTools, no_page_tools
from webapp.core.exceptions import ApplicationError
from webapp.core.throttles import throttle_wait
from webapp.core.types import JsonObject
from webapp.mcp_server.sessions import session_conversations
from webapp.mcp_server.tools import PAGE_PREFIX, READS
from webapp.runs.models import Run
from webapp.runs.selectors import confirmation_get
from webapp.runs.services import confirmation_answer, run_create_for_action, run_create_for_tool_call
from webapp.workflows.selectors import run_end_url, workflow_get, workflow_latest, workflow_list
from webapp.workflows.services import workflow_run_start


class Refusal(Exception):
    """A call that cannot be done, with the reason the client's model should read."""


def _throttle(user: Any, scope: str, what: str) -> None:
    wait = throttle_wait(user=user, scope=scope)
    if wait is not None:
        raise Refusal(f"Too many {what} for now: try again in {wait:.0f} s.")


ACCESS_ENDED = "Your access to this conversation ended while the call ran: nothing more of it is handed to you."


def still_controls(*, user: User, conversation_id: int) -> None:
    """Refuse, after a call's run, a caller who may no longer act in its conversation (their share was taken back or
    made viewer meanwhile): what the run found is not theirs to read any more."""
    try:
        conversation_get(user=user, conversation_id=conversation_id, need="controller")
    except (Http404, ApplicationError) as exc:
        raise Refusal(ACCESS_ENDED) from exc


def conversation_for_client(
    *, user: User, named: int | None, session_id: str | None, create: bool
) -> Conversation | None:
    """The conversation a client works in: the one it names; else its session's; else (no session: the current
    protocol) the user's MCP conversation used within the idle timeout; else a new one, made on first use.
    `session_id` is a session of the older handshake the SDK vouched for (it exists and is this user's)."""
    known = session_conversations.conversation(user_id=user.pk, session_id=session_id) if session_id else None
    try:
        if named is not None:
            return conversation_get(user=user, conversation_id=named, need="controller")
        if known is not None:
            return conversation_get(user=user, conversation_id=known, need="controller")
    except Http404 as exc:
        raise Refusal("No such conversation, or it is not shared with you.") from exc
    except ApplicationError as exc:
        raise Refusal(exc.message) from exc
    conversation = None
    if session_id is None:
        since = timezone.now() - timedelta(seconds=settings.HIVE_MCP_IDLE_S)
        conversation = (
            Conversation.objects.filter(owner=user, origin=Conversation.Origin.MCP, updated_at__gte=since)
            .order_by("-updated_at", "-id")
            .first()
        )
    if conversation is None and create:
        _throttle(user, "conversations", "new conversations")
        conversation = conversation_create(owner=user, title="MCP client", origin=Conversation.Origin.MCP)
    if conversation is not None and session_id is not None:
        session_conversations.remember(user_id=user.pk, session_id=session_id, conversation_id=conversation.pk)
    return conversation


def page_tool_listing(*, conversation: Conversation | None) -> PageTools:
    return browser_session_tools(conversation=conversation) if conversation is not None else no_page_tools()


def _stored_upload(conversation: Conversation, arguments: JsonObject, user: User) -> JsonObject:
    """`upload_file` with the bytes in the call: stored as the conversation's file, then put in the input by id.
    Bytes or an address add a file to the conversation, which takes its owner, as the REST upload does; a file
    already there (`file_id`) is put in by whoever may act in it."""
    if "url" in arguments or "data_base64" in arguments:
        try:
            conversation_get(user=user, conversation_id=conversation.pk, need=FILE_ADD_NEEDS)
        except (ApplicationError, Http404) as exc:
            raise Refusal(
                "Only the conversation's owner can add a file to it (data_base64 or url); a file already there can "
                "be put in by its file_id."
            ) from exc
    if "url" in arguments:
        url = arguments["url"]
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise Refusal("url must be an http or https address of the file.")
        return arguments  # fetched by the worker's browser, through its firewall
    data = arguments.pop("data_base64", None)
    name = str(arguments.pop("name", "") or "upload")
    if data is None:
        if "file_id" not in arguments:
            raise Refusal(
                "Send the file as data_base64 (with its name), its url, or the file_id of a file already uploaded."
            )
        return arguments
    try:
        content = base64.b64decode(str(data), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Refusal("data_base64 is not valid base64.") from exc
    try:
        stored = conversation_file_add(conversation=conversation, upload=SimpleUploadedFile(name, content))
    except ApplicationError as exc:
        raise Refusal(exc.message) from exc
    return {**arguments, "file_id": str(stored.pk)}


@transaction.atomic
def call_start(*, conversation: Conversation, name: str, arguments: JsonObject, user: User) -> Run:
    """Queue the run that does one tool call (a browser action, a read, or a tool of the page)."""
    page_tool = name.startswith(PAGE_PREFIX)
    _throttle(user, "tool_calls" if page_tool else "actions", "tool calls" if page_tool else "actions")
    try:
        if page_tool:
            tool = name.removeprefix(PAGE_PREFIX)
            listing = browser_session_tools(conversation=conversation)
            offered = {t["name"]: t for t in listing.get("tools") or [] if not t.get("shadowed")}
            if tool not in offered:
                raise Refusal(f"The page open now offers no tool named {tool!r}; list the tools again.")
            read_only = bool((offered[tool].get("annotations") or {}).get("readOnlyHint"))
            run = run_create_for_tool_call(
                conversation=conversation, started_by=user, name=tool, arguments=arguments, source="mcp",
                read_only=read_only,
            )  # fmt: skip
        else:
            if name == "upload_file":
                arguments = _stored_upload(conversation, dict(arguments), user)
            if name not in READS and not (name == "upload_file" and "url" in arguments):
                invalid = validate_arguments(name, arguments)
                if invalid is not None:
                    raise Refusal(f"{invalid.error}. {invalid.suggestion}".strip())
            run = run_create_for_action(
                conversation=conversation, started_by=user, action=name, arguments=arguments, source="mcp"
            )
    except ApplicationError as exc:
        raise Refusal(exc.message) from exc
    Conversation.objects.filter(pk=conversation.pk).update(updated_at=timezone.now())
    return run


@transaction.atomic
def task_start(*, conversation: Conversation, task: str, user: User) -> Run:
    _throttle(user, "runs", "tasks")
    try:
        _, run = message_send(conversation=conversation, content=task, author=user)
    except ApplicationError as exc:
        raise Refusal(exc.message) from exc
    return run


def _stopped_reason(run: Run) -> str:
    if run.status == Run.Status.ABORTED:
        return run.error or "Stopped from the dashboard."
    return run.error or "It failed."


def call_outcome(*, run: Run) -> tuple[bool, str, bytes | None]:
    """(ok, text, screenshot when the call was a screenshot) of an ended call's run."""
    step = run.steps.order_by("-index").first()
    if step is None:
        return False, _stopped_reason(run), None
    if run.status != Run.Status.SUCCEEDED:
        text = step.error or _stopped_reason(run)
        try:
            suggestion = json.loads(step.observation).get("suggestion", "")
        except (ValueError, AttributeError):
            suggestion = ""
        return False, f"{text}. {suggestion}".strip() if suggestion else text, None
    picture = None
    if step.action == "screenshot" and step.screenshot:
        with step.screenshot.open("rb") as handle:
            picture = handle.read()
    return True, step.observation, picture


def run_downloads(*, run: Run) -> list[ConversationFilePayload]:
    """The files the run's steps downloaded, at addresses the client reaches with its API token."""
    return files_of_run(run_id=run.pk, absolute=True)


def task_outcome(*, run: Run) -> tuple[bool, str]:
    if run.status != Run.Status.SUCCEEDED:
        return False, _stopped_reason(run)
    reply = run.messages.filter(role=Message.Role.ASSISTANT).order_by("-created_at", "-id").first()
    return True, reply.content if reply is not None else "Done."


def confirmation_decide(*, user: User, confirmation_id: int, approve: bool) -> None:
    """The client's user answered the question Hive asked through their MCP client; an answer already given in the
    dashboard (or an expired question) stands."""
    try:
        confirmation = confirmation_get(user=user, confirmation_id=confirmation_id, need="controller")
        confirmation_answer(confirmation=confirmation, user=user, approve=approve)
    except (ApplicationError, Http404):
        pass


def workflows_listed(*, user: User) -> str:
    listed = [
        {
            "id": w.pk,
            "name": w.name,
            "parameters": list(latest.parameters) if (latest := workflow_latest(workflow=w)) else [],
        }
        for w in workflow_list(user=user)
    ]
    return json.dumps(listed, ensure_ascii=False)


@transaction.atomic
def workflow_start(*, user: User, conversation: Conversation, arguments: JsonObject) -> Run:
    _throttle(user, "runs", "runs")
    workflow_id = arguments.get("workflow")
    parameters = arguments.get("parameters") or {}
    if not isinstance(workflow_id, int) or not isinstance(parameters, dict):
        raise Refusal("run_workflow takes the workflow's id (from list_workflows) and its parameters as an object.")
    try:
        workflow = workflow_get(user=user, workflow_id=workflow_id, need="controller")
        return workflow_run_start(workflow=workflow, user=user, parameters=parameters, conversation=conversation)
    except Http404 as exc:
        raise Refusal(f"You have no workflow {workflow_id}; list_workflows shows yours.") from exc
    except ApplicationError as exc:
        raise Refusal(exc.message) from exc


def workflow_outcome(*, run: Run) -> tuple[bool, str]:
    if run.status != Run.Status.SUCCEEDED:
        return False, _stopped_reason(run)
    steps = run.steps.filter(kind="action").count()
    where = run_end_url(run=run)
    how = "without a model" if not run.prompt_tokens else f"({run.prompt_tokens} prompt tokens for healing or reading)"
    text = f"Replayed {steps} steps {how}." + (f" The page is now {where}." if where else "")
    outputs = run.metadata.get("outputs")
    if outputs:
        text += "\nOutputs: " + json.dumps(outputs, ensure_ascii=False)
    return True, text
