"""An action a person runs by hand on the conversation's browser (the URL bar, back, reload ... from the dashboard or
the REST API), or an MCP client runs through Hive's MCP endpoint; or a page's WebMCP tool called from the Tool
Inspector or by an MCP client.

Each is one step for the step executor (`agents.step.run_step`, with `workers.steps`' context): recorded like an
agent's step, with the structured result as the observation and a screenshot of the page afterwards. An MCP client's
call is a program's, like the agent's: it waits while a person holds the browser and is judged by the safety policy
(a confirm-level step asks in the dashboard); a person's own action is theirs to take. Besides the browser actions,
two reads that change nothing: `observe` (the page model's summary and the elements in view) and `get_content` (the
page's main text), for clients that are not Hive's own agent.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from playwright.async_api import Error as PlaywrightError
from pydantic import Field

from agents.step import StepCall, run_step
from agents.tools.base import SOURCE_BROWSER, Tool, ToolContext, ToolError, ToolOutput
from agents.tools.browser import browser_tool
from browser_pool.actions import ACTIONS
from browser_pool.actions.params import NoArguments, Params, UploadFile, schema_of
from browser_pool.extract import extract_page
from browser_pool.net.proxy import listener_for
from browser_pool.observe import ObservationError, observe
from browser_pool.session import Session
from browser_pool.types import JsonObject
from browser_pool.webmcp import call_tool
from webapp.conversations.browser_selectors import conversation_uploads
from webapp.conversations.browser_services import conversation_file_add
from webapp.conversations.models import Conversation
from webapp.runs.models import Run
from workers.sink import WorkerSink
from workers.steps import worker_step_context
from workers.turns import finish
from workers.webtools import RESULT_LIMIT_BYTES, TOOL_TIMEOUT_S

__all__ = ["manual_action"]

CONTENT_LIMIT_CHARS = 100_000


class GetContent(Params):
    limit_chars: int = Field(
        20_000, ge=100, le=CONTENT_LIMIT_CHARS, description="Cut the text at this many characters."
    )


class UploadByAddress(UploadFile):
    """upload_file as an MCP client may send it: the file fetched from an address instead of one already uploaded
    (its bytes sent inline are stored by the web process before the run)."""

    file_id: str | None = Field(None, min_length=1, description="An uploaded file's id.")  # type: ignore[assignment]
    url: str | None = Field(None, min_length=1, description="An http(s) address to fetch the file from.")
    name: str | None = Field(None, min_length=1, max_length=200, description="The file's name.")


READ_TOOLS = ("observe", "get_content")


def _read_tools(session: Session) -> dict[str, Tool]:
    async def observe_page(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        try:
            return ToolOutput(text=(await observe(session.active_page)).render())
        except ObservationError as exc:
            raise ToolError(str(exc)) from exc

    async def get_content(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        limit = GetContent.model_validate(arguments).limit_chars
        content = await extract_page(session.active_page, limit=limit)
        if not content.ok:
            raise ToolError(content.reason or "the page has no readable text")
        more = f" (cut at {len(content.text)} of {content.length} characters)" if content.truncated else ""
        return ToolOutput(text=f"{content.title}\n{content.url}{more}\n\n{content.text}")

    return {
        "observe": Tool("observe", "The page's summary and elements in view.", schema_of(NoArguments), observe_page,
                        read_only=True, source=SOURCE_BROWSER),
        "get_content": Tool("get_content", "The page's main text.", schema_of(GetContent), get_content,
                            read_only=True, source=SOURCE_BROWSER),
    }  # fmt: skip


class UploadFetchError(Exception):
    """A file to upload could not be fetched from its address; the message says why."""


def _store_upload(conversation_id: int, name: str, body: bytes) -> str:
    conversation = Conversation.objects.get(pk=conversation_id)
    stored = conversation_file_add(conversation=conversation, upload=SimpleUploadedFile(name, body))
    return str(stored.pk)


async def fetched_upload(run: Run, session: Session, arguments: JsonObject) -> JsonObject:
    """`upload_file` from an address: fetched by the browser's own context, so through its network firewall, and
    kept as the conversation's file; the action then puts that file into the page."""
    arguments = dict(arguments)
    url = str(arguments.pop("url"))
    name = str(arguments.pop("name", "") or "") or (urlsplit(url).path.rsplit("/", 1)[-1] or "download")
    context = session.active_page.context
    firewall = listener_for(context)
    before = firewall.blocked_count if firewall is not None else 0
    try:
        response = await context.request.get(url, timeout=30_000, max_redirects=5)
        body = await response.body() if response.ok else b""
    except PlaywrightError as exc:
        blocked = firewall.blocked_since(before) if firewall is not None else []
        if blocked:
            raise UploadFetchError(f"could not fetch {url}: {blocked[0].describe()}") from exc
        raise UploadFetchError(f"could not fetch {url}: {exc.message.splitlines()[0]}") from exc
    if not response.ok:
        blocked = firewall.blocked_since(before) if firewall is not None else []
        reason = blocked[0].describe() if blocked else f"the server answered {response.status}"
        raise UploadFetchError(f"could not fetch {url}: {reason}")
    if len(body) > settings.HIVE_UPLOAD_MAX_BYTES:
        raise UploadFetchError(
            f"the file at {url} is too large (at most {settings.HIVE_UPLOAD_MAX_BYTES // 1_000_000} MB)"
        )
    file_id = await database_sync_to_async(_store_upload)(run.conversation_id, name[:200], body)
    return {**arguments, "file_id": file_id}


def _upload_tool(run: Run, session: Session) -> Tool:
    """The upload_file action, fetching its file first when it names an address."""
    action = browser_tool("upload_file")

    async def upload(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        if "url" in arguments:
            try:
                arguments = await fetched_upload(run, session, arguments)
            except UploadFetchError as exc:
                raise ToolError(str(exc), "check the address, or upload the file to the conversation") from exc
            # The file fetched just now is one of the conversation's files from now on.
            uploads = await database_sync_to_async(conversation_uploads)(conversation_id=run.conversation_id)
            ctx = dataclasses.replace(ctx, uploads=uploads)
        return await action.handler(arguments, ctx)

    return Tool(
        action.name,
        action.description,
        schema_of(UploadByAddress),
        upload,
        read_only=action.read_only,
        source=action.source,
    )


def _page_tool(session: Session, name: str, read_only: bool) -> Tool:
    """A tool of the page open now, called by name; the page checks the arguments against its own schema."""

    async def call(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        result = await call_tool(
            session.active_page, name, arguments, timeout_s=TOOL_TIMEOUT_S, max_result_bytes=RESULT_LIMIT_BYTES
        )
        # The picture after it shows what the tool did to the page, as the Tool Inspector shows it.
        return ToolOutput(ok=result.ok, text=result.result_text if result.ok else "", error=result.error,
                          page_changed=True)  # fmt: skip

    return Tool(name, "", {"type": "object"}, call, read_only=read_only, source="webmcp", timeout_s=TOOL_TIMEOUT_S + 5)


def _tool(run: Run, session: Session) -> tuple[Tool | None, StepCall]:
    arguments = dict(run.metadata.get("arguments") or {})
    if run.kind == Run.Kind.TOOL:
        name = str(run.metadata.get("tool", ""))
        tool = _page_tool(session, name, bool(run.metadata.get("read_only")))
        return tool, StepCall(name, arguments, recorded_as=f"tool:{name}")
    name = str(run.metadata.get("action", ""))
    if name in READ_TOOLS:
        return _read_tools(session)[name], StepCall(name, arguments)
    if name == "upload_file":
        return _upload_tool(run, session), StepCall(name, arguments)
    return (browser_tool(name) if name in ACTIONS else None), StepCall(name, arguments)


async def manual_action(run: Run, session: Session, sink: WorkerSink) -> None:
    mcp = run.metadata.get("source") == "mcp"
    if mcp:
        # An MCP client is a program, like the agent: it waits while a person holds the browser (the person's own
        # actions by hand do not).
        await sink.checkpoint()
    tool, call = _tool(run, session)
    context = await worker_step_context(run, session, sink, tools=[tool] if tool else [], judged=mcp)
    outcome = await run_step(call, context)
    # None of the tools above asks the model: the run has no model calls to add up.
    await finish(run.pk, Run.Status.SUCCEEDED if outcome.ok else Run.Status.FAILED, outcome.error, model_calls=False)
