"""`document.modelContext` as pages use it, on Chromium's native WebMCP and on Hive's polyfill: same outcomes.

Each behaviour is asserted on both (`mode`), and one scenario is run on both and compared whole.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from browser_pool.webmcp import install_bridge

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# `settle(fn)` runs fn and says how its promise ended: "ok", the error's name, or "sync <name>" when it threw at once.
SETTLE = """
const settle = async (fn) => {
  let promise;
  try { promise = fn(); } catch (error) { return "sync " + error.name; }
  try { const value = await promise; return value === undefined ? "ok" : value; }
  catch (error) { return error && error.name ? error.name : String(error); }
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 30));
"""


async def run(page: Page, body: str) -> Any:
    return json.loads(await page.evaluate(f"async () => {{ {SETTLE} {body} }}"))


async def test_bad_registrations_reject_asynchronously_with_invalid_state_error(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")

    outcomes = await run(
        page,
        """
        const mc = document.modelContext, execute = () => "x";
        await mc.registerTool({ name: "taken", description: "d", execute });
        const register = (name, description = "d") => () => mc.registerTool({ name, description, execute });
        return JSON.stringify({
          duplicate: await settle(register("taken")),
          empty: await settle(register("")),
          tooLong: await settle(register("x".repeat(129))),
          longest: await settle(register("y".repeat(128))),
          space: await settle(register("has space")),
          slash: await settle(register("a/b")),
          emptyDescription: await settle(register("fine", "")),
          punctuation: await settle(register("a-b_c.d")),
        });
        """,
    )

    assert outcomes == {
        "duplicate": "InvalidStateError",
        "empty": "InvalidStateError",
        "tooLong": "InvalidStateError",
        "longest": "ok",
        "space": "InvalidStateError",
        "slash": "InvalidStateError",
        "emptyDescription": "InvalidStateError",
        "punctuation": "ok",
    }


async def test_aborting_the_registration_signal_unregisters_and_fires_toolchange(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")

    seen = await run(
        page,
        """
        const mc = document.modelContext, changes = [];
        mc.addEventListener("toolchange", () => changes.push("change"));
        const controller = new AbortController();
        await mc.registerTool({ name: "temp", description: "d", execute: () => 1 }, { signal: controller.signal });
        const before = (await mc.getTools()).map((t) => t.name);
        const changesBefore = changes.length;
        controller.abort();
        for (let i = 0; i < 300 && changes.length === changesBefore; i++) await tick();  // a loaded machine is slow
        const preAborted = new AbortController();
        preAborted.abort("no thanks");
        const rejected = await settle(() => mc.registerTool({ name: "never", description: "d", execute: () => 1 },
                                                              { signal: preAborted.signal }));
        return JSON.stringify({ before, changesBefore, after: (await mc.getTools()).map((t) => t.name),
                                changesAfter: changes.length, rejected });
        """,
    )

    assert seen == {"before": ["temp"], "changesBefore": 1, "after": [], "changesAfter": 2, "rejected": "no thanks"}


async def test_get_tools_is_sorted_by_name_and_describes_each_tool(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")

    tools = await run(
        page,
        """
        const mc = document.modelContext;
        await mc.registerTool({ name: "b_tool", description: "B", execute: () => 1 });
        await mc.registerTool({ name: "a_tool", title: "The A", description: "A", inputSchema: { type: "object" },
                                annotations: { readOnlyHint: true, consequentialHint: true }, execute: () => 1 });
        await mc.registerTool({ name: "C_tool", description: "C", execute: () => 1 });
        return JSON.stringify((await mc.getTools()).map((t) => ({ ...t, window: t.window === window })));
        """,
    )

    assert [t["name"] for t in tools] == ["C_tool", "a_tool", "b_tool"]  # code-unit order: upper case first
    a_tool = tools[1]
    assert a_tool["title"] == "The A"
    assert a_tool["inputSchema"] == {"type": "object"}
    assert a_tool["annotations"] == {
        "readOnlyHint": True,
        "consequentialHint": True,
        "untrustedContentHint": False,
        "debugging": False,
    }
    assert a_tool["window"] is True
    assert a_tool["origin"] == site
    assert tools[0]["title"] == ""
    assert "annotations" not in tools[0]
    assert "inputSchema" not in tools[0]


async def test_execute_tool_defaults_input_rejects_primitives_and_fires_toolactivated(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")

    seen = await run(
        page,
        """
        const mc = document.modelContext, events = [], inputs = [];
        mc.addEventListener("toolactivated", (e) => events.push(e.constructor.name + ":" + e.toolName));
        await mc.registerTool({ name: "echo", description: "echo",
                                execute: (input, options) => { inputs.push([input, options.signal instanceof AbortSignal]);
                                                              return input; } });
        await mc.registerTool({ name: "text", description: "plain text", execute: () => "plain" });
        await mc.registerTool({ name: "nothing", description: "undefined", execute: () => undefined });
        const tools = await mc.getTools(), tool = (name) => tools.find((t) => t.name === name);
        return JSON.stringify({
          omitted: await settle(() => mc.executeTool(tool("echo"))),
          given: await settle(() => mc.executeTool(tool("echo"), { a: [1, 2] })),
          number: await settle(() => mc.executeTool(tool("echo"), 5)),
          string: await settle(() => mc.executeTool(tool("echo"), "x")),
          nil: await settle(() => mc.executeTool(tool("echo"), null)),
          text: await settle(() => mc.executeTool(tool("text"), {})),
          nothing: await settle(() => mc.executeTool(tool("nothing"), {})),
          events, inputs,
        });
        """,
    )

    assert seen["omitted"] == "{}"
    assert seen["given"] == '{"a":[1,2]}'
    assert seen["number"] == seen["string"] == seen["nil"] == "TypeError"
    assert seen["text"] == "plain"  # strings come back as they are, not JSON-quoted
    assert seen["nothing"] == "undefined"
    assert seen["inputs"] == [[{}, True], [{"a": [1, 2]}, True]]
    assert seen["events"] == ["ToolActivatedEvent:echo"] * 2 + ["ToolActivatedEvent:text", "ToolActivatedEvent:nothing"]


async def test_caller_abort_rejects_aborts_the_tool_and_fires_toolcancel(page: Page, site: str) -> None:
    await page.goto(f"{site}/blank.html")

    seen = await run(
        page,
        """
        const mc = document.modelContext, events = [];
        for (const type of ["toolactivated", "toolcancel"]) mc.addEventListener(type, (e) => events.push(type + ":" + e.toolName));
        let toolSignal = null;
        await mc.registerTool({ name: "slow", description: "never answers",
                                execute: (_input, { signal }) => { toolSignal = signal; return new Promise(() => {}); } });
        const [tool] = await mc.getTools();
        const caller = new AbortController();
        const call = settle(() => mc.executeTool(tool, {}, { signal: caller.signal }));
        for (let i = 0; i < 300 && toolSignal === null; i++) await tick();  // a loaded machine takes a while
        const abortedBefore = toolSignal.aborted;
        caller.abort("user gave up");
        const result = await call;
        for (let i = 0; i < 300 && events.length < 2; i++) await tick();
        return JSON.stringify({ result, abortedBefore, abortedAfter: toolSignal.aborted,
                                reason: toolSignal.reason.name, events });
        """,
    )

    assert seen == {
        "result": "user gave up",
        "abortedBefore": False,
        "abortedAfter": True,
        "reason": "AbortError",
        "events": ["toolactivated:slow", "toolcancel:slow"],
    }


async def test_a_throwing_tool_rejects_with_unknown_error_in_the_page(page: Page, site: str) -> None:
    await page.goto(f"{site}/tools.html")
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text))

    name = await run(
        page,
        """
        const tool = (await document.modelContext.getTools()).find((t) => t.name === "book_flight");
        return JSON.stringify(await settle(() => document.modelContext.executeTool(tool, { number: "HV9" })));
        """,
    )

    # The page's own callers only learn "UnknownError" (Hive gets the real text: see test_calls); the console says it.
    assert name == "UnknownError"
    assert any("RangeError: flight HV9 is sold out" in text for text in warnings)


SCENARIO = """
const mc = document.modelContext, log = [];
for (const type of ["toolchange", "toolactivated", "toolcancel"]) mc.addEventListener(type, (e) => log.push(type + ":" + (e.toolName || "")));
const execute = (input) => ({ got: input });
const results = {};
results.first = await settle(() => mc.registerTool({ name: "zeta", description: "z", execute }));
results.dup = await settle(() => mc.registerTool({ name: "zeta", description: "z", execute }));
results.bad = await settle(() => mc.registerTool({ name: "bad name", description: "z", execute }));
results.nodesc = await settle(() => mc.registerTool({ name: "nodesc", description: "", execute }));
results.missing = await settle(() => mc.registerTool({ name: "noexec", description: "x" }));
const controller = new AbortController();
results.alpha = await settle(() => mc.registerTool({ name: "alpha", title: "Alpha", description: "a", execute,
  inputSchema: { type: "object", properties: { n: { type: "integer" } } },
  annotations: { untrustedContentHint: true } }, { signal: controller.signal }));
await mc.registerTool({ name: "thrower", description: "t", execute: () => { throw new Error("nope"); } });
await mc.registerTool({ name: "bigint", description: "b", execute: () => 10n });
await mc.registerTool({ name: "hang", description: "h", execute: () => new Promise(() => {}) });
let tools = await mc.getTools();
results.tools = tools.map((t) => ({ ...t, window: t.window === window, origin: t.origin === location.origin }));
const tool = (name) => tools.find((t) => t.name === name);
results.run = await settle(() => mc.executeTool(tool("alpha"), { n: 3 }));
results.runOmitted = await settle(() => mc.executeTool(tool("zeta")));
results.runPrimitive = await settle(() => mc.executeTool(tool("zeta"), 7));
results.runArray = await settle(() => mc.executeTool(tool("zeta"), [1]));
results.thrower = await settle(() => mc.executeTool(tool("thrower"), {}));
results.bigint = await settle(() => mc.executeTool(tool("bigint"), {}));
const stop = new AbortController();
const hanging = settle(() => mc.executeTool(tool("hang"), {}, { signal: stop.signal }));
await tick();
stop.abort();
results.hang = await hanging;
controller.abort();
await tick();
results.after = (await mc.getTools()).map((t) => t.name);
results.stale = await settle(() => mc.executeTool(tool("alpha"), {}));
await tick();
results.log = log;
return JSON.stringify(results);
"""


async def test_native_and_polyfill_give_identical_outcomes(browsers: dict[str, Browser], site: str) -> None:
    outcomes = {}
    for mode, browser in browsers.items():
        context = await browser.new_context()
        await install_bridge(context)
        page = await context.new_page()
        await page.goto(f"{site}/blank.html")
        outcomes[mode] = await run(page, SCENARIO)
        await context.close()

    assert outcomes["native"] == outcomes["polyfill"]
    assert outcomes["native"]["after"] == ["bigint", "hang", "thrower", "zeta"]
    assert outcomes["native"]["thrower"] == "UnknownError"
    assert outcomes["native"]["hang"] == "AbortError"


async def test_the_polyfill_serves_only_where_chromium_has_no_webmcp(page: Page, site: str, mode: str) -> None:
    await page.goto(f"{site}/blank.html")

    kind = await page.evaluate(
        "() => [document.modelContext.constructor.name, String(document.modelContext.registerTool)]"
    )

    assert kind[0] == "ModelContext"
    assert ("[native code]" in kind[1]) == (mode == "native")
    await page.goto("about:blank")  # not a secure context: neither has WebMCP there
    assert await page.evaluate("() => typeof document.modelContext") == "undefined"
