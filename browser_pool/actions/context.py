"""What an action handler gets to work with, and what it hands back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import ElementHandle, Page

from browser_pool.actions.watch import PageWatch
from browser_pool.types import TabControl, TabInfo


@dataclass(slots=True)
class ActionContext:
    tabs: TabControl
    page: Page  # the tab that was active when the action started
    watch: PageWatch
    uploads: Mapping[str, Path]
    timeout_ms: int
    # How error messages name what the action works on, e.g. 'element [12] (button "Pay")'; set once resolved.
    subject: str = ""
    # Set when the target opens another window (a[target=_blank]): the popup arrives after the click returns.
    expects_popup: bool = False
    # Set when the target is a download link (a[download]): the browser announces its download after the click.
    expects_download: bool = False
    # The element a click aimed at, so the result can say whether it was gone afterwards (a workflow's check).
    handle: ElementHandle | None = None
    # The element the arguments named, found before the action to record it (for a point: the element there).
    aimed: ElementHandle | None = None


@dataclass(slots=True)
class Outcome:
    """A handler's result; execute_action adds navigation, popups and dialogs around it."""

    data: dict[str, Any] = field(default_factory=dict)
    screenshot: bytes | None = None
    new_tab: TabInfo | None = None
