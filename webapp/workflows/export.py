"""A workflow as a standalone Playwright (async Python) script: its parameters are command-line options, and each
step finds its element with the same fallbacks as Hive's replay (the functions are copied from
`browser_pool.replay` into the script, so the two cannot drift apart). It needs only `playwright` and a Chromium."""

from __future__ import annotations

import inspect
import json
import keyword
import pprint
import re

from browser_pool import replay
from webapp.workflows.models import WorkflowVersion

SUPPORTED = ("navigate", "type", "select", "click", "hover", "press_key", "scroll", "wait", "go_back", "go_forward",
             "refresh")  # fmt: skip

_TEMPLATE = '''#!/usr/bin/env python3
"""{title}

Exported from Hive (workflow {workflow_id}, version {version}). Runs without Hive:

    pip install playwright
    python {filename} {usage}

Each step finds its element the way Hive's replay does: the recorded selector, stable attributes, role and name,
label, text, XPath, taking the first way that matches exactly one element that agrees with the record.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys


from playwright.async_api import Locator, Page, async_playwright

PARAMETERS = {parameters}
STEPS = {steps}
PLACEHOLDER = re.compile(r"\\{{\\{{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\}}\\}}")

{helpers}

async def find(page: Page, target: dict[str, Any]) -> Locator:
    tried = []
    for _ in range(30):
        for how, locator in _ways(page, target):
            if await locator.count() == 1 and await locator.evaluate(_AGREE, target):
                return locator
            tried.append(how)
        await page.wait_for_timeout(100)
    raise SystemExit(f"element not found: {{target.get('name') or target.get('tag')}} (tried {{', '.join(dict.fromkeys(tried))}})")


def fill(value: Any, values: dict[str, str]) -> Any:
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value) if isinstance(value, str) else value


async def step(page: Page, number: int, action: str, arguments: dict[str, Any], target: dict[str, Any]) -> None:
    element = await find(page, target) if target else None
    if action == "navigate":
        await page.goto(arguments["url"])
    elif action == "type" and element is not None:
        if arguments.get("clear", True):
            await element.fill(arguments["text"])
        else:
            await element.press_sequentially(arguments["text"])
    elif action == "select" and element is not None:
        if "value" in arguments:
            await element.select_option(value=arguments["value"])
        else:
            await element.select_option(label=arguments.get("labels") or arguments["label"])
    elif action == "click" and element is not None:
        keys = {{"ctrl": "Control", "alt": "Alt", "shift": "Shift", "meta": "Meta"}}
        await element.click(modifiers=[keys[k] for k in arguments.get("modifiers", [])],
                            button=arguments.get("button", "left"), click_count=2 if arguments.get("double") else 1)
    elif action == "hover" and element is not None:
        await element.hover()
    elif action == "press_key":
        await (element.press(arguments["key"]) if element is not None else page.keyboard.press(arguments["key"]))
    elif action == "scroll":
        amount = int(arguments.get("amount", 600))
        await page.mouse.wheel(0, -amount if arguments.get("direction") == "up" else amount)
    elif action == "wait":
        await page.wait_for_timeout(int(arguments.get("ms", 1000)))
    elif action in ("go_back", "go_forward", "refresh"):
        await {{"go_back": page.go_back, "go_forward": page.go_forward, "refresh": page.reload}}[action]()
    else:
        raise SystemExit(f"step {{number}}: {{action}} cannot run outside Hive")
    await page.wait_for_load_state()


async def main() -> None:
    parser = argparse.ArgumentParser(description={description})
    for parameter in PARAMETERS:
        parser.add_argument("--" + parameter["name"].replace("_", "-"), dest=parameter["name"],
                            default=parameter.get("default", ""), help=parameter.get("label") or None)
    parser.add_argument("--browser", help="a Chromium executable (default: Playwright's own)")
    parser.add_argument("--headed", action="store_true", help="show the browser")
    args = parser.parse_args()
    values = {{p["name"]: str(getattr(args, p["name"])) for p in PARAMETERS}}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=args.browser, headless=not args.headed)
        page = await browser.new_page()
        for number, recorded in enumerate(STEPS, 1):
            arguments = {{key: fill(value, values) for key, value in recorded["arguments"].items()}}
            print(f"step {{number}}: {{recorded['intent']}}", file=sys.stderr)
            await step(page, number, recorded["action"], arguments, recorded.get("target") or {{}})
        print(json.dumps({{"url": page.url, "title": await page.title(),
                          "text": (await page.inner_text("body"))[:2000]}}, ensure_ascii=False))
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
'''


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def export_script(version: WorkflowVersion) -> tuple[str, str]:
    """(file name, source) of the script; a step that cannot run outside Hive is refused up front."""
    unsupported = sorted({s["action"] for s in version.steps if s["action"] not in SUPPORTED})
    if unsupported:
        raise ValueError(f"These steps cannot run outside Hive: {', '.join(unsupported)}.")
    workflow = version.workflow
    slug = re.sub(r"[^a-z0-9]+", "_", workflow.name.lower()).strip("_") or "workflow"
    if keyword.iskeyword(slug) or slug[0].isdigit():
        slug = f"workflow_{slug}"
    filename = f"{slug}.py"
    steps = [
        {"action": s["action"], "arguments": s.get("arguments") or {}, "target": s.get("target") or {},
         "intent": s.get("intent") or s["action"]}
        for s in version.steps
    ]  # fmt: skip
    helpers = "\n\n".join(
        [
            f"STABLE_ATTRIBUTES = {replay.STABLE_ATTRIBUTES!r}",
            inspect.getsource(replay._css_string),
            f"_AGREE = {replay._AGREE!r}",
            inspect.getsource(replay._ways),
        ]
    )
    usage = " ".join(f'{_option(p["name"])} "{p.get("default", "")}"' for p in version.parameters)
    source = _TEMPLATE.format(
        title=f"{workflow.name}: a Hive workflow as a Playwright script.",
        workflow_id=workflow.pk,
        version=version.number,
        filename=filename,
        usage=usage,
        parameters=pprint.pformat(version.parameters, width=110, sort_dicts=False),
        steps=pprint.pformat(steps, width=110, sort_dicts=False),
        helpers=helpers,
        description=json.dumps(workflow.name),
    )
    return filename, source
