"""Small data types shared by the pool, the actions and their callers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from playwright.async_api import Page

# Password fields, and fields a secret was typed into (browser_pool.actions.forms marks them), are covered by a grey
# box in every screenshot Hive keeps, whatever they hold.
CONCEALED = "data-hive-secret"
SECRET_FIELDS = f"input[type=password], [{CONCEALED}]"
MASK_COLOR = "#888888"


@dataclass(frozen=True, slots=True)
class TabInfo:
    """One tab of a session, as callers and the dashboard see it."""

    id: str
    title: str
    url: str
    favicon: str = ""
    active: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "url": self.url, "favicon": self.favicon, "active": self.active}


# JSON whose shape is open on purpose: tool and action arguments (checked against their JSON schema where they run),
# JSON schemas themselves, data a page or a user supplies. Known shapes have a TypedDict or a dataclass of their own.
JsonObject = dict[str, Any]


class RecordedTarget(TypedDict, total=False):
    """The record of an element an action aimed at by index (browser_pool.replay), kept with a workflow's step so a
    later visit finds the element again; stored as JSON, so every key may be missing from an old record."""

    tag: str
    kind: str
    role: str
    name: str  # what a person calls it: a field's label, a button's or link's text
    attributes: dict[str, str]  # the stable ones (STABLE_ATTRIBUTES)
    selector: str  # unique CSS selector, "" when none was unique
    xpath: str
    in_shadow: bool
    url: str
    gone_after: bool  # measured by a click: the element was gone after it


@dataclass(slots=True)
class ActionResult:
    """What an action did: ok or a readable error, and what changed on the page."""

    ok: bool
    action: str
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    suggestion: str = ""
    navigated: bool = False
    url: str = ""
    new_tab: TabInfo | None = None
    dialog: str = ""
    screenshot: bytes | None = None
    # Requests the network firewall refused while the action ran (what and why), e.g. an internal image.
    blocked: list[str] = field(default_factory=list)
    # What the pool did to the session's tabs since the last action: popups closed past the tab limit, a busy or
    # too heavy tab closed (browser_pool.notices).
    notices: list[str] = field(default_factory=list)
    # What became of the files the page downloaded (browser_pool.downloads): kept, and how to read them, or refused.
    downloads: list[str] = field(default_factory=list)
    # The element an index pointed at, recorded so a workflow can find it again (browser_pool.replay); not shown.
    target: RecordedTarget | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "action": self.action}
        if self.data:
            out["data"] = self.data
        if self.error:
            out["error"] = self.error
        if self.suggestion:
            out["suggestion"] = self.suggestion
        if self.navigated:
            out["navigated"] = True
        if self.url:
            out["url"] = self.url
        if self.new_tab is not None:
            out["new_tab"] = self.new_tab.as_dict()
        if self.dialog:
            out["dialog"] = self.dialog
        if self.blocked:
            out["blocked_requests"] = self.blocked
        if self.notices:
            out["notices"] = self.notices
        if self.downloads:
            out["downloads"] = self.downloads
        return out


@dataclass(slots=True)
class SavedSession:
    """What survives a session being reaped or its worker dying: cookies, storage, open tabs, and the secrets typed
    into its pages by each person's runs (its pages may go on showing them: whoever restores it masks them still).
    Stored only encrypted, as the cookies are."""

    storage_state: dict[str, Any] = field(default_factory=dict)
    tab_urls: list[str] = field(default_factory=list)
    active_index: int = 0
    typed_secrets: dict[str, list[str]] = field(default_factory=dict)
    # The storage is lent by someone else (a profile of theirs): kept by its owner only. Not part of the save itself.
    storage_lent: bool = field(default=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "storage_state": self.storage_state,
            "tab_urls": self.tab_urls,
            "active_index": self.active_index,
            "typed_secrets": self.typed_secrets,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any] | None) -> SavedSession | None:
        if not raw:
            return None
        return cls(
            storage_state=dict(raw.get("storage_state") or {}),
            tab_urls=[str(u) for u in raw.get("tab_urls") or []],
            active_index=int(raw.get("active_index") or 0),
            typed_secrets={
                str(who): [str(value) for value in values]
                for who, values in dict(raw.get("typed_secrets") or {}).items()
                if isinstance(values, list)
            },
        )


class TabControl(Protocol):
    """The tab operations actions need; a pool `Session` provides them."""

    @property
    def active_page(self) -> Page: ...

    async def list_tabs(self) -> list[TabInfo]: ...

    def tab_ids(self) -> list[str]:
        """The open tabs' ids, without reading anything from their pages."""
        ...

    async def open_tab(self, url: str | None = None) -> TabInfo: ...

    async def switch_tab(self, tab_id: str) -> TabInfo: ...

    async def close_tab(self, tab_id: str) -> list[TabInfo]: ...
