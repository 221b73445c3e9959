"""A workflow as a standalone Playwright (async Python) script: its parameters are command-line options, and each
step finds its element with the same fallbacks as Hive's replay (the functions are copied from
`browser_pool.replay` into the script, so the two cannot drift apart). It needs only `playwright` and a Chromium.

Everything in a workflow was written by people, some of whom the one who runs the script does not know (a teammate
typing in a shared conversation makes a parameter's default), so it reaches the script as data and never as code:
the steps and the options are Python literals (checked to read back as exactly the same data), and the name and the
usage line are comments with every line break and unprintable character taken out.
"""

from __future__ import annotations

import ast
import inspect
import keyword
import pprint
import re
import shlex
from typing import Any

from browser_pool import replay
from webapp.workflows.models import WorkflowVersion

SUPPORTED = ("navigate", "type", "select", "click", "hover", "press_key", "scroll", "wait", "go_back", "go_forward",
             "refresh")  # fmt: skip
# The script's own options; a parameter's option never takes one of these names.
RESERVED_OPTIONS = frozenset({"--help", "--browser", "--headed"})

# The source encoding is said on the second line, where Python looks for it, so that no text of the workflow's
# (a name with "coding: utf-7" in it, on a comment line Python reads for one) can choose another.
_TEMPLATE = '''#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# {title}
# Exported from Hive (workflow {workflow_id}, version {version}). Runs without Hive:
#
#     pip install playwright
#     python {filename} {usage}
"""A Hive workflow as a Playwright script.

Each step finds its element the way Hive's replay does: the recorded selector, stable attributes, role and name,
label, text, XPath, taking the first way that matches exactly one element that agrees with the record.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys


from playwright.async_api import Error, Locator, Page, async_playwright

NAME = {name}
# Each parameter: its name in the steps' {{{{placeholders}}}}, its command-line option, default and help.
OPTIONS = {options}
STEPS = {steps}
PLACEHOLDER = re.compile(r"\\{{\\{{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\}}\\}}")

{helpers}

async def find(page: Page, target: dict[str, Any]) -> Locator:
    tried = []
    for _ in range(30):
        for how, locator in _ways(page, target):
            try:
                if await locator.count() == 1 and await locator.evaluate(_AGREE, target):
                    return locator
            except Error:  # a recorded selector this page's engine cannot read: the next way is tried
                pass
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
    parser = argparse.ArgumentParser(description=NAME)
    for number, option in enumerate(OPTIONS):
        parser.add_argument(option["option"], dest=f"parameter_{{number}}", metavar="VALUE",
                            default=option["default"], help=option["help"])
    parser.add_argument("--browser", help="a Chromium executable (default: Playwright's own)")
    parser.add_argument("--headed", action="store_true", help="show the browser")
    args = parser.parse_args()
    values = {{option["name"]: str(getattr(args, f"parameter_{{number}}")) for number, option in enumerate(OPTIONS)}}
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


def _comment(text: str) -> str:
    """Text for a comment line: a line break (of any kind Python or an editor knows) or another unprintable character
    would end the comment and start code, so each becomes a space."""
    return "".join(char if char.isprintable() else " " for char in text)


def _literal(value: Any) -> str:
    """A Python literal of JSON-like data, checked to read back (by `ast.literal_eval`, which runs nothing) as the
    same data: anything that does not (a float that is not a number) is refused, not written."""
    text = pprint.pformat(value, width=110, sort_dicts=False)
    try:
        same = ast.literal_eval(text) == value
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        same = False
    if not same:
        raise ValueError("This workflow holds a value that is not plain text or numbers; it cannot be exported.")
    return text


def _help(text: str) -> str:
    return text.replace("%", "%%")  # argparse formats a help text with %


def _options(parameters: list[Any]) -> list[dict[str, str]]:
    """Each parameter's command-line option: its name with letters, digits and dashes only (`--full-name`), never
    one of the script's own options, never twice; the name itself stays data, looked up by string."""
    taken = set(RESERVED_OPTIONS)
    options = []
    for parameter in parameters:
        name = str(parameter.get("name", ""))
        base = "--" + (re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "parameter")
        option, n = base, 2
        while option in taken:
            option, n = f"{base}-{n}", n + 1
        taken.add(option)
        label = str(parameter.get("label") or "")
        secret = " (a secret: give its value)" if parameter.get("type") == "secret" else ""
        options.append({"name": name, "option": option, "default": str(parameter.get("default", "")),
                        "help": _help(f"{label or name}{secret}")})  # fmt: skip
    return options


def export_script(version: WorkflowVersion) -> tuple[str, str]:
    """(file name, source) of the script; a step that cannot run outside Hive is refused up front."""
    unsupported = sorted({str(s["action"]) for s in version.steps if s["action"] not in SUPPORTED})
    if unsupported:
        raise ValueError(f"These steps cannot run outside Hive: {', '.join(unsupported)}.")
    workflow = version.workflow
    slug = re.sub(r"[^a-z0-9]+", "_", workflow.name.lower()).strip("_") or "workflow"
    if keyword.iskeyword(slug) or slug[0].isdigit():
        slug = f"workflow_{slug}"
    filename = f"{slug[:80]}.py"
    steps = [
        {"action": s["action"], "arguments": s.get("arguments") or {}, "target": s.get("target") or {},
         "intent": s.get("intent") or s["action"]}
        for s in version.steps
    ]  # fmt: skip
    options = _options(list(version.parameters))
    helpers = "\n\n".join(
        [
            f"STABLE_ATTRIBUTES = {replay.STABLE_ATTRIBUTES!r}",
            inspect.getsource(replay._css_string),
            f"_AGREE = {replay._AGREE!r}",
            inspect.getsource(replay._ways),
        ]
    )
    usage = " ".join(f"{o['option']} {shlex.quote(o['default'])}" for o in options)
    # argparse formats a description with % only when it names the program; a name that does is escaped.
    name = workflow.name.replace("%", "%%") if "%(prog)" in workflow.name else workflow.name
    source = _TEMPLATE.format(
        title=_comment(f"{workflow.name}: a Hive workflow as a Playwright script."),
        workflow_id=workflow.pk,
        version=version.number,
        filename=filename,
        usage=_comment(usage),
        name=_literal(name),
        options=_literal(options),
        steps=_literal(steps),
        helpers=helpers,
    )
    return filename, source
