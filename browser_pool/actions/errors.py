"""User-level action failures, phrased for the model: what went wrong and what to try instead."""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

REFRESH_HINT = "call get_elements to see the page as it is now"


class ActionError(Exception):
    """Raised by an action for a problem the model can act on; becomes ActionResult(ok=False)."""

    def __init__(self, error: str, suggestion: str = "") -> None:
        super().__init__(error)
        self.error = error
        self.suggestion = suggestion


def _first_line(message: str) -> str:
    line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    # Drop Playwright's "ElementHandle.click: " prefix; the model did not call Playwright.
    return re.sub(r"^[A-Za-z]+\.[A-Za-z_]+: ", "", line)


def explain_playwright_error(exc: PlaywrightError, subject: str, timeout_ms: int) -> ActionError:
    """Turn a Playwright error about `subject` (e.g. 'element [12] (button "Pay")') into a readable ActionError."""
    text = exc.message
    if isinstance(exc, PlaywrightTimeoutError):
        return _explain_timeout(text, subject, timeout_ms)
    if "not attached to the DOM" in text or "detached from document" in text:
        return ActionError(f"{subject} no longer exists on the page (the page changed)", REFRESH_HINT)
    if "Frame was detached" in text or "frame got detached" in text.lower():
        return ActionError(f"the frame containing {subject} was removed from the page", REFRESH_HINT)
    if "Execution context was destroyed" in text:
        return ActionError("the page navigated while the action was running, so it may not have finished", REFRESH_HINT)
    if "has been closed" in text or "Target closed" in text:
        return ActionError("the tab was closed during the action", "call list_tabs and switch_tab to another tab")
    if "Unknown key" in text:
        key = re.search(r'Unknown key: "([^"]*)"', text)
        return ActionError(
            f"unknown key {key.group(1)!r}" if key else _first_line(text),
            "use key names like Enter, Tab, Escape, Backspace, ArrowDown, PageDown, Home, F5, a, 1",
        )
    if "net::ERR_" in text:
        code = re.search(r"net::ERR_[A-Z_]+", text)
        return ActionError(
            f"the page could not be loaded ({code.group(0) if code else 'network error'})",
            "check the URL; the site may be down or unreachable from this browser",
        )
    return ActionError(f"{subject}: {_first_line(text)}")


def _explain_timeout(text: str, subject: str, timeout_ms: int) -> ActionError:
    seconds = f"{timeout_ms / 1000:g} s"
    covering = re.search(r"(<[^>]{1,120}>)[^\n]* intercepts pointer events", text)
    if covering:
        return ActionError(
            f"{subject} is covered by another element {covering.group(1)}",
            "close the dialog, banner or menu on top of it first, or scroll so the element is uncovered",
        )
    if "element is not visible" in text:
        return ActionError(f"{subject} is hidden", "it may appear after hovering or opening a menu; " + REFRESH_HINT)
    if "element is not enabled" in text:
        return ActionError(f"{subject} is disabled", "complete the fields or steps it depends on first")
    if "element is not editable" in text:
        return ActionError(f"{subject} is read-only", "choose a text field that accepts input")
    if "element is not stable" in text:
        return ActionError(f"{subject} kept moving for {seconds} (an animation)", "wait a moment and try again")
    return ActionError(f"{subject} did not respond within {seconds}", "wait for the page to settle, then try again")
