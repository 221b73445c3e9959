"""The demo sites in real Chromium (WebMCP on), served by Hive's own demo view.

The flight page's WebMCP tools are called the way an agent calls them (Playwright's page.webmcp, which goes
through Chromium's WebMCP domain); the shop has no tools until the shipped demo-shop SKILL is registered into
it the way the worker does: its handlers compiled in the page and registered with document.modelContext.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import pytest_asyncio
from django.core.handlers.wsgi import WSGIHandler
from playwright.async_api import Browser, Error, Page

from tests.support.browsers import launch_browser

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

SHIPPED = Path(__file__).resolve().parents[2] / "webapp" / "skills" / "shipped" / "demo-shop.json"


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class names it so
        return


@pytest.fixture(scope="module")
def hive() -> Iterator[str]:
    """Hive's Django app (only the database-free demo view is used) on 127.0.0.1."""
    server = make_server("127.0.0.1", 0, WSGIHandler(), server_class=_ThreadingServer, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="demo-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with launch_browser() as chromium:
        yield chromium


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser) -> AsyncIterator[Page]:
    context = await browser.new_context()
    yield await context.new_page()
    await context.close()


async def _call(page: Page, name: str, arguments: dict[str, Any]) -> Any:
    result = await page.webmcp.call_tool(name, arguments)
    return json.loads(result) if isinstance(result, str) else result


async def _tool_error(page: Page, name: str, arguments: dict[str, Any]) -> str:
    """Call a tool that should throw; return the page's own error text (Chromium's WebMCP domain reports it, while
    page.webmcp only says that the tool threw)."""
    cdp = await page.context.new_cdp_session(page)
    responded: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def on_response(event: dict[str, Any]) -> None:
        if not responded.done():
            responded.set_result(event)

    cdp.on("WebMCP.toolResponded", on_response)
    await cdp.send("WebMCP.enable")
    frame = (await cdp.send("Page.getFrameTree"))["frameTree"]["frame"]["id"]
    await cdp.send("WebMCP.invokeTool", {"frameId": frame, "toolName": name, "input": arguments})
    event = await asyncio.wait_for(responded, 10)
    await cdp.detach()
    assert event["status"] == "Error", event
    return str(event["exception"]["description"]).splitlines()[0]


async def _flights_page(page: Page, hive: str) -> None:
    await page.goto(f"{hive}/demo/flights/")
    await page.wait_for_function("document.documentElement.dataset.webmcp === 'registered'")


async def test_flight_page_registers_its_four_tools(page: Page, hive: str) -> None:
    await _flights_page(page, hive)
    tools = {tool["name"]: tool for tool in await page.webmcp.tools()}
    assert tools["searchFlights"]["inputSchema"] is not None
    assert set(tools) == {"searchFlights", "setFilters", "listFlights", "resetFilters"}
    assert tools["searchFlights"]["inputSchema"]["required"] == ["from", "to", "date"]
    assert await page.text_content("#webmcp-status") == "WebMCP: 4 tools registered"


async def test_flight_tools_drive_the_page_and_return_what_it_shows(page: Page, hive: str) -> None:
    await _flights_page(page, hive)
    found = await _call(page, "searchFlights", {"from": "pek", "to": "SHA", "date": "2026-05-01"})
    assert (found["total"], found["shown"], found["route"]["from"], found["date"]) == (12, 12, "PEK", "2026-05-01")
    assert await page.locator("#results .flight").count() == 12
    again = await _call(page, "searchFlights", {"from": "PEK", "to": "SHA", "date": "2026-06-02"})
    assert [(f["id"], f["price"]) for f in again["flights"]] == [(f["id"], f["price"]) for f in found["flights"]]

    cheapest_nonstop = min(f["price"] for f in found["flights"] if f["stops"] == 0)
    filtered = await _call(page, "setFilters", {"maxStops": 0, "maxPrice": cheapest_nonstop})
    assert filtered["filters"] == {"maxPrice": cheapest_nonstop, "maxStops": 0, "airline": None}
    assert filtered["shown"] >= 1
    assert all(f["stops"] == 0 and f["price"] <= cheapest_nonstop for f in filtered["flights"])
    assert await page.locator("#results .flight").count() == filtered["shown"]
    assert await page.input_value("#filter-max-stops") == "0"
    assert await page.input_value("#filter-max-price") == str(cheapest_nonstop)

    listed = await _call(page, "listFlights", {})
    assert listed["flights"] == filtered["flights"]

    airline = found["flights"][0]["airline"]
    by_airline = await _call(page, "setFilters", {"maxStops": None, "maxPrice": None, "airline": airline})
    assert {f["airline"] for f in by_airline["flights"]} == {airline}
    assert await page.input_value("#filter-airline") == airline

    reset = await _call(page, "resetFilters", {})
    assert reset["shown"] == 12
    assert await page.input_value("#filter-airline") == ""
    assert await page.locator("#activity li").count() == 6


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("searchFlights", {"from": "Beijing", "to": "SHA", "date": "2026-05-01"}, "3-letter IATA airport code"),
        ("searchFlights", {"from": "PEK", "to": "PEK", "date": "2026-05-01"}, "the same airport"),
        ("searchFlights", {"from": "PEK", "to": "SHA", "date": "2026-02-30"}, "YYYY-MM-DD"),
        ("searchFlights", {"from": "PEK", "to": "SHA", "date": "2026-05-01", "seats": 2}, 'unknown field(s) "seats"'),
        ("setFilters", {"maxStops": 5}, '"maxStops" must be 0 (nonstop), 1 or 2'),
        ("setFilters", {"airline": "Pan Am"}, "Unknown airline"),
        ("setFilters", {}, "needs at least one of"),
    ],
)
async def test_bad_input_makes_the_tool_throw_a_helpful_error(
    page: Page, hive: str, name: str, arguments: dict[str, Any], message: str
) -> None:
    await _flights_page(page, hive)
    assert message in await _tool_error(page, name, arguments)
    assert await page.locator("#activity li.error").count() == 1


async def test_the_human_ui_does_the_same(page: Page, hive: str) -> None:
    await _flights_page(page, hive)
    await page.fill("#from", "CDG")
    await page.fill("#to", "JFK")
    await page.fill("#date", "2026-07-14")
    await page.click("#search-button")
    assert await page.locator("#results .flight").count() == 12
    await page.select_option("#filter-max-stops", "0")
    listed = await _call(page, "listFlights", {})
    assert listed["filters"]["maxStops"] == 0
    assert listed["route"]["to"] == "JFK"
    assert await page.locator("#results .flight").count() == listed["shown"]


_REGISTER_SKILL = """async (skill) => {
  const AsyncFunction = (async () => {}).constructor;
  if (skill.health_check) {
    const healthy = await new AsyncFunction(skill.health_check)();
    if (!healthy) throw new Error("health check returned " + healthy);
  }
  for (const tool of skill.tools) {
    const handler = new AsyncFunction("input", "{ signal }", tool.handler);
    await document.modelContext.registerTool({
      name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.input_schema,
      annotations: tool.annotations, execute: (input, options) => handler(input, options || {}),
    });
  }
  return skill.tools.length;
}"""


async def test_shipped_skill_gives_the_shop_working_tools(page: Page, hive: str) -> None:
    skill = json.loads(SHIPPED.read_text(encoding="utf-8"))
    await page.goto(f"{hive}/demo/shop/")
    assert await page.webmcp.tools() == []
    assert await page.evaluate(_REGISTER_SKILL, skill) == 3
    assert {t["name"] for t in await page.webmcp.tools()} == {"searchProducts", "addToCart", "viewCart"}

    found = await _call(page, "searchProducts", {"query": "mug"})
    assert [p["productId"] for p in found["products"]] == ["p101", "p302"]
    assert await page.locator("#product-list .product").count() == 2
    assert await page.input_value("#shop-search") == "mug"

    added = await _call(page, "addToCart", {"productId": "p101", "quantity": 2})
    assert added["added"] == {"productId": "p101", "name": "Ceramic Mug", "quantity": 2}
    assert added["cart"]["total"] == 25
    await _call(page, "addToCart", {"productId": "p304"})  # not among the results: the SKILL finds it anyway
    cart = await _call(page, "viewCart", {})
    assert [(i["productId"], i["quantity"]) for i in cart["items"]] == [("p101", 2), ("p304", 1)]
    assert (cart["itemCount"], cart["total"]) == (3, 36)
    assert await page.is_visible("#cart")
    assert await page.text_content("#cart-count") == "3"

    assert "out of stock" in await _tool_error(page, "addToCart", {"productId": "p203"})
    assert 'no product "p999"' in await _tool_error(page, "addToCart", {"productId": "p999"})
    assert "whole number from 1 to 99" in await _tool_error(page, "addToCart", {"productId": "p101", "quantity": 0})
    assert await page.text_content("#cart-count") == "3"

    await page.reload()  # the cart lives in localStorage
    assert await page.text_content("#cart-count") == "3"


async def test_shop_skill_health_check_fails_on_other_pages(page: Page, hive: str) -> None:
    skill = json.loads(SHIPPED.read_text(encoding="utf-8"))
    await page.goto(f"{hive}/demo/article/")
    with pytest.raises(Error, match="does not look like the demo shop any more: missing #shop-search"):
        await page.evaluate(_REGISTER_SKILL, skill)
