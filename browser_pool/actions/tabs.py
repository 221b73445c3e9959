"""Tab actions and the observation actions (get_elements, get_element_details)."""

from __future__ import annotations

from typing import Any

from browser_pool.actions import params as p
from browser_pool.actions.context import ActionContext, Outcome
from browser_pool.actions.errors import ActionError
from browser_pool.actions.page import checked_url
from browser_pool.observe import get_element_details as read_details
from browser_pool.observe import get_elements as read_elements


async def _known_tab(ctx: ActionContext, tab_id: str) -> None:
    tabs = await ctx.tabs.list_tabs()
    if not any(tab.id == tab_id for tab in tabs):
        known = ", ".join(f"{tab.id} ({tab.title or tab.url})" for tab in tabs)
        raise ActionError(f"there is no tab {tab_id!r}", f"open tabs: {known}")


async def list_tabs(ctx: ActionContext, args: p.NoArguments) -> Outcome:
    return Outcome({"tabs": [tab.as_dict() for tab in await ctx.tabs.list_tabs()]})


async def switch_tab(ctx: ActionContext, args: p.TabRef) -> Outcome:
    await _known_tab(ctx, args.tab_id)
    tab = await ctx.tabs.switch_tab(args.tab_id)
    return Outcome({"tab": tab.as_dict()})


async def open_tab(ctx: ActionContext, args: p.OpenTab) -> Outcome:
    url = checked_url(args.url) if args.url else None
    tab = await ctx.tabs.open_tab(url)
    return Outcome({"tab": tab.as_dict()}, new_tab=tab)


async def close_tab(ctx: ActionContext, args: p.TabRef) -> Outcome:
    await _known_tab(ctx, args.tab_id)
    remaining = await ctx.tabs.close_tab(args.tab_id)
    return Outcome({"tabs": [tab.as_dict() for tab in remaining]})


async def get_elements(ctx: ActionContext, args: p.GetElements) -> Outcome:
    listing = await read_elements(ctx.page, args.type, args.visible_only)
    return Outcome({"elements": listing.text, "shown": len(listing.items), "total": listing.total})


async def get_element_details(ctx: ActionContext, args: p.GetElementDetails) -> Outcome:
    result = await read_details(ctx.page, args.indices, value_from=args.value_from or 1)
    if not result.found:
        raise ActionError("; ".join(result.missing.values()), "call get_elements for the current indices")
    data: dict[str, Any] = {"elements": [details.as_dict() for details in result.found]}
    if result.missing:
        data["missing"] = {str(index): reason for index, reason in result.missing.items()}
    return Outcome(data)
