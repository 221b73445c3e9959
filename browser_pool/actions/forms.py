"""Keyboard and form actions: type, press_key, select, upload_file."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from playwright.async_api import ElementHandle
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browser_pool.actions import params as p
from browser_pool.actions.context import ActionContext, Outcome
from browser_pool.actions.errors import REFRESH_HINT, ActionError
from browser_pool.actions.params import MODIFIER_KEYS, Modifier
from browser_pool.actions.targets import ElementTarget, Need, resolve_element
from browser_pool.sandbox import file_for_the_browser
from browser_pool.types import CONCEALED

HUMAN_DELAY_S = (0.05, 0.15)

_CARET_TO_END = """el => {
  el.focus();
  if (typeof el.setSelectionRange === "function" && typeof el.value === "string") {
    try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* email/number inputs */ }
  } else if (el.isContentEditable) {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    range.collapse(false);
    const selection = el.ownerDocument.defaultView.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
}"""
_HAS_FOCUS = """el => {
  let active = el.ownerDocument.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active === el;
}"""
# A field about to hold a secret is drawn as a password field is, in the live view, recordings, traces and every
# picture, and is marked so that the step's picture masks it too.
_CONCEAL = f"""el => {{
  if (!el.hasAttribute({CONCEALED!r})) el.setAttribute({CONCEALED!r}, el.style.getPropertyValue("-webkit-text-security"));
  el.style.setProperty("-webkit-text-security", "disc", "important");
}}"""
# The field's value as reported (a password's, or a secret's, as dots); a plain text typed over a secret (`reveal`)
# shows again.
_VALUE = f"""(el, reveal) => {{
  if (reveal && el.hasAttribute({CONCEALED!r})) {{
    const before = el.getAttribute({CONCEALED!r});  // the page's own style, if it had one
    if (before) el.style.setProperty("-webkit-text-security", before);
    else el.style.removeProperty("-webkit-text-security");
    el.removeAttribute({CONCEALED!r});
  }}
  const value = el.isContentEditable ? el.innerText : el.value;
  return el.type === "password" || el.hasAttribute({CONCEALED!r}) ? "•".repeat(value.length) : value;
}}"""


async def type_text(ctx: ActionContext, args: p.TypeText) -> Outcome:
    target = await resolve_element(ctx.page, args, Need.TEXT, found=ctx.aimed)
    ctx.subject = target.subject
    text, clear = args.text, args.clear
    handle = target.handle
    if args.conceal:
        await handle.evaluate(_CONCEAL)
    if args.human_like:
        if clear:
            await handle.fill("", timeout=ctx.timeout_ms)
        await handle.evaluate(_CARET_TO_END)
        await _type_like_a_person(ctx, target, text)
    elif clear:
        await handle.fill(text, timeout=ctx.timeout_ms)
    else:
        await handle.evaluate(_CARET_TO_END)
        await ctx.page.keyboard.insert_text(text)
    value = await handle.evaluate(_VALUE, clear and not args.conceal)
    data: dict[str, Any] = {"target": target.subject, "value": value}
    if len(value) > _VALUE_SHOWN:
        # Elided with its length, so a model never takes the start of the field for all of it.
        data.update(value=value[: _VALUE_SHOWN - 1] + "…", value_length=len(value))
    return Outcome(data)


_VALUE_SHOWN = 200


async def _navigated_while_typing(ctx: ActionContext, typed: int, total: int) -> ActionError:
    # The new document's address, once it has one: the old document's scripts may be gone before the tab commits to
    # the next one, when its URL still reads as the old.
    with contextlib.suppress(PlaywrightError):
        await ctx.page.wait_for_url(lambda url: url != ctx.watch.url_before, wait_until="commit", timeout=2000)
    return ActionError(
        f"the page navigated to {ctx.page.url} after {typed} of {total} characters were typed; the rest was not typed",
        REFRESH_HINT,
    )


async def _type_like_a_person(ctx: ActionContext, target: ElementTarget, text: str) -> None:
    """One key at a time with a random pause, stopping as soon as the page moves on or steals focus, so the
    rest of the text is never typed into some other page or field."""
    for typed, char in enumerate(text):
        if ctx.watch.navigated:
            raise await _navigated_while_typing(ctx, typed, len(text))
        try:
            focused = await target.handle.evaluate(_HAS_FOCUS)
        except PlaywrightError as exc:  # the page is leaving between two keys: the same story, told the same way
            if ctx.watch.navigated or "context was destroyed" in exc.message or "detached" in exc.message:
                raise await _navigated_while_typing(ctx, typed, len(text)) from exc
            raise
        if not focused:
            raise ActionError(
                f"{target.subject} lost the keyboard focus after {typed} of {len(text)} characters "
                "(the page moved it); the rest was not typed",
                REFRESH_HINT,
            )
        await ctx.page.keyboard.type(char)
        await asyncio.sleep(random.uniform(*HUMAN_DELAY_S))


# Names models commonly use for keys, mapped to Playwright's; anything else goes through as given.
_KEY_ALIASES = {
    "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab", "space": " ",
    "backspace": "Backspace", "delete": "Delete", "del": "Delete", "up": "ArrowUp", "down": "ArrowDown",
    "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp", "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft", "arrowright": "ArrowRight", "home": "Home", "end": "End", "pageup": "PageUp",
    "pagedown": "PageDown", "insert": "Insert", "control": "Control", "ctrl": "Control", "alt": "Alt",
    "shift": "Shift", "meta": "Meta", "cmd": "Meta",
}  # fmt: skip


def key_combination(key: str, modifiers: tuple[Modifier, ...]) -> str:
    """'a' with [ctrl, shift] -> 'Control+Shift+a'; also accepts 'Ctrl+A' written as the key itself."""
    parts = [part for part in key.split("+") if part] if len(key) > 1 else [key]
    *held, main = parts or [key]
    names = [MODIFIER_KEYS[m] for m in modifiers]
    names += [_KEY_ALIASES.get(h.lower(), h) for h in held if _KEY_ALIASES.get(h.lower(), h) not in names]
    main = _KEY_ALIASES.get(main.lower(), main) if len(main) > 1 else main
    if names and len(main) == 1 and main.isalpha():
        # As on a real keyboard: Shift+k gives "K"; Control+A is the shortcut Control+a, not Control+Shift+a.
        main = main.upper() if "Shift" in names else main.lower()
    return "+".join([*names, main])


async def press_key(ctx: ActionContext, args: p.PressKey) -> Outcome:
    combo = key_combination(args.key, args.modifiers)
    if args.aimed:
        target = await resolve_element(ctx.page, args, Need.FOCUS, found=ctx.aimed)
        ctx.subject = target.subject
        ctx.expects_popup = target.state["opensWindow"]
        await target.handle.focus()
    await ctx.page.keyboard.press(combo)
    return Outcome({"pressed": combo})


async def select(ctx: ActionContext, args: p.Select) -> Outcome:
    if sum(value is not None for value in (args.value, args.label, args.labels)) != 1:
        raise ActionError(
            "give exactly one of value, label or labels", "the option's visible text is its label; labels for several"
        )
    target = await resolve_element(ctx.page, args, Need.SELECT, found=ctx.aimed)
    ctx.subject = target.subject
    options: list[dict[str, str]] = target.state["options"]
    wanted: list[dict[str, str]] = (
        [{"label": label} for label in args.labels]
        if args.labels is not None
        else [{"value": args.value} if args.value is not None else {"label": str(args.label)}]
    )
    if len(wanted) > 1 and not target.state["multiple"]:
        raise ActionError(f"{target.subject} takes one option, not {len(wanted)}", "choose one with label")
    chosen: list[dict[str, str]] = []
    for want in wanted:
        option = _find_option(options, want)
        if option is None:
            raise ActionError(
                f"{target.subject} has no option {want.get('value', want.get('label'))!r}", _list_options(options)
            )
        chosen.append(option)
    await target.handle.select_option(value=[o["value"] for o in chosen], timeout=ctx.timeout_ms)
    if args.labels is not None:
        return Outcome({"target": target.subject, "selected": [o["label"] for o in chosen]})
    return Outcome({"target": target.subject, "selected": chosen[0]["label"], "value": chosen[0]["value"]})


_OPTIONS_SHOWN = 30


def _list_options(options: list[dict[str, str]]) -> str:
    shown = ", ".join(f'"{o["label"]}"' for o in options[:_OPTIONS_SHOWN])
    if len(options) <= _OPTIONS_SHOWN:
        return f"its options are: {shown}"
    return f"its {len(options)} options begin: {shown}; get_element_details lists them all"


def _find_option(options: list[dict[str, str]], want: dict[str, str]) -> dict[str, str] | None:
    if "value" in want:
        exact = [o for o in options if o["value"] == want["value"]]
        # Models often pass the visible text as the value; accept it when no value matches.
        return exact[0] if exact else _find_option(options, {"label": want["value"]})
    label = " ".join(want["label"].split())

    def exactly(option: dict[str, str]) -> bool:
        return option["label"] == label

    def loosely(option: dict[str, str]) -> bool:
        return option["label"].casefold() == label.casefold()

    for match in (exactly, loosely):
        found = [o for o in options if match(o)]
        if found:
            return found[0]
    # And the other way round: a label that is in fact an option's value.
    exact = [o for o in options if o["value"] == want["label"]]
    return exact[0] if exact else None


async def upload_file(ctx: ActionContext, args: p.UploadFile) -> Outcome:
    file_id = args.file_id
    path = ctx.uploads.get(file_id)
    if path is None:
        available = ", ".join(sorted(ctx.uploads)) or "none"
        raise ActionError(
            f"{file_id!r} is not one of the files uploaded to this conversation (available: {available})",
            "only files the user uploaded can be sent; ask the user to upload the file",
        )
    if not path.is_file():
        raise ActionError(f"the uploaded file {file_id!r} is no longer available", "ask the user to upload it again")
    target = await resolve_element(ctx.page, args, Need.FILE, found=ctx.aimed)
    ctx.subject = target.subject
    if target.state["fileInput"]:
        await target.handle.set_input_files(file_for_the_browser(path), timeout=ctx.timeout_ms)
    else:
        await _upload_through_chooser(ctx, target.handle, target.subject, path)
    return Outcome({"target": target.subject, "file": file_id})


async def _upload_through_chooser(ctx: ActionContext, handle: ElementHandle, subject: str, path: Any) -> None:
    """Styled upload buttons hide the real file input and open the chooser when clicked."""
    try:
        async with ctx.page.expect_file_chooser(timeout=min(ctx.timeout_ms, 3000)) as chooser_info:
            await handle.click(timeout=ctx.timeout_ms)
        chooser = await chooser_info.value
    except PlaywrightTimeoutError as exc:
        raise ActionError(
            f"{subject} is not a file input and clicking it opened no file chooser",
            "target the file input or the page's upload button",
        ) from exc
    await chooser.set_files(file_for_the_browser(path), timeout=ctx.timeout_ms)
