"""Chromium's CDP `WebMCP` domain for one tab: tool change events, invocations and their real outcome.

With native WebMCP the browser itself reports tools being added and removed (`WebMCP.toolsAdded/toolsRemoved`), and
`WebMCP.invokeTool` runs a tool the way the browser's own agent would, answering with `WebMCP.toolResponded`,
which carries the exception the tool threw (in-page `executeTool()` only says "UnknownError"). Enabling the domain
is harmless on a Chromium without WebMCP: it then simply never reports anything.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.types import JsonObject

log = logging.getLogger(__name__)

OutcomeStatus = Literal["ok", "error", "cancelled", "timeout", "missing"]

# toolResponded can overtake our own reading of invokeTool's reply; answers nobody waits for yet are kept this long.
_UNCLAIMED_MAX = 64
_ERROR_TEXT_MAX = 4000


@dataclass(frozen=True, slots=True)
class NativeOutcome:
    status: OutcomeStatus
    output: Any = None
    error: str = ""


class CdpChannel:
    """The WebMCP domain on a CDP session of one page. `on_tools_changed` runs (synchronously) on every tool event."""

    def __init__(self, cdp: CDPSession, on_tools_changed: Callable[[], None] | None = None) -> None:
        self._cdp = cdp
        self._on_tools_changed = on_tools_changed
        self._waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._unclaimed: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._closed = False

    @classmethod
    async def open(cls, page: Page, on_tools_changed: Callable[[], None] | None = None) -> CdpChannel:
        channel = cls(await page.context.new_cdp_session(page), on_tools_changed)
        await channel.enable()
        return channel

    async def enable(self) -> None:
        self._cdp.on("WebMCP.toolsAdded", self._tools_event)
        self._cdp.on("WebMCP.toolsRemoved", self._tools_event)
        self._cdp.on("WebMCP.toolResponded", self._responded)
        await self._cdp.send("WebMCP.enable")

    async def close(self) -> None:
        self._closed = True
        for waiter in self._waiters.values():
            waiter.cancel()
        self._waiters.clear()
        try:
            await self._cdp.detach()
        except PlaywrightError:
            log.debug("CDP session for WebMCP was already gone")

    def _tools_event(self, _params: dict[str, Any]) -> None:
        if self._on_tools_changed is not None and not self._closed:
            self._on_tools_changed()

    def _responded(self, params: dict[str, Any]) -> None:
        invocation = str(params.get("invocationId", ""))
        waiter = self._waiters.pop(invocation, None)
        if waiter is not None:
            if not waiter.done():
                waiter.set_result(params)
            return
        self._unclaimed[invocation] = params
        while len(self._unclaimed) > _UNCLAIMED_MAX:
            self._unclaimed.popitem(last=False)

    async def frame_id(self, path: tuple[int, ...]) -> str:
        """The CDP frame id of the document at `path` (indices into `window.frames` from the top)."""
        if not path:
            tree = await self._cdp.send("Page.getFrameTree")
            return str(tree["frameTree"]["frame"]["id"])
        expression = "window" + "".join(f".frames[{int(index)}]" for index in path) + ".frameElement"
        found = await self._cdp.send("Runtime.evaluate", {"expression": expression, "returnByValue": False})
        object_id = found.get("result", {}).get("objectId")
        if not object_id:
            raise LookupError(f"no frame at {list(path)}")
        try:
            node = await self._cdp.send("DOM.describeNode", {"objectId": object_id})
        finally:
            await self._release(object_id)
        frame = node.get("node", {}).get("frameId")
        if not frame:
            raise LookupError(f"no frame at {list(path)}")
        return str(frame)

    async def invoke(self, frame_id: str, name: str, arguments: JsonObject, timeout_s: float) -> NativeOutcome:
        """Run a tool; on timeout the invocation is cancelled, which aborts the tool's signal."""
        invocation = ""
        try:
            async with asyncio.timeout(timeout_s):
                try:
                    reply = await self._cdp.send(
                        "WebMCP.invokeTool", {"frameId": frame_id, "toolName": name, "input": arguments}
                    )
                except PlaywrightError as exc:
                    if "not found" in exc.message.lower():
                        return NativeOutcome("missing", error=exc.message)
                    raise
                invocation = str(reply["invocationId"])
                params = self._unclaimed.pop(invocation, None)
                if params is None:
                    waiter = asyncio.get_running_loop().create_future()
                    self._waiters[invocation] = waiter
                    params = await waiter
        except TimeoutError:
            if invocation:
                self._waiters.pop(invocation, None)
                await self._cancel(invocation)
            return NativeOutcome("timeout")
        return await self._outcome(params)

    async def _cancel(self, invocation: str) -> None:
        try:
            await self._cdp.send("WebMCP.cancelInvocation", {"invocationId": invocation})
        except PlaywrightError as exc:
            log.debug("cancelling WebMCP invocation %s: %s", invocation, exc.message)

    async def _outcome(self, params: dict[str, Any]) -> NativeOutcome:
        status = params.get("status")
        if status == "Completed":
            return NativeOutcome("ok", output=params.get("output"))
        if status == "Canceled":
            return NativeOutcome("cancelled", error="the tool call was cancelled")
        exception = params.get("exception") or {}
        if exception.get("objectId"):
            await self._release(str(exception["objectId"]))
        return NativeOutcome("error", error=error_text(params))

    async def _release(self, object_id: str) -> None:
        try:
            await self._cdp.send("Runtime.releaseObject", {"objectId": object_id})
        except PlaywrightError:
            log.debug("could not release remote object %s", object_id)


def error_text(params: dict[str, Any]) -> str:
    """The tool's own error from a toolResponded event: Chromium leaves `errorText` empty for a thrown exception and
    puts "TypeError: message\\n    at ..." in the exception's description; the stack is dropped."""
    text = str(params.get("errorText") or "")
    exception = params.get("exception") or {}
    if not text and exception:
        if exception.get("description"):
            text = str(exception["description"])
        elif "value" in exception:
            text = str(exception["value"])
        else:
            text = str(exception.get("className") or exception.get("type") or "")
    lines = text.splitlines()
    kept: list[str] = []
    for line in lines:
        if line.startswith("    at ") and kept:
            break
        kept.append(line)
    text = "\n".join(kept).strip()
    return text[:_ERROR_TEXT_MAX] or "the tool failed without saying why"
