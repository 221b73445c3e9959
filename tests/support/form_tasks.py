"""The form-task suite: small everyday pages and a scripted model that reads Hive's text literally.

Each task is what a user would write: `On <url>: type "Par" into "City", choose "Paris, France", then click "Search".
Tell me the text after "Result:".` The model does not know the pages. It parses the quoted steps from the user's
message and, at each turn, looks for the element each step needs in the element lists the agent sent (the list
after navigating, then what changed after each action); it calls get_elements only when the element is not there,
and answers "CANNOT: <why>" when nothing fits, so a failure reads as the gap it hit. Which arguments an action
takes comes from the tool schemas in the request, so a new argument (click modifiers, several options) is used as
soon as Hive offers it.

The expected result is for the test harness only: success is read from the page's `#result`, not from the model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agents import AgentConfig, ModelConfig, run_agent_turn
from agents.safety import SafetyConfig
from browser_pool.types import TabControl
from tests.agents.support import ELEMENT_LINE, RecordingSink, act, calls_made, observations, user_request
from tests.support.llm_server import Reply, ScriptedLLM

PAGE_FOLDER = "forms"  # under tests/agents/pages
RESULT_SELECTOR = "#result"

# Tools that look without acting; every other tool call is one step of the task.
LOOK_UPS = frozenset({"get_elements", "get_element_details", "screenshot", "list_tabs", "navigate"})


@dataclass(frozen=True, slots=True)
class FormTask:
    page: str  # a file in tests/agents/pages/forms
    steps: str  # the user's words between "On <url>:" and "Tell me ..."
    expect: str  # the page's #result text when the task is done right (for the harness only)
    gap: str = ""  # the known gap in what Hive shows or can do that makes this task fail today ("" = passes)
    # get_elements calls the task needs by design: its target starts out of view, and only what is in view is sent.
    look_ups: int = 0

    @property
    def name(self) -> str:
        return self.page.removesuffix(".html")

    def message(self, site: str) -> str:
        return f'On {site}/{PAGE_FOLDER}/{self.page}: {self.steps} Tell me the text after "Result:".'


TASKS: tuple[FormTask, ...] = (
    FormTask("sign_in.html", 'type "ada" into "Username", type "lovelace" into "Password", then click "Sign in".',
             "Result: welcome ada"),
    FormTask("inline_bold.html", 'type the text quoted after "Enter" into "Answer", then click "Submit".',
             "Result: correct"),
    FormTask("inline_mixed.html", 'type the text quoted after "Your code is" into "Code", then click "Verify".',
             "Result: verified"),
    FormTask("hidden_text.html", 'type the text quoted after "Enter" into "Answer", then click "Submit".',
             "Result: correct"),
    FormTask("exact_value.html", 'copy the value of "Reference" into "Confirm reference", then click "Confirm".',
             "Result: confirmed"),
    FormTask("div_button.html", 'type "Minutes" into "Title", then click "Save".', "Result: saved Minutes"),
    FormTask("role_button.html", 'click "Continue".', "Result: continued"),
    FormTask("span_link.html", 'click "Show details".', "Result: arrives Tuesday"),
    FormTask("autocomplete.html", 'type "Par" into "City", choose "Paris, France", then click "Search".',
             "Result: searching Paris, France"),
    FormTask("combobox.html", 'type "Ne" into "Country", then choose "Netherlands".', "Result: country Netherlands"),
    FormTask("tree.html", 'expand "Documents", then click "letter.pdf".', "Result: opened letter.pdf"),
    FormTask("tree_spans.html", 'expand "Animals", then click "Dogs".', "Result: picked Dogs"),
    FormTask("listbox_ctrl.html", 'click "Cheese", ctrl-click "Onions", then click "Apply".',
             "Result: Cheese and Onions"),
    FormTask("listbox_shift.html", 'click "Week 2", shift-click "Week 4", then click "Book".',
             "Result: Week 2, Week 3, Week 4"),
    FormTask("select_multiple.html", 'select "French" and "German" in "Languages", then click "Save".',
             "Result: French and German"),
    FormTask("select_single.html", 'select "Business" in "Cabin", then click "Book".', "Result: booked Business"),
    FormTask("select_long.html",
             'select "Premium plan with phone support around the clock and a daily usage report (EUR 20)" in "Plan", '
             'then click "Choose".', "Result: EUR 20"),
    FormTask("table_inputs.html", 'type "Grace" into "First name", type "Hopper" into "Last name", then click '
             '"Register".', "Result: registered Grace Hopper"),
    FormTask("sibling_label.html", 'type "ada@example.com" into "Email", type "555 0100" into "Phone", then click '
             '"Subscribe".', "Result: ada@example.com / 555 0100"),
    FormTask("legend.html", 'type "SPRING24" into "Promo code", then click "Redeem".', "Result: redeemed SPRING24"),
    FormTask("aria_label.html", 'type "lamps" into "Search the catalogue", then click "Go".', "Result: found lamps"),
    FormTask("dialog.html", 'click "Edit profile", type "Countess" into "Nickname", then click "Save profile".',
             "Result: nickname Countess"),
    FormTask("popup_div.html", 'click "Delete account", then click "Keep it".', "Result: kept"),
    FormTask("scroll_list.html", 'click "Seat 48A".', "Result: seat 48A", look_ups=1),
    FormTask("scroll_container.html", 'choose "Station 24", then click "Set station".', "Result: Station 24"),
    FormTask("tabs.html", 'click "Shipping", type "1 Main St" into "Street", then click "Save address".',
             "Result: ships to 1 Main St"),
    FormTask("details.html", 'expand "Advanced settings", check "Keep logs", then click "Apply settings".',
             "Result: logs on"),
    FormTask("collapsible.html", 'expand "More options", type "SAVE10" into "Coupon", then click "Checkout".',
             "Result: coupon SAVE10"),
    FormTask("date.html", 'type "2025-03-14" into "Departure date", then click "Find trains".',
             "Result: trains on 2025-03-14"),
    FormTask("time.html", 'type "07:30" into "Wake-up time", then click "Set alarm".', "Result: alarm at 07:30"),
    FormTask("dynamic_select.html", 'select "Business" in "Account type", type "Acme" into "Company name", then click '
             '"Create account".', "Result: Business account for Acme"),
    FormTask("dynamic_radio.html", 'choose "Other reason", type "moving abroad" into "Please specify", then click '
             '"Send feedback".', "Result: because moving abroad"),
    FormTask("checkbox.html", 'check "I agree to the terms", then click "Continue".', "Result: agreed"),
    FormTask("radio.html", 'choose "Express", then click "Pay".', "Result: express"),
    FormTask("switch.html", 'click "Dark mode", then click "Save preferences".', "Result: dark mode on"),
    FormTask("contenteditable.html", 'type "See you at noon" into "Message", then click "Send".',
             "Result: sent See you at noon"),
    FormTask("contenteditable_plain.html", 'type "Buy milk" into "Note", then click "Keep note".',
             "Result: kept Buy milk"),
    FormTask("reset_submit.html", 'type "Why?" into "Question", then click the submit button "OK".',
             "Result: asked Why?"),
    FormTask("iframe.html", 'type "123" into "Security code", then click "Verify code".', "Result: code 123"),
    FormTask("shadow.html", 'type "ada@example.com" into "Newsletter email", then click "Join newsletter".',
             "Result: joined ada@example.com"),
    FormTask("double_click.html", 'double-click "report.txt".', "Result: renaming report.txt"),
    FormTask("right_click.html", 'right-click "holiday.jpg".', "Result: menu for holiday.jpg"),
    FormTask("press_enter.html", 'type "tents" into "Search", then press "Enter" in "Search".',
             "Result: results for tents"),
    FormTask("textarea.html", 'type "Great trip" into "Feedback", type "5" into "Score", then click "Send feedback".',
             "Result: 5 stars, Great trip"),
)  # fmt: skip

# Tasks a smoke run uses: a plain form, one that observes what appeared, and a look-up below the fold.
SMOKE = ("sign_in", "autocomplete", "scroll_list", "listbox_ctrl")


# -- the user's words -------------------------------------------------------------------------------------------

Q = r'"([^"]*)"'
STEP = re.compile(
    "|".join(
        (
            rf"(?P<quoted>type the text quoted after {Q} into {Q})",
            rf"(?P<copy>copy the value of {Q} into {Q})",
            rf"(?P<type>type {Q} into {Q})",
            rf"(?P<select>select {Q}(?: and {Q})? in {Q})",
            rf"(?P<press>press {Q} in {Q})",
            rf"(?P<click>(?:(ctrl|shift|double|right)-)?(?:click|choose|check|expand)(?: the (\w+) button)? {Q})",
        )
    )
)


@dataclass(frozen=True, slots=True)
class Step:
    verb: str  # quoted, copy, type, select, press, click
    target: str  # the element's name as quoted
    text: str = ""  # what to type, the key, or where to read from
    options: tuple[str, ...] = ()
    variant: str = ""  # ctrl, shift, double, right: how to click
    kind: str = ""  # "submit" in `click the submit button "OK"`


def parse_steps(words: str) -> list[Step]:
    """The quoted steps of a task, in order."""
    steps = []
    for match in STEP.finditer(words):
        verb = match.lastgroup or ""
        # The alternative's own groups: its quoted strings (a click's variant and kind are read from its words).
        quoted = re.findall(Q, match.group(0))
        if verb in ("quoted", "copy", "type", "press"):
            steps.append(Step(verb, target=quoted[1], text=quoted[0]))
        elif verb == "select":
            steps.append(Step(verb, target=quoted[-1], options=tuple(quoted[:-1])))
        else:
            variant = re.match(r"(ctrl|shift|double|right)-", match.group(0))
            kind = re.search(r" the (\w+) button ", match.group(0))
            steps.append(Step("click", target=quoted[-1], variant=variant.group(1) if variant else "",
                              kind=kind.group(1) if kind else ""))  # fmt: skip
    return steps


# -- what the model was sent ------------------------------------------------------------------------------------

FULL_LIST = re.compile(r"^Interactive elements (?:in view|on the page): \d+", re.MULTILINE)
GONE = re.compile(r"^Gone from view: (.*)$", re.MULTILINE)
NAME = re.compile(r'(?:^|\s)"((?:[^"\\]|\\.)*)"')
VALUE = re.compile(r' value="((?:[^"\\]|\\.)*)"')
OPTIONS = re.compile(r' options="((?:[^"\\]|\\.)*)"')
# Elements nobody types into; anything else named like the field will do (however Hive marks an editable div).
NOT_TEXT_ENTRY = re.compile(r"^(?:button|a|select|option|summary)\b|type=(?:checkbox|radio|submit|button|reset|image)\b|"
                            r"role=(?:button|link|option|checkbox|radio|switch|tab|treeitem|menuitem|listbox)\b")  # fmt: skip


def known_elements(request: dict[str, Any]) -> dict[int, str]:
    """The element lines the model knows now, index -> line: the latest full list (after a navigation or a look-up),
    updated by what each later action said appeared, changed or went from view."""
    known: dict[int, str] = {}
    for text in observations(request):
        if FULL_LIST.search(text):
            known = {}
        for gone in GONE.findall(text):
            for index in re.findall(r"\[(\d+)\]", gone):
                known.pop(int(index), None)
        for match in ELEMENT_LINE.finditer(text.replace("\n*[", "\n[")):
            index, tag, rest = match.groups()
            known[int(index)] = f"{tag}{rest}"
    return known


def unquote(value: str) -> str:
    return str(json.loads(f'"{value}"'))


def name_of(line: str) -> str | None:
    """An element line's name: its first quoted string that is not an attribute's value."""
    found = NAME.search(line.split(" ", 1)[1] if " " in line else "")
    return unquote(found.group(1)) if found else None


def find(known: dict[int, str], step: Step) -> tuple[int, str] | str:
    """The (index, line) of the element a step needs, or why there is none to pick."""
    named = [(i, line) for i, line in known.items() if name_of(line) == step.target]
    if step.verb in ("quoted", "copy", "type"):
        named = [(i, line) for i, line in named if not NOT_TEXT_ENTRY.search(line)]
    elif step.verb == "select":
        named = [(i, line) for i, line in named if line.startswith("select") or "role=listbox" in line]
    if step.kind:
        named = [(i, line) for i, line in named if f"type={step.kind}" in line]
    if not named:
        return f'no element "{step.target}" in what Hive sent'
    if len(named) > 1:
        return f'{len(named)} elements "{step.target}" and nothing in what Hive sent tells them apart'
    return named[0]


# -- the model --------------------------------------------------------------------------------------------------


def tool_schema(request: dict[str, Any], name: str) -> dict[str, Any] | None:
    for tool in request.get("tools") or ():
        if tool["function"]["name"] == name:
            return dict(tool["function"].get("parameters") or {})
    return None


def click_arguments(request: dict[str, Any], step: Step) -> tuple[str, dict[str, Any]] | str:
    """The tool and extra arguments for a click variant, from the tools the agent offers, or why it cannot."""
    if not step.variant:
        return "click", {}
    if step.variant in ("double", "right") and tool_schema(request, f"{step.variant}_click") is not None:
        return f"{step.variant}_click", {}
    properties = (tool_schema(request, "click") or {}).get("properties", {})
    if step.variant in ("ctrl", "shift") and "modifiers" in properties:
        names = properties["modifiers"].get("items", {}).get("enum", [step.variant])
        spellings = {"ctrl": ("ctrl", "control"), "shift": ("shift",)}[step.variant]
        key = next((name for name in names if name.lower() in spellings), None)
        if key is not None:
            return "click", {"modifiers": [key]}
    if step.variant == "double":
        for name in ("click_count", "clicks", "count"):
            if name in properties:
                return "click", {name: 2}
        if "double" in properties:
            return "click", {"double": True}
    if step.variant == "right" and "right" in json.dumps(properties.get("button", {})):
        return "click", {"button": "right"}
    return f"the click tool offers no {step.variant}-click"


def select_arguments(request: dict[str, Any], step: Step, line: str) -> dict[str, Any] | str:
    """The select call's option arguments, or why it cannot: an option Hive did not list, or several options when
    select takes one."""
    listed = OPTIONS.search(line)
    if listed:
        shown = unquote(listed.group(1)).split("|")
        missing = [option for option in step.options if option not in shown]
        if missing:
            return f'option "{missing[0]}" is not among the options Hive listed for "{step.target}"'
    if len(step.options) == 1:
        return {"label": step.options[0]}
    properties = (tool_schema(request, "select") or {}).get("properties", {})
    for name in ("labels", "label"):
        if properties.get(name, {}).get("type") == "array" or "array" in json.dumps(properties.get(name, {})):
            return {name: list(step.options)}
    return "the select tool takes one option, not several"


def text_to_type(request: dict[str, Any], known: dict[int, str], step: Step) -> str | None:
    """What a type step types: its quoted text, the text the page quotes after some words, or another field's value."""
    if step.verb == "type":
        return step.text
    if step.verb == "quoted":
        for text in reversed(observations(request)):
            found = re.search(re.escape(step.text) + r'\s*"([^"\n]*)"', text)
            if found:
                return found.group(1)
        return None
    source = find(known, Step("type", target=step.text))
    if isinstance(source, str):
        return None
    value = VALUE.search(source[1])
    return unquote(value.group(1)) if value else ""


def last_failed(request: dict[str, Any]) -> str:
    found = observations(request)
    last = found[-1] if found else ""
    error = re.search(r"^Error: (.*)$", last, re.MULTILINE)
    return error.group(1) if error else ""


def literal_reader(request: dict[str, Any]) -> Reply:
    """The generic form-task model: one acting call per quoted step, a look-up only for an element it was not sent."""
    words = user_request(request)
    url = re.search(r"On (http://\S+):\s", words)
    if url is None:
        return Reply(content="CANNOT: the task names no page")
    made = calls_made(request)
    if not made:
        return act("native", "navigate", {"url": url.group(1)})
    if made[-1] != "get_elements" and (error := last_failed(request)):
        return Reply(content=f"CANNOT: {made[-1]} failed: {error}")
    steps = parse_steps(words[url.end() :])
    done = sum(1 for name in made if name not in LOOK_UPS)
    if done >= len(steps):
        result = re.search(r"Result: ([^\n]*)", "\n".join(observations(request)[-1:]))
        return Reply(content=f"Result: {result.group(1)}" if result else 'CANNOT: no "Result:" on the page')
    step = steps[done]
    known = known_elements(request)
    found = find(known, step)
    if isinstance(found, str):
        if made[-1] == "get_elements":
            return Reply(content=f"CANNOT: {found}")
        return act("native", "get_elements", {"visible_only": False})
    index, line = found
    if step.verb == "click":
        how = click_arguments(request, step)
        if isinstance(how, str):
            return Reply(content=f"CANNOT: {how}")
        return act("native", how[0], {"index": index, **how[1]})
    if step.verb == "select":
        chosen = select_arguments(request, step, line)
        if isinstance(chosen, str):
            return Reply(content=f"CANNOT: {chosen}")
        return act("native", "select", {"index": index, **chosen})
    if step.verb == "press":
        return act("native", "press_key", {"index": index, "key": step.text})
    text = text_to_type(request, known, step)
    if text is None:
        return Reply(content=f'CANNOT: nothing quoted after "{step.text}" in what Hive sent')
    return act("native", "type", {"index": index, "text": text})


# -- running a task ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskRun:
    task: FormTask
    result: str  # the page's #result text after the turn
    reply: str  # the model's answer
    tools: tuple[str, ...]  # the tool calls, in order
    request_chars: tuple[int, ...]  # characters of each model request: messages and tools, as readable JSON
    sent_bytes: tuple[int, ...] = ()  # each model request's size as the client sent it (compact JSON)

    @property
    def ok(self) -> bool:
        return self.result == self.task.expect

    @property
    def look_ups(self) -> int:
        return self.tools.count("get_elements")

    @property
    def acting(self) -> int:
        return sum(1 for name in self.tools if name not in LOOK_UPS or name == "navigate")

    @property
    def model_calls(self) -> int:
        return len(self.request_chars)


def request_chars(request: dict[str, Any]) -> int:
    """Characters of one model request as bench/context_size.py counts them: messages and tools, as JSON."""
    return len(json.dumps(request["messages"], ensure_ascii=False)) + len(
        json.dumps(request.get("tools", []), ensure_ascii=False)
    )


def task_config(server: ScriptedLLM, site: str) -> AgentConfig:
    """The agent as a user gets it, without step screenshots (nobody looks at them here) and with the test site
    allowed like one of Hive's own demo sites."""
    return AgentConfig(
        model=ModelConfig(base_url=server.base_url, model="literal", provider="openai", timeout_s=10.0),
        retry_backoff_s=0.01,
        step_screenshots=False,
        safety=SafetyConfig(always_allowed_origins=(site,)),
    )


async def run_task(task: FormTask, *, server: ScriptedLLM, tabs: TabControl, site: str) -> TaskRun:
    """One task through the real agent loop, on an empty tab; the result is read from the page."""
    server.script(literal_reader)
    server.requests.clear()
    server.sent_bytes.clear()
    await tabs.active_page.goto("about:blank")
    sink = RecordingSink()
    turn = await run_agent_turn(
        config=task_config(server, site), history=[("user", task.message(site))], tabs=tabs, sink=sink
    )
    page = tabs.active_page
    result = await page.evaluate(f"document.querySelector({RESULT_SELECTOR!r})?.textContent ?? ''")
    return TaskRun(
        task=task,
        result=str(result),
        reply=turn.reply,
        tools=tuple(step.action for step in sink.actions()),
        request_chars=tuple(request_chars(request) for request in server.requests),
        sent_bytes=tuple(server.sent_bytes),
    )
