"""What the agent sees of the browser between steps: the page summary (layer 1), a screenshot, and a readable
reason instead of a crash when the browser or the page cannot be observed, so the model can try another way."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
from collections.abc import Collection
from dataclasses import dataclass

from agents.config import AgentConfig
from agents.safety import PageFacts
from browser_pool.observe import get_elements, get_summary
from browser_pool.screencast import step_picture
from browser_pool.types import TabControl

log = logging.getLogger(__name__)

PAGE_TAG = "untrusted_page_data"
_CLOSING = re.compile(rf"</\s*{PAGE_TAG}", re.IGNORECASE)
SCREENSHOT_TIMEOUT_MS = 5_000


@dataclass(frozen=True, slots=True)
class PageView:
    """The active tab as last observed."""

    available: bool
    # The rendered summary, or why the page could not be observed.
    text: str
    url: str = ""
    title: str = ""
    facts: PageFacts = PageFacts()
    # Changes when what the page shows changes; the loop detector compares it.
    fingerprint: str = ""
    # The interactive elements in view: the list as the model reads it, and its element lines.
    elements_text: str = ""
    elements: tuple[str, ...] = ()
    # The indices of every element the list stands for, those its size budget left out included.
    element_indices: frozenset[int] = frozenset()
    # The summary's entries (address, title, scroll, counts, focus, dialogs, text), to tell what an action changed.
    lines: tuple[str, ...] = ()


def fence(text: str, *, label: str = "page") -> str:
    """Wrap page-derived text so the model reads it as data; a page cannot close the fence early."""
    safe = _CLOSING.sub(f"<\\\\/{PAGE_TAG}", text)
    return f'<{PAGE_TAG} source="{label}">\n{safe}\n</{PAGE_TAG}>'


# What a person changes without changing the text: values, checked and selected states, and where the focus is.
CONTROL_STATE_JS = """() => {
  const parts = [];
  for (const el of document.querySelectorAll("input, textarea, select, [contenteditable]")) {
    if (el.type === "checkbox" || el.type === "radio") parts.push(el.checked ? "1" : "0");
    else if (el.tagName === "SELECT") parts.push(Array.from(el.selectedOptions, (o) => o.index).join(","));
    else if (el.isContentEditable) parts.push(el.textContent);
    else parts.push(el.value);
  }
  const focused = document.activeElement;
  parts.push(focused ? focused.tagName + "#" + (focused.id || "") + ":" + (focused.name || "") : "");
  return parts.join("\u0001");
}"""


ELEMENTS_AS_BEFORE = "Interactive elements in view: as before."
_LINE_INDEX = re.compile(r"^\*?\[(\d+)\]")


def _line_key(line: str) -> tuple[str, str]:
    """An element line's index and its text without the "new since the last list" star."""
    match = _LINE_INDEX.match(line)
    return (match.group(1) if match else line, line.removeprefix("*"))


def elements_change(before: PageView | None, after: PageView) -> str:
    """The interactive elements as the model reads them after an action, so that looking them up again is rare: on
    another page, the whole list; on the same page, the elements that appeared or changed (value, state, text) and
    the indices gone, or that nothing changed. An element the list's size budget left out this time is not gone."""
    if not after.elements_text:
        return ""
    if before is None or not before.elements_text or before.url != after.url:
        return after.elements_text
    old = dict(_line_key(line) for line in before.elements)
    new = dict(_line_key(line) for line in after.elements)
    changed = [line for line in after.elements if old.get(_line_key(line)[0]) != _line_key(line)[1]]
    still = {str(index) for index in after.element_indices} or new.keys()
    gone = [index for index in old if index not in still]
    if not changed and not gone:
        return ELEMENTS_AS_BEFORE
    lines = ["Interactive elements in view that appeared or changed:", *changed] if changed else []
    if gone:
        lines.append("Gone from view: " + ", ".join(f"[{index}]" for index in gone))
    return "\n".join(lines)


def _label(line: str) -> str:
    return line.split(":", 1)[0]


def page_change(before: PageView | None, after: PageView) -> tuple[str, str]:
    """(heading, page data) telling the model the page after an action. On another page, all of it; on the same page,
    only the summary's entries that changed (a focus or a dialog that went is said too) and the elements' change, so
    that the same text is not sent again with every step: a shorter request is cheaper and faster to answer."""
    elements = elements_change(before, after)
    if before is None or not before.lines or before.url != after.url:
        return "Page after the action:", f"{after.text}\n{elements}" if elements else after.text
    changed = [line for line in after.lines if line not in before.lines]
    now = {_label(line) for line in after.lines}
    for line in before.lines:
        if _label(line) == "Focused" and "Focused" not in now:
            changed.append("Focused: nothing")
        elif _label(line) == "Open dialog" and line not in after.lines:
            changed.append("Closed dialog:" + line.split(":", 1)[1])
    if elements and elements != ELEMENTS_AS_BEFORE:
        changed.append(elements)
    if not changed:
        return "Page after the action: no change in its address, text or elements in view.", ""
    return "Page after the action (the same address; what changed):", "\n".join(changed)


BLANK_TAB = "The tab is blank (about:blank)."


def page_context(view: PageView) -> str:
    """The page as the model first sees it in a turn: the summary with the elements in view, fenced."""
    if not view.available:
        return view.text
    if view.url == "about:blank" and not view.facts.text.strip() and not view.elements:  # the empty fields: noise
        return BLANK_TAB
    return fence(f"{view.text}\n{view.elements_text}".strip())


def _unavailable(reason: str) -> PageView:
    return PageView(available=False, text=f"The page could not be observed: {reason}")


async def observe_page(
    tabs: TabControl, *, text_chars: int, safety_text_chars: int, elements_chars: int = 0, whole_page_up_to: int = 0
) -> PageView:
    """The active tab's summary. Never raises for a missing browser, a closed tab or a page that will not answer."""
    try:
        page = tabs.active_page
        summary = await get_summary(page, text_chars=max(text_chars, safety_text_chars))
    except Exception as exc:  # a lost browser, a closed tab, a busy page: all become a readable observation
        log.info("page observation failed: %s", exc)
        return _unavailable(str(exc) or exc.__class__.__name__)
    shown = dataclasses.replace(summary, visible_text=summary.visible_text[:text_chars])
    try:
        controls = str(await page.evaluate(CONTROL_STATE_JS))
        listing = (
            await get_elements(
                page, "all", visible_only=True, budget_chars=elements_chars, whole_page_up_to=whole_page_up_to
            )
            if elements_chars
            else None
        )
    except Exception:  # the page navigated meanwhile: the summary's parts still tell states apart
        controls, listing = "", None
    state = "|".join(
        (
            summary.url,
            summary.title,
            repr(sorted(summary.counts.items())),
            repr(summary.scroll),
            summary.visible_text,
            controls,
        )
    )
    return PageView(
        available=True,
        text=shown.render(),
        url=summary.url,
        title=summary.title,
        facts=PageFacts(url=summary.url, text=summary.visible_text),
        fingerprint=hashlib.sha1(state.encode(), usedforsecurity=False).hexdigest(),
        elements_text=listing.text if listing is not None else "",
        elements=tuple(listing.lines) if listing is not None else (),
        element_indices=frozenset(listing.indices) if listing is not None else frozenset(),
        lines=tuple(shown.render_lines()),
    )


async def observe(tabs: TabControl, config: AgentConfig) -> PageView:
    """The active tab as a turn's settings show it to the model."""
    return await observe_page(
        tabs,
        text_chars=config.page_text_chars,
        safety_text_chars=config.safety_text_chars,
        elements_chars=config.elements_chars,
        whole_page_up_to=config.elements_whole_page_up_to,
    )


async def screenshot(tabs: TabControl, *, quality: int, hidden: Collection[str] = ()) -> bytes | None:
    """A JPEG of the active tab's viewport, or None when there is nothing to picture; `hidden` texts (secrets the
    step filled in) are covered wherever the page shows them."""
    try:
        # Masked only where the page has a password field or a hidden text: the mask costs a restyle and paint even
        # when nothing matches.
        image = await step_picture(tabs.active_page, quality=quality, timeout_ms=SCREENSHOT_TIMEOUT_MS, hidden=hidden)
    except Exception as exc:  # a step without a picture is fine; a crash is not
        # Playwright's message may name the masks' selectors, which hold the hidden texts.
        log.info("step screenshot failed: %s", type(exc).__name__ if hidden else exc)
        return None
    return image
