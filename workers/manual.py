"""An action the user runs by hand on the conversation's browser (the URL bar, back, reload ...), or an MCP client
runs through Hive's MCP endpoint.

It is recorded like an agent's step: arguments, the structured result as the observation, timing and a
screenshot of the page afterwards. Besides the browser actions, two reads that change nothing: `observe` (the page
model's summary and the elements in view) and `get_content` (the page's main text), for clients that are not Hive's
own agent.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from playwright.async_api import Error as PlaywrightError

from agents.events import ConfirmationRequest
from agents.safety import PageFacts, SafetyPolicy
from agents.tools.base import SOURCE_BROWSER
from agents.tools.browser import target_text
from browser_pool.actions import ACTIONS, execute_action
from browser_pool.errors import BrowserCrashedError
from browser_pool.extract import extract_page
from browser_pool.net.proxy import listener_for
from browser_pool.observe import ObservationError, get_summary, observe
from browser_pool.session import Session
from browser_pool.types import MASK_COLOR, secret_masks
from browser_pool.webmcp import call_tool
from webapp.conversations.browser_selectors import conversation_uploads
from webapp.conversations.browser_services import conversation_file_add
from webapp.conversations.models import Conversation
from webapp.runs.models import Run, Step
from workers.policy import safety_config
from workers.sink import WorkerSink
from workers.turns import finish
from workers.webtools import RESULT_LIMIT_BYTES, TOOL_TIMEOUT_S

__all__ = ["READS", "manual_action"]

SCREENSHOT_QUALITY = 60
CONTENT_LIMIT_CHARS = 100_000


async def _observe(session: Session, arguments: dict[str, object]) -> str:
    return (await observe(session.active_page)).render()


async def _get_content(session: Session, arguments: dict[str, object]) -> str:
    limit = arguments.get("limit_chars")
    content = await extract_page(
        session.active_page, limit=min(int(limit), CONTENT_LIMIT_CHARS) if isinstance(limit, int) else 20_000
    )
    if not content.ok:
        raise ObservationError(content.reason or "the page has no readable text")
    more = f" (cut at {len(content.text)} of {content.length} characters)" if content.truncated else ""
    return f"{content.title}\n{content.url}{more}\n\n{content.text}"


# Reads by name: what they return is the step's observation.
READS = {"observe": _observe, "get_content": _get_content}


async def _page_facts(session: Session) -> PageFacts:
    try:
        summary = await get_summary(session.active_page)
        return PageFacts(url=summary.url, text=summary.visible_text)
    except Exception:
        return PageFacts(url=session.active_page.url)


@dataclass(frozen=True, slots=True)
class Asking:
    """How a confirm-level step asks for the user's yes: `refuse` says why it is not asked at all; otherwise it waits
    `timeout_s` (HIVE_CONFIRM_TIMEOUT_S when 0) after `tell` told someone it waits."""

    refuse: str = ""
    timeout_s: float = 0.0
    tell: Callable[[ConfirmationRequest, float], Awaitable[None]] | None = None


async def policy_refusal(
    run: Run, session: Session, sink: WorkerSink, step_id: int, name: str, arguments: dict[str, object], *,
    source: str, read_only: bool, asking: Asking | None = None,
) -> str:  # fmt: skip
    """For an MCP client's call, the agent's safety policy: "" when it may go ahead, else why not. A confirm-level
    call asks in the dashboard (pending confirmation, as for the agent) and is refused without a yes in time;
    `asking` changes how (a scheduled replay: refuse at once, or wait longer and tell the owner)."""
    conversation = await database_sync_to_async(Conversation.objects.get)(pk=run.conversation_id)
    policy = SafetyPolicy(safety_config(conversation))
    page = await _page_facts(session)
    decision = await policy.assess(
        tool=name,
        read_only=read_only,
        source=source,
        arguments=dict(arguments),
        page=page,
        target_text=lambda: target_text(session, dict(arguments)),
    )
    if decision.level == "block":
        return f"Blocked by Hive's safety policy: {decision.reason}"
    if decision.level != "confirm":
        return ""
    request = ConfirmationRequest(
        step_id=step_id, action=name, arguments=dict(arguments), reason=decision.reason, url=page.url
    )
    asking = asking or Asking()
    if asking.refuse:
        return f"Not done: it needs the user's yes ({decision.reason}), and {asking.refuse}."
    timeout_s = asking.timeout_s or settings.HIVE_CONFIRM_TIMEOUT_S
    if asking.tell is not None:
        await asking.tell(request, timeout_s)
    try:
        async with asyncio.timeout(timeout_s + 30):
            if await sink.confirm(request, timeout_s):
                return ""
    except TimeoutError:
        pass
    return f"Not done: it needs the user's yes ({decision.reason}), and they declined or did not answer in time."


async def page_screenshot(session: Session) -> bytes | None:
    try:
        page = session.active_page
        return await page.screenshot(type="jpeg", quality=SCREENSHOT_QUALITY, timeout=5_000,
                                     mask=secret_masks(page), mask_color=MASK_COLOR)  # fmt: skip
    except Exception:
        return None


async def manual_action(run: Run, session: Session, sink: WorkerSink) -> None:
    if run.metadata.get("source") == "mcp":
        # An MCP client is a program, like the agent: it waits while a person holds the browser (the person's own
        # actions by hand do not).
        await sink.checkpoint()
    if run.kind == Run.Kind.TOOL:
        await manual_tool_call(run, session, sink)
        return
    name = str(run.metadata.get("action", ""))
    arguments = dict(run.metadata.get("arguments") or {})
    if name in READS:
        await manual_read(run, session, sink, name, arguments)
        return
    step_id = await sink.step_started(kind=Step.Kind.ACTION, action=name, arguments=arguments)
    started = time.monotonic()
    if run.metadata.get("source") == "mcp":
        spec = ACTIONS.get(name)
        refusal = await policy_refusal(
            run, session, sink, step_id, name, arguments, source=SOURCE_BROWSER, read_only=bool(spec and spec.read_only)
        )
        if refusal:
            await _refused(run, sink, step_id, refusal, started)
            return
    if name == "upload_file" and "url" in arguments:
        try:
            arguments = await fetched_upload(run, session, arguments)
        except UploadFetchError as exc:
            await _refused(run, sink, step_id, str(exc), started)
            return
    uploads = await database_sync_to_async(conversation_uploads)(conversation_id=run.conversation_id)
    result = await execute_action(session, name, arguments, uploads=uploads)
    if not result.ok and await session.lost_within(1.0):
        raise BrowserCrashedError(session.lost_reason or "the browser crashed")
    screenshot = result.screenshot or await page_screenshot(session)
    await sink.step_finished(
        step_id,
        ok=result.ok,
        observation=json.dumps(result.as_dict(), ensure_ascii=False, default=str),
        error=result.error,
        duration_ms=int((time.monotonic() - started) * 1000),
        screenshot=screenshot,
        target=result.target,
    )
    await finish(run.pk, Run.Status.SUCCEEDED if result.ok else Run.Status.FAILED, result.error)


class UploadFetchError(Exception):
    """A file to upload could not be fetched from its address; the message says why."""


def _store_upload(conversation_id: int, name: str, body: bytes) -> str:
    conversation = Conversation.objects.get(pk=conversation_id)
    stored = conversation_file_add(conversation=conversation, upload=SimpleUploadedFile(name, body))
    return str(stored.pk)


async def fetched_upload(run: Run, session: Session, arguments: dict[str, object]) -> dict[str, object]:
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


async def _refused(run: Run, sink: WorkerSink, step_id: int, refusal: str, started: float) -> None:
    duration_ms = int((time.monotonic() - started) * 1000)
    await sink.step_finished(step_id, ok=False, observation="", error=refusal, duration_ms=duration_ms)
    await finish(run.pk, Run.Status.FAILED, refusal)


async def manual_read(run: Run, session: Session, sink: WorkerSink, name: str, arguments: dict[str, object]) -> None:
    step_id = await sink.step_started(kind=Step.Kind.ACTION, action=name, arguments=arguments)
    started = time.monotonic()
    text, error = "", ""
    try:
        text = await READS[name](session, arguments)
    except ObservationError as exc:
        error = str(exc)
    except Exception as exc:
        if await session.lost_within(1.0):
            raise BrowserCrashedError(session.lost_reason or "the browser crashed") from exc
        error = f"Could not read the page: {exc}"
    await sink.step_finished(
        step_id,
        ok=not error,
        observation=text,
        error=error,
        duration_ms=int((time.monotonic() - started) * 1000),
        screenshot=None,  # a read changes nothing on the page
    )
    await finish(run.pk, Run.Status.FAILED if error else Run.Status.SUCCEEDED, error)


async def manual_tool_call(run: Run, session: Session, sink: WorkerSink) -> None:
    """A WebMCP tool called from the Tool Inspector: its result (or the page's real error) and the page after."""
    name = str(run.metadata.get("tool", ""))
    arguments = dict(run.metadata.get("arguments") or {})
    step_id = await sink.step_started(kind=Step.Kind.ACTION, action=f"tool:{name}", arguments=arguments)
    started = time.monotonic()
    if run.metadata.get("source") == "mcp":
        refusal = await policy_refusal(
            run, session, sink, step_id, name, arguments, source="page", read_only=bool(run.metadata.get("read_only"))
        )
        if refusal:
            await _refused(run, sink, step_id, refusal, started)
            return
    result = await call_tool(
        session.active_page, name, arguments, timeout_s=TOOL_TIMEOUT_S, max_result_bytes=RESULT_LIMIT_BYTES
    )
    await sink.step_finished(
        step_id,
        ok=result.ok,
        observation=result.result_text if result.ok else "",
        error=result.error,
        duration_ms=int((time.monotonic() - started) * 1000),
        screenshot=await page_screenshot(session),
    )
    await finish(run.pk, Run.Status.SUCCEEDED if result.ok else Run.Status.FAILED, result.error)
