"""Mouse actions: click, hover, drag and drop, scroll."""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal, cast

from browser_pool.actions import params as p
from browser_pool.actions.context import ActionContext, Outcome
from browser_pool.actions.errors import ActionError
from browser_pool.actions.params import MODIFIER_KEYS
from browser_pool.actions.targets import ElementTarget, Need, PointTarget, resolve, resolve_element, viewport_size

_SCROLL_SOURCE = resources.files(__package__).joinpath("scroll.js").read_text(encoding="utf-8")
_SCROLL_PAGE = f"([dx, dy]) => ({_SCROLL_SOURCE})(null, [dx, dy])"

# A drag moves the mouse in steps so pages listening to mousemove (sliders, sortable lists) see a real drag, and
# Chromium starts an HTML5 drag session after the first moves.
_DRAG_STEPS = 12


async def click(ctx: ActionContext, args: p.Click) -> Outcome:
    target = await resolve(ctx.page, args, Need.POINTER, found=ctx.aimed)
    button = args.button
    count = 2 if args.double else 1
    held = [MODIFIER_KEYS[name] for name in args.modifiers]
    if isinstance(target, PointTarget):
        ctx.handle = ctx.aimed  # the element at the point, found before the click
        await _click_point(ctx, target, button, count, held)
    else:
        ctx.subject = target.subject
        # Ctrl/Shift/Meta on a link opens it in another tab or window.
        ctx.expects_popup = target.state["opensWindow"] or (bool(held) and target.state["inLink"])
        ctx.expects_download = not held and target.state["downloads"]
        ctx.handle = target.handle
        modifiers = cast(list[Literal["Alt", "Control", "ControlOrMeta", "Meta", "Shift"]], held)
        if count == 2:
            await target.handle.dblclick(button=button, modifiers=modifiers, timeout=ctx.timeout_ms)
        else:
            await target.handle.click(button=button, modifiers=modifiers, timeout=ctx.timeout_ms)
    data: dict[str, Any] = {"target": target.subject}
    if count == 2 or button != "left" or held:
        data["click"] = "+".join([*held, ("double " if count == 2 else "") + button])
    return Outcome(data)


async def _click_point(
    ctx: ActionContext, target: PointTarget, button: Literal["left", "middle", "right"], count: int, held: list[str]
) -> None:
    keyboard = ctx.page.keyboard
    for key in held:
        await keyboard.down(key)
    try:
        await ctx.page.mouse.click(target.x, target.y, button=button, click_count=count)
    finally:
        for key in reversed(held):
            await keyboard.up(key)


async def hover(ctx: ActionContext, args: p.Hover) -> Outcome:
    target = await resolve(ctx.page, args, Need.HOVER, found=ctx.aimed)
    if isinstance(target, PointTarget):
        await ctx.page.mouse.move(target.x, target.y)
    else:
        ctx.subject = target.subject
        await target.handle.hover(timeout=ctx.timeout_ms)
    return Outcome({"target": target.subject, "note": "menus opened by hovering are in the next get_elements"})


async def _center(ctx: ActionContext, target: ElementTarget | PointTarget, role: str) -> tuple[float, float]:
    if isinstance(target, PointTarget):
        return target.x, target.y
    ctx.subject = target.subject
    await target.handle.scroll_into_view_if_needed(timeout=ctx.timeout_ms)
    box = await target.handle.bounding_box()
    if box is None:
        raise ActionError(f"the {role} {target.subject} is not displayed")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def drag_drop(ctx: ActionContext, args: p.DragDrop) -> Outcome:
    source = await resolve(ctx.page, args.source, Need.POINTER)
    dest = await resolve(ctx.page, args.to, Need.HOVER)
    start = await _center(ctx, source, "drag source")
    end = await _center(ctx, dest, "drop target")
    width, height = await viewport_size(ctx.page)
    if not (0 <= end[0] < width and 0 <= end[1] < height):
        raise ActionError("the drop target is outside the viewport", "scroll so both ends are visible, then retry")
    mouse = ctx.page.mouse
    await mouse.move(*start)
    await mouse.down()
    await mouse.move(start[0] + 4, start[1] + 4, steps=2)
    await mouse.move(*end, steps=_DRAG_STEPS)
    await mouse.up()
    return Outcome({"from": source.subject, "to": dest.subject})


_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


async def scroll(ctx: ActionContext, args: p.Scroll) -> Outcome:
    ux, uy = _DIRECTIONS[args.direction]
    width, height = await viewport_size(ctx.page)
    # By default most of a screen, keeping a strip of the previous view for context.
    amount = args.amount or int((height if uy else width) * 0.8)
    delta = [ux * amount, uy * amount]
    if args.aimed:
        target = await resolve_element(ctx.page, args, Need.HOVER, found=ctx.aimed)
        ctx.subject = target.subject
        moved = await target.handle.evaluate(_SCROLL_SOURCE, delta)
    else:
        moved = await ctx.page.evaluate(_SCROLL_PAGE, delta)
    data: dict[str, Any] = {
        "container": moved["container"],
        "moved": moved["moved"],
        "position": moved["position"],
        "scroll_size": moved["size"],
    }
    if moved["moved"] == [0, 0]:
        data["note"] = f"nothing moved: already at the {args.direction} end"
    elif moved["atEnd"]:
        data["note"] = f"reached the {args.direction} end"
    return Outcome(data)
