"""The shapes of a conversation's browser as the web, the worker and the dashboard exchange them: its tabs, what was
read from a tab, the active tab's tools, and who is watching. The REST API and the websocket events carry them as
they are (frontend/src/api/types.ts mirrors them)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from webapp.core.types import JsonObject


class TabContext(TypedDict):
    """What was read from a tab added to the context (its text stays on the server)."""

    tab_id: str
    title: str
    url: str
    method: str
    length: int
    truncated: bool
    reason: str
    extracted_at: str | None  # ISO 8601


class SavedTab(TypedDict):
    """A tab of the session as the worker last saw it: browser_pool's TabInfo.as_dict()."""

    id: str
    title: str
    url: str
    favicon: str
    active: bool


class SessionTab(SavedTab):
    """A tab as the dashboard gets it: its favicon only if it is an inline data: image (else ""), and what was read
    from it when it was added to the context."""

    context: TabContext | None


class ToolAnnotations(TypedDict, total=False):
    """A page's hints about a tool: hints only, never a grant of trust."""

    readOnlyHint: bool
    untrustedContentHint: bool
    consequentialHint: bool


class WebTool(TypedDict):
    """A WebMCP tool of the active tab, registered by the page or injected by a SKILL."""

    name: str
    title: str
    description: str
    source: Literal["page", "skill"]
    skill: str | None
    input_schema: JsonObject
    annotations: ToolAnnotations
    shadowed: bool  # a SKILL tool hidden by the page's own tool of the same name


class SkillStatus(TypedDict):
    """A SKILL injected into the active tab, and how its health check went."""

    name: str
    version: str
    status: str  # "ok" | "failed"
    error: str


class PageTools(TypedDict):
    """The active tab's tools and SKILL health: the worker reports it, the web stores and shows it."""

    tab: str | None
    tools: list[WebTool]
    skills: list[SkillStatus]


def no_page_tools() -> PageTools:
    return {"tab": None, "tools": [], "skills": []}


class ViewerEntry(TypedDict):
    """One open websocket on a conversation, in its Redis viewers hash."""

    user_id: int
    username: str
    role: str
    since: float  # time.time()
    seen: float
    # Whether the socket streams the live browser: one past its owner's live-sessions quota watches messages only.
    live: NotRequired[bool]
    # False once the socket left a frame unacknowledged past the ack timeout (a program following events, or a
    # dashboard in a hidden tab): the worker streams frames only while some socket takes them. Absent means True.
    frames: NotRequired[bool]


class PresenceViewer(TypedDict):
    """Who is watching, once per person, as the `presence` event lists them."""

    username: str
    role: str
    since: str  # ISO 8601


class SharedTabContent(TypedDict):
    """A shared tab as the model gets it with a turn (agents.shared_tabs)."""

    id: str
    title: str
    url: str
    content: str
