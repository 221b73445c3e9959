"""Pages written for the legacy `navigator.modelContext` API, and declarative `<form toolname>` tools, on native
WebMCP and on the polyfill."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.async_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

TOOLS = "async () => JSON.stringify((await document.modelContext.getTools()).map((t) => ({ ...t, window: undefined })))"
EXECUTE = """async ([name, input]) => {
  const tool = (await document.modelContext.getTools()).find((t) => t.name === name);
  try { return await document.modelContext.executeTool(tool, input); } catch (error) { return error.name + ": " + error.message; }
}"""


async def tools_of(page: Page) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = json.loads(await page.evaluate(TOOLS))
    return result


async def test_a_legacy_page_is_served_through_todays_registry(page: Page, site: str) -> None:
    await page.goto(f"{site}/legacy.html")

    assert [t["name"] for t in await tools_of(page)] == ["add_to_cart", "checkout", "list_cart"]
    added = await page.evaluate(EXECUTE, ["add_to_cart", {"sku": "SKU-1"}])
    # The legacy execute(input, client) got a client whose requestUserInteraction ran the callback.
    assert json.loads(added) == {"content": [{"type": "text", "text": "added SKU-1 (confirmed: true)"}]}
    assert await page.text_content("#cart") == "SKU-1"
    assert "UnknownError" in await page.evaluate(EXECUTE, ["checkout", {}])

    await page.evaluate("() => navigator.modelContext.unregisterTool('checkout')")
    await page.wait_for_function("async () => (await document.modelContext.getTools()).length === 2")
    await page.evaluate(
        """() => navigator.modelContext.provideContext({ tools: [
             { name: "track_order", description: "Track an order.", execute: () => "on its way" } ] })"""
    )
    await page.wait_for_function(
        "async () => (await document.modelContext.getTools()).map((t) => t.name).join() === 'track_order'"
    )
    assert await page.evaluate(EXECUTE, ["track_order", {}]) == "on its way"
    duplicate = await page.evaluate(
        """() => { try { navigator.modelContext.registerTool({ name: "track_order", description: "again",
                                                               execute: () => 1 }); return "registered"; }
                   catch (error) { return error.name; } }"""
    )
    assert duplicate == "InvalidStateError"  # the legacy API threw synchronously
    await page.evaluate("() => navigator.modelContext.clearContext()")
    await page.wait_for_function("async () => (await document.modelContext.getTools()).length === 0")


async def test_form_tools_get_a_schema_synthesised_from_their_fields(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    tools = {t["name"]: t for t in await tools_of(page)}

    assert set(tools) == {"find_flights", "request_callback"}
    search = tools["find_flights"]
    assert search["description"] == "Find flights between two cities."
    schema = search["inputSchema"]
    assert schema["required"] == ["from", "to"]
    assert schema["properties"]["from"] == {"type": "string", "description": "From"}
    assert schema["properties"]["to"] == {"type": "string", "description": "To"}
    assert schema["properties"]["passengers"] == {"type": "number", "minimum": 1, "maximum": 9, "multipleOf": 1}
    assert schema["properties"]["cabin"]["enum"] == ["economy", "business"]
    assert schema["properties"]["direct"] == {"type": "boolean"}
    phone = tools["request_callback"]["inputSchema"]["properties"]["phone"]
    assert phone["description"] == "Phone number with country code"


async def test_an_autosubmit_form_is_filled_submitted_and_answers_through_respond_with(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")
    await page.evaluate(
        """() => { window.events = [];
                   document.modelContext.addEventListener("toolactivated", (e) => window.events.push(e.toolName)); }"""
    )

    result = await page.evaluate(
        EXECUTE, ["find_flights", {"from": "PEK", "to": "SHA", "cabin": "business", "direct": True}]
    )

    assert json.loads(result) == {"found": 2, "from": "PEK", "to": "SHA", "cabin": "business", "direct": True}
    assert await page.text_content("#out") == "searched PEK-SHA"
    assert await page.input_value("input[name=from]") == "PEK"
    assert await page.evaluate("() => window.events") == ["find_flights"]
    bad = await page.evaluate(EXECUTE, ["find_flights", {"from": "PEK", "to": "SHA", "passengers": "many"}])
    assert bad == 'UnknownError: Invalid value "many" for parameter passengers'


async def test_a_form_without_autosubmit_waits_for_the_user_to_submit(page: Page, site: str) -> None:
    await page.goto(f"{site}/forms.html")

    await page.evaluate(
        """() => { const mc = document.modelContext;
                   window.answer = mc.getTools().then((tools) => mc.executeTool(
                     tools.find((t) => t.name === "request_callback"), { phone: "+86 10 1234" })); }"""
    )
    await page.wait_for_function("() => document.querySelector('input[name=phone]').value === '+86 10 1234'")
    assert (
        await page.evaluate(
            "() => Promise.race([window.answer, new Promise((r) => setTimeout(() => r('waiting'), 200))])"
        )
        == "waiting"
    )
    await page.click("text=Call me")

    assert json.loads(await page.evaluate("() => window.answer")) == {"callback": "+86 10 1234"}
