"""The MCP server (the official SDK's low-level `Server`): tools listed per client, calls run as Hive runs."""

from __future__ import annotations

import asyncio
import base64
from typing import Any
from urllib.parse import parse_qs

import mcp_types as types
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from webapp.core.types import JsonObject, Scope
from webapp.mcp_server import services
from webapp.mcp_server.notify import watchers
from webapp.mcp_server.profiles import MODE_HEADER, PROFILE_HEADER, ProfileRefusalError, profile_apply, profiles_listed
from webapp.mcp_server.services import Refusal
from webapp.mcp_server.tools import (
    FIXED_NAMES,
    LIST_PROFILES,
    LIST_WORKFLOWS,
    PAGE_PREFIX,
    RUN_TASK,
    RUN_WORKFLOW,
    fixed_tools,
    page_tools,
)
from webapp.mcp_server.waiting import RunWatch, StepListener

CONVERSATION_HEADER = "hive-conversation"
SESSION_HEADER = "mcp-session-id"

INSTRUCTIONS = (
    "Hive runs a browser on its server for you, in one Hive conversation that its owner can watch live and share. "
    "Look with observe (the [index] of every element in view), get_content (the page's main text) and screenshot; "
    "act with navigate, click, type, select, scroll and the other actions; tools named page_* are the open page's "
    "own tools. run_task hands a whole task to Hive's own agent."
)


def _scope(ctx: ServerRequestContext[Any, Any]) -> Scope:
    request = ctx.request
    scope = getattr(request, "scope", None)
    if not isinstance(scope, dict) or not isinstance(scope.get("hive_user"), User):
        raise Refusal("Not signed in: send your Hive API token as 'Authorization: Bearer <token>'.")
    return scope


def _header(scope: Scope, name: str) -> str | None:
    wanted = name.encode()
    for key, value in scope.get("headers", []):
        if key.lower() == wanted:
            return str(value.decode("latin-1"))
    return None


def _named_conversation(scope: Scope) -> int | None:
    raw = _header(scope, CONVERSATION_HEADER)
    if raw is None:
        raw = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("conversation") or [None])[0]
    if raw is None or raw == "":
        return None
    if not raw.isdigit():
        raise Refusal("The conversation to work in is named by its number, e.g. Hive-Conversation: 12.")
    return int(raw)


def _session_id(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The request's session of the older handshake, which the SDK checked (it exists, and is this token's user's)
    before the request got here. The current protocol has no sessions: an id sent with it was checked by nobody, so
    it names nothing."""
    if ctx.session.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        return None
    return _header(_scope(ctx), SESSION_HEADER)


async def _conversation(ctx: ServerRequestContext[Any, Any], *, create: bool) -> Any:
    scope = _scope(ctx)
    return await database_sync_to_async(services.conversation_for_client)(
        user=scope["hive_user"],
        named=_named_conversation(scope),
        session_id=_session_id(ctx),
        create=create,
    )


class Asker:
    """Asks the client's user, through MCP elicitation, the questions the safety policy asks in the dashboard: when
    the client can be asked (the older handshake with a session, and the client declared elicitation). Otherwise,
    or until they answer, the question waits in the dashboard, and no answer in time is a no."""

    def __init__(self, ctx: ServerRequestContext[Any, Any], user: User) -> None:
        self.ctx = ctx
        self.user = user
        self.pending: set[asyncio.Task[None]] = set()
        capabilities = ctx.session.client_capabilities
        self.can_ask = (
            ctx.session.can_send_request and capabilities is not None and capabilities.elicitation is not None
        )

    async def __aenter__(self) -> Asker:
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self.pending:
            task.cancel()

    def ask(self, confirmation: JsonObject) -> None:
        """`confirmation` as a `confirmation.requested` event carries it (ConfirmationOutput)."""
        if self.can_ask:
            task = asyncio.get_running_loop().create_task(self._ask(confirmation))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)

    async def _ask(self, confirmation: JsonObject) -> None:
        question = f"Hive asks before it does this: {confirmation.get('reason')}. Allow {confirmation.get('action')}?"
        schema = {
            "type": "object",
            "properties": {"approve": {"type": "boolean", "title": "Allow"}},
            "required": ["approve"],
        }
        try:
            answer = await self.ctx.session.elicit_form(question, schema)  # type: ignore[arg-type]
        except Exception:
            return  # the client could not ask after all: the question stays in the dashboard
        approve = answer.action == "accept" and bool((answer.content or {}).get("approve"))
        await database_sync_to_async(services.confirmation_decide)(
            user=self.user, confirmation_id=int(confirmation["id"]), approve=approve
        )


def _error(text: str, conversation_id: int | None = None) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        is_error=True,
        _meta={"hive/conversation": conversation_id} if conversation_id else None,
    )


async def list_tools(
    ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    tools = fixed_tools()
    try:
        conversation = await _conversation(ctx, create=False)
    except Refusal:
        conversation = None
    listing = await database_sync_to_async(services.page_tool_listing)(conversation=conversation)
    return types.ListToolsResult(tools=tools + page_tools(listing))


async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    name, arguments = params.name, dict(params.arguments or {})
    if name not in FIXED_NAMES and not name.startswith(PAGE_PREFIX):
        return _error(f"Hive has no tool named {name!r}. The tools named page_* change with the page: list them again.")
    conversation_id = None
    try:
        conversation = await _conversation(ctx, create=True)
        conversation_id = conversation.pk
        session_id = _session_id(ctx)
        if session_id is not None:
            watchers.called(session_id, conversation_id, ctx.session)
        # run_task and run_workflow take a profile as arguments; a page's own tool may have arguments of that name.
        await _profile_named(ctx, conversation, arguments if name in (RUN_TASK, RUN_WORKFLOW) else {})
        if name == RUN_TASK:
            return await _run_task(ctx, conversation, arguments)
        if name == LIST_PROFILES:
            listed = await database_sync_to_async(profiles_listed)(user=_scope(ctx)["hive_user"])
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=listed)], _meta={"hive/conversation": conversation_id}
            )
        if name == LIST_WORKFLOWS:
            listed = await database_sync_to_async(services.workflows_listed)(user=_scope(ctx)["hive_user"])
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=listed)], _meta={"hive/conversation": conversation_id}
            )
        if name == RUN_WORKFLOW:
            return await _run_workflow(ctx, conversation, arguments)
        user = _scope(ctx)["hive_user"]
        async with RunWatch(conversation_id) as watch, Asker(ctx, user) as asker:
            run = await database_sync_to_async(services.call_start)(
                conversation=conversation, name=name, arguments=arguments, user=user
            )
            run = await watch.until_done(run.pk, on_confirmation=asker.ask, timeout_s=settings.HIVE_MCP_CALL_TIMEOUT_S)
        await database_sync_to_async(services.still_controls)(user=user, conversation_id=conversation_id)
        ok, text, picture = await database_sync_to_async(services.call_outcome)(run=run)
    except Refusal as exc:
        return _error(str(exc), conversation_id)
    except TimeoutError:
        return _error(f"{name} did not finish in {settings.HIVE_MCP_CALL_TIMEOUT_S:.0f} s and was stopped.")
    content: list[types.ContentBlock] = [types.TextContent(type="text", text=text)]
    if picture is not None:
        data = base64.b64encode(picture).decode("ascii")
        content = [types.ImageContent(type="image", data=data, mime_type="image/jpeg")]
    content += await _downloads(run)
    return types.CallToolResult(content=content, is_error=not ok, _meta={"hive/conversation": conversation_id})


async def _downloads(run: Any) -> list[types.ContentBlock]:
    """A resource link for each file the run's steps downloaded (fetched with the client's API token)."""
    files = await database_sync_to_async(services.run_downloads)(run=run)
    return [
        types.ResourceLink(
            type="resource_link",
            uri=file["url"],
            name=file["name"],
            mime_type=file["content_type"],
            size=file["size"],
            description=f"Downloaded by the browser from {file['source_url']}" if file["source_url"] else None,
        )
        for file in files
    ]


async def _profile_named(ctx: ServerRequestContext[Any, Any], conversation: Any, arguments: JsonObject) -> None:
    """The browser profile the client names for its conversation: a `profile` argument (taken out of the arguments)
    over the Hive-Profile header. Naming the one in use changes nothing."""
    scope = _scope(ctx)
    ref = arguments.pop("profile", None) or _header(scope, PROFILE_HEADER)
    mode = arguments.pop("profile_mode", None) or _header(scope, MODE_HEADER)
    if not ref:
        return
    if not isinstance(ref, str) or not isinstance(mode, str | None):
        raise Refusal("profile names a browser profile (its name or id) and profile_mode is read-write or read-only.")
    try:
        await database_sync_to_async(profile_apply)(
            user=scope["hive_user"], conversation=conversation, ref=ref, mode=mode
        )
    except ProfileRefusalError as exc:
        raise Refusal(str(exc)) from exc


def _step_progress(ctx: ServerRequestContext[Any, Any]) -> StepListener:
    """Each step a run starts, as an MCP progress notification ("Step 2: click"), when the client asked for them."""
    started = 0

    async def progress(step: JsonObject) -> None:
        nonlocal started
        if step.get("status") == "running":
            started += 1
            await ctx.session.report_progress(
                started, None, f"Step {started}: {step.get('action') or step.get('kind')}"
            )

    return progress


async def _run_task(
    ctx: ServerRequestContext[Any, Any], conversation: Any, arguments: JsonObject
) -> types.CallToolResult:
    task = arguments.get("task")
    if not isinstance(task, str) or not task.strip():
        raise Refusal("run_task needs the task in words, as 'task'.")
    progress = _step_progress(ctx)
    async with RunWatch(conversation.pk) as watch:
        run = await database_sync_to_async(services.task_start)(
            conversation=conversation, task=task, user=_scope(ctx)["hive_user"]
        )
        run = await watch.until_done(run.pk, on_step=progress, timeout_s=settings.HIVE_MCP_TASK_TIMEOUT_S)
    await database_sync_to_async(services.still_controls)(
        user=_scope(ctx)["hive_user"], conversation_id=conversation.pk
    )
    ok, text = await database_sync_to_async(services.task_outcome)(run=run)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text), *await _downloads(run)],
        is_error=not ok,
        _meta={"hive/conversation": conversation.pk},
    )


class HiveServer(Server[Any]):
    """Sessions of the older handshake are told when the page's tools change (`notify.py`)."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, JsonObject] | None = None,
        extensions: dict[str, JsonObject] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True), experimental_capabilities, extensions
        )


async def _run_workflow(
    ctx: ServerRequestContext[Any, Any], conversation: Any, arguments: JsonObject
) -> types.CallToolResult:
    progress = _step_progress(ctx)
    user = _scope(ctx)["hive_user"]
    async with RunWatch(conversation.pk) as watch:
        run = await database_sync_to_async(services.workflow_start)(
            user=user, conversation=conversation, arguments=arguments
        )
        run = await watch.until_done(run.pk, on_step=progress, timeout_s=settings.HIVE_MCP_TASK_TIMEOUT_S)
    await database_sync_to_async(services.still_controls)(user=user, conversation_id=conversation.pk)
    ok, text = await database_sync_to_async(services.workflow_outcome)(run=run)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text), *await _downloads(run)],
        is_error=not ok,
        _meta={"hive/conversation": conversation.pk},
    )


def build_server() -> Server[Any]:
    return HiveServer(
        "hive",
        version="1",
        title="Hive",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
