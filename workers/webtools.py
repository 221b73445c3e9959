"""WebMCP in a worker: SKILLs injected into matching pages, each tab's tools followed and shown in the Tool
Inspector, and the active tab's tools offered to the agent as tools of its own."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from agents.tools.base import Tool, ToolContext, ToolOutput
from browser_pool.errors import PoolError
from browser_pool.session import Session
from browser_pool.webmcp import ToolDiscovery, ToolRecord, call_tool
from webapp.conversations.browser_services import browser_session_set_tools
from webapp.conversations.types import PageTools, SkillStatus, ToolAnnotations, WebTool, no_page_tools
from webapp.core.types import JsonObject
from webapp.skills.selectors import skills_for_url
from webapp.skills.types import SkillInjection

log = logging.getLogger(__name__)

TOOL_TIMEOUT_S = 10.0
RESULT_LIMIT_BYTES = 64 * 1024
# Namespaces keep page tools apart from the browser actions and the agent's own tools.
PAGE_PREFIX = "page__"
SKILL_PREFIX = "skill__"


@dataclass(slots=True)
class TabTools:
    skills: list[SkillStatus] = field(default_factory=list)  # per injected SKILL
    shadowed: list[WebTool] = field(default_factory=list)  # SKILL tools the page's own tools hide


def _injection_script(skill: SkillInjection) -> str:
    """One SKILL's health check and tools as a script evaluated in the page. The handlers are compiled as part of
    this script (not with `new Function` in the page), so a page's CSP does not stop them."""
    tools = []
    for tool in skill["tools"]:
        spec = json.dumps(
            {
                "name": tool["name"],
                "title": tool.get("title") or "",
                "description": tool["description"],
                "inputSchema": tool["input_schema"],
                "annotations": tool.get("annotations") or {},
            }
        )
        tools.append(f"[{spec}, async (input, {{ signal }}) => {{\n{tool['handler']}\n}}]")
    health = skill.get("health_check") or "return true;"
    return f"""async () => {{
  const hive = window[Symbol.for("hive.webmcp.v1")];
  if (!hive) return {{ status: "failed", error: "Hive's WebMCP bridge is not in this page." }};
  try {{
    const healthy = await (async () => {{\n{health}\n}})();
    if (!healthy) return {{ status: "failed", error: "The health check returned " + String(healthy) + "." }};
  }} catch (e) {{
    return {{ status: "failed", error: "The health check failed: " + ((e && e.message) || String(e)) }};
  }}
  const own = new Set();
  try {{ for (const t of await document.modelContext.getTools()) own.add(t.name); }} catch (e) {{}}
  const registered = [], shadowed = [], errors = [];
  for (const [spec, execute] of [{", ".join(tools)}]) {{
    if (own.has(spec.name)) {{ shadowed.push(spec.name); continue; }}
    try {{
      await hive.registerTool({{ ...spec, execute }}, {{ source: {json.dumps(skill["name"])} }});
      registered.push(spec.name);
    }} catch (e) {{ errors.push(spec.name + ": " + ((e && e.message) || String(e))); }}
  }}
  return {{ status: errors.length ? "failed" : "ok", error: errors.join("; "), registered, shadowed }};
}}"""


def _function_name(prefix: str, name: str) -> str:
    return prefix + re.sub(r"[^A-Za-z0-9_-]", "_", name)[: 64 - len(prefix)]


def annotations_payload(record: ToolRecord) -> ToolAnnotations:
    hints = record.annotations
    return {
        "readOnlyHint": hints.read_only_hint,
        "untrustedContentHint": hints.untrusted_content_hint,
        "consequentialHint": hints.consequential_hint,
    }


def web_tool_payload(record: ToolRecord, *, shadowed: bool = False) -> WebTool:
    skill = None if record.source == "page" else record.source
    return {
        "name": record.name,
        "title": record.title,
        "description": record.description,
        "source": "page" if skill is None else "skill",
        "skill": skill,
        "input_schema": record.input_schema or {"type": "object", "properties": {}},
        "annotations": annotations_payload(record),
        "shadowed": shadowed,
    }


class WebTools:
    """Per worker: discovery over every held session, SKILL injection on every page load."""

    def __init__(self) -> None:
        self._discovery: dict[int, ToolDiscovery] = {}
        self._tabs: dict[tuple[int, str], TabTools] = {}
        self._sessions: dict[int, Session] = {}
        self._hooked: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        # What each conversation's Tool Inspector was last sent: a navigation prompts several publishes (the tab
        # changed, the tools were read, the SKILLs injected) that mostly find the same snapshot.
        self._published: dict[int, PageTools] = {}

    async def follow(self, conversation_id: int, session: Session) -> None:
        if self._sessions.get(conversation_id) is session:
            return
        await self.forget(conversation_id)
        self._sessions[conversation_id] = session

        async def changed(tab_id: str, tools: list[ToolRecord]) -> None:
            await self.publish(conversation_id)

        discovery = ToolDiscovery(on_tools_changed=changed)
        self._discovery[conversation_id] = discovery
        await discovery.watch_session(session)
        for tab in session.tabs.all:
            self._hook(conversation_id, tab.id, tab.page)
            self._spawn(self.inject(conversation_id, tab.id, tab.page))

        def on_page(page: Page) -> None:
            tab = session.tabs.tab_for(page)
            if tab is not None:
                self._hook(conversation_id, tab.id, page)

        session.context.on("page", on_page)

    async def forget(self, conversation_id: int) -> None:
        discovery = self._discovery.pop(conversation_id, None)
        self._sessions.pop(conversation_id, None)
        self._published.pop(conversation_id, None)
        if discovery is not None:
            await discovery.close()
        for key in [k for k in self._tabs if k[0] == conversation_id]:
            del self._tabs[key]

    async def close(self) -> None:
        for conversation_id in list(self._discovery):
            await self.forget(conversation_id)
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _hook(self, conversation_id: int, tab_id: str, page: Page) -> None:
        if id(page) in self._hooked:
            return
        self._hooked.add(id(page))
        page.on("load", lambda loaded: self._spawn(self.inject(conversation_id, tab_id, loaded)))
        page.on("close", lambda closed: self._hooked.discard(id(closed)))

    async def inject(self, conversation_id: int, tab_id: str, page: Page) -> None:
        """Inject the SKILLs matching the page's address; record each one's health for the inspector."""
        url = page.url
        if not url.startswith(("http://", "https://")):
            return
        skills = await database_sync_to_async(skills_for_url)(url=url, conversation_id=conversation_id)
        state = TabTools()
        self._tabs[(conversation_id, tab_id)] = state
        discovery = self._discovery.get(conversation_id)
        for skill in skills:
            if discovery is not None:
                discovery.expect_skill(tab_id, skill["name"])
            try:
                outcome = await page.evaluate(_injection_script(skill))
            except PlaywrightError as exc:
                outcome = {"status": "failed", "error": f"The SKILL could not run in the page: {exc.message}"}
            if outcome.get("status") != "ok":
                log.warning("SKILL %s on %s: %s", skill["name"], url, outcome.get("error"))
            state.skills.append(
                {
                    "name": skill["name"],
                    "version": skill["version"],
                    "status": outcome.get("status", "failed"),
                    "error": outcome.get("error", ""),
                }
            )
            by_name = {tool["name"]: tool for tool in skill["tools"]}
            for name in outcome.get("shadowed") or []:
                tool = by_name[name]
                state.shadowed.append(
                    {
                        "name": name,
                        "title": tool.get("title") or "",
                        "description": tool["description"],
                        "source": "skill",
                        "skill": skill["name"],
                        "input_schema": tool["input_schema"],
                        "annotations": tool["annotations"] or ToolAnnotations(),
                        "shadowed": True,
                    }
                )
        if discovery is not None and (watcher := discovery.watcher(tab_id)) is not None:
            await watcher.refresh()
        await self.publish(conversation_id)

    def snapshot(self, conversation_id: int) -> PageTools:
        """The active tab's tools and SKILL health, as the Tool Inspector shows them."""
        session = self._sessions.get(conversation_id)
        discovery = self._discovery.get(conversation_id)
        if session is None or discovery is None or session.closed:
            return no_page_tools()
        try:
            tab_id = session.active_tab_id
        except PoolError:  # between a closed last tab and its blank replacement, or a crashed browser
            return no_page_tools()
        state = self._tabs.get((conversation_id, tab_id), TabTools())
        tools = [web_tool_payload(record) for record in discovery.tools(tab_id)]
        return {"tab": tab_id, "tools": tools + list(state.shadowed), "skills": list(state.skills)}

    async def publish(self, conversation_id: int) -> None:
        """Store and announce the active tab's tools, unless that is what was stored last."""
        snapshot = self.snapshot(conversation_id)
        if self._published.get(conversation_id) == snapshot:
            return
        self._published[conversation_id] = snapshot
        try:
            await database_sync_to_async(browser_session_set_tools)(conversation_id=conversation_id, snapshot=snapshot)
        except BaseException:
            self._published.pop(conversation_id, None)  # not stored: the next publish tries again
            raise

    def agent_tools(self, conversation_id: int) -> list[Tool]:
        """The active tab's tools as the agent's own: namespaced, with the page's schema and annotations."""
        session = self._sessions.get(conversation_id)
        discovery = self._discovery.get(conversation_id)
        if session is None or discovery is None or session.closed:
            return []
        return [self._as_tool(session, record) for record in discovery.tools(session.active_tab_id)]

    @staticmethod
    def _as_tool(session: Session, record: ToolRecord) -> Tool:
        from_skill = record.source != "page"

        async def handler(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
            result = await call_tool(
                session.active_page,
                record.name,
                arguments,
                timeout_s=TOOL_TIMEOUT_S,
                max_result_bytes=RESULT_LIMIT_BYTES,
                frame=record.frame,
            )
            if not result.ok:
                return ToolOutput(
                    ok=False,
                    error=result.error,
                    suggestion="check the arguments against the tool's schema, or use the page directly",
                    page_changed=True,
                )
            return ToolOutput(text=result.result_text, page_changed=not record.annotations.read_only_hint)

        origin = f"the SKILL {record.source}" if from_skill else "the page"
        hints = [k for k, v in annotations_payload(record).items() if v]
        description = f"[{origin} tool {record.name}] {record.description}" + (
            f" ({', '.join(hints)})" if hints else ""
        )
        return Tool(
            name=_function_name(SKILL_PREFIX if from_skill else PAGE_PREFIX, record.name),
            description=description[:1024],
            parameters=record.input_schema or {"type": "object", "properties": {}},
            handler=handler,
            read_only=record.annotations.read_only_hint,
            source="skill" if from_skill else "webmcp",
            timeout_s=TOOL_TIMEOUT_S + 5,
        )
