"""Recorded targets: what identifies an element well enough to find it again on a later visit, and finding it.

A target is recorded when an action aims at an element by index: its tag, kind and role, the name a person would
call it (label for fields, text for buttons and links), its stable attributes, the unique CSS selector and the XPath
Hive's page model gives it, and the page's address. Finding it again tries each way in turn, from the most specific
to the most forgiving, and takes the first that matches exactly one element that agrees with the record (same tag,
and the same name or a same stable attribute); that element then gets an index, so the action runs as if it had
been pointed at from get_elements. It must also be ready for the action: displayed (a file input may be hidden) and,
for an action that works it, enabled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError

from browser_pool.observe.api import get_element_details
from browser_pool.observe.bridge import check_element, index_for
from browser_pool.types import RecordedTarget

# Attributes that usually survive a redesign (ids and classes often do not, but an id is worth a try).
STABLE_ATTRIBUTES = ("data-testid", "data-test", "data-qa", "name", "aria-label", "placeholder", "id", "type",
                     "href", "for", "title", "alt", "role")  # fmt: skip
# Playwright's roles for the kinds of Hive's page model, when the element has no explicit role.
_ROLE_OF_TAG = {"a": "link", "button": "button", "select": "combobox", "textarea": "textbox"}
_ROLE_OF_INPUT = {"checkbox": "checkbox", "radio": "radio", "submit": "button", "button": "button",
                  "reset": "button", "image": "button", "search": "searchbox", "number": "spinbutton",
                  "range": "slider"}  # fmt: skip


async def describe_target(page: Page, index: int) -> RecordedTarget | None:
    """The record of the element behind `index`, or None when it cannot be described (gone, in a frame)."""
    try:
        details = await get_element_details(page, [index])
    except Exception:
        return None
    if not details.found:
        return None
    element = details.found[0]
    info = element.info
    if info.in_frame:
        return None  # selectors do not reach into frames; a later visit finds it by nothing else
    attributes = {key: value for key, value in element.attributes.items() if key in STABLE_ATTRIBUTES and value}
    return {
        "tag": info.tag,
        "kind": info.kind,
        "role": info.role or _implicit_role(info.tag, attributes.get("type", "")),
        "name": info.text,
        "attributes": attributes,
        "selector": element.selector if element.selector_unique else "",
        "xpath": element.xpath,
        "in_shadow": info.in_shadow,
        "url": page.url,
    }


def _implicit_role(tag: str, input_type: str) -> str:
    if tag == "input":
        return _ROLE_OF_INPUT.get(input_type, "textbox")
    return _ROLE_OF_TAG.get(tag, "")


def _css_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid CSS string (quotes and backslashes escaped)


# Actions that work the element (not just look at or scroll to it): it must be enabled.
_WORKING = frozenset({"click", "double_click", "type", "select", "upload_file", "drag"})
_GONE = "el => !el.isConnected || !(el.offsetWidth || el.offsetHeight || el.getClientRects().length)"


async def element_gone(handle: ElementHandle) -> bool:
    """Whether the element is no longer on the page or no longer displayed (a dialog's button after it closed it)."""
    try:
        return bool(await handle.evaluate(_GONE))
    except PlaywrightError:
        return True  # detached with its document


@dataclass(slots=True)
class Found:
    index: int | None
    how: str  # which way found it, or why none did
    tried: list[str]


_AGREE = """(el, want) => {
  const clean = (s) => (s || "").replace(/\\s+/g, " ").trim().toLowerCase();
  // The same kind of control: the same tag, or the same role (a <button> that became <input type=submit>).
  const inputRoles = {checkbox: "checkbox", radio: "radio", submit: "button", button: "button", reset: "button",
    image: "button", search: "searchbox", number: "spinbutton", range: "slider"};
  const roleOf = (e) => e.getAttribute("role") || (e.localName === "input" ? inputRoles[e.type] || "textbox" :
    {a: "link", button: "button", select: "combobox", textarea: "textbox"}[e.localName] || "");
  if (el.localName !== want.tag && !(want.role && roleOf(el) === want.role)) return false;
  for (const [key, value] of Object.entries(want.attributes || {})) {
    if (["type", "role"].includes(key)) continue;
    if (el.getAttribute(key) === value) return true;
  }
  if (!want.name) return true;
  const words = [el.innerText, el.value, el.getAttribute("aria-label"), el.getAttribute("placeholder"), el.title,
    ...Array.from(el.labels || []).map((l) => l.innerText)].map(clean);
  return words.some((w) => w && (w === clean(want.name) || w.includes(clean(want.name))));
}"""


def _ways(page: Page, target: RecordedTarget) -> list[tuple[str, Locator]]:
    """Locators from the most specific to the most forgiving (building one does not touch the page)."""
    tag, name, role = target.get("tag", ""), target.get("name", ""), target.get("role", "")
    attributes = target.get("attributes") or {}
    ways: list[tuple[str, Locator]] = []
    if target.get("selector"):
        ways.append((f"the recorded selector {target['selector']}", page.locator(target["selector"])))
    for key in ("data-testid", "data-test", "data-qa", "id", "name", "aria-label", "placeholder", "href"):
        if attributes.get(key):
            css = f"{tag}[{key}={_css_string(attributes[key])}]"
            ways.append((f"its {key} ({css})", page.locator(css)))
    if role and name:
        # Any role the page used; Playwright types its argument as the list of roles it knows.
        by_role = page.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        ways.append((f'role {role} named "{name}"', by_role))
    if name and tag in ("input", "textarea", "select"):
        ways.append((f'the label "{name}"', page.get_by_label(name, exact=True)))
    if name and tag not in ("input", "textarea", "select"):
        ways.append((f'the text "{name}"', page.locator(tag).filter(has_text=name)))
    if target.get("xpath"):
        ways.append(("the recorded XPath", page.locator(f"xpath={target['xpath']}")))
    return ways


async def _not_ready(handle: ElementHandle, action: str) -> str:
    state = await check_element(handle)
    if not state["rendered"] and not (action == "upload_file" and state["fileInput"]):
        return "it is there but hidden"
    if action in _WORKING and not state["enabled"]:
        return "it is there but disabled"
    return ""


async def find_target(page: Page, target: RecordedTarget, action: str = "") -> Found:
    """The recorded element on the page as it is now, ready for `action` and given an index; or why not."""
    tried: list[str] = []
    for how, locator in _ways(page, target):
        try:
            count = await locator.count()
            if count != 1:
                tried.append(f"{how}: {count} matches")
                continue
            handle = await locator.element_handle(timeout=1000)
            if handle is None:
                continue
            if not await handle.evaluate(_AGREE, target):
                tried.append(f"{how}: a different element")
                continue
            problem = await _not_ready(handle, action)
            if problem:
                return Found(None, f"found by {how}, but {problem}", tried)
            return Found(await index_for(page, handle), how, tried)
        except PlaywrightError as exc:
            tried.append(f"{how}: {exc.message.splitlines()[0]}")
    return Found(None, "no way found exactly one element that agrees with the record", tried)
