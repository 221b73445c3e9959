"""A workflow's steps: made from the steps of a run (what identifies each element, and what a replay checks before
and after it), and edited by their owner.

A step is a dict: `action`, `arguments` (typed values as `{{parameter}}`), `target` (browser_pool.replay's record of
the element, or none), `url` (the page it was recorded on), `intent` (in words), `checks` and, for a step that
extracts data, `output` (`{"name", "schema"}`: its result is kept under that name and must fit the schema).

Checks: `url`, an fnmatch pattern the page's address must match before the step (the recorded page, any query);
`navigated`, the step must lead to another page; `value`, a typed or chosen value must be what the field holds
afterwards; `gone`, the element clicked must be gone afterwards (a dialog's button). Each is recorded only when it
held when the run was made.
"""

from __future__ import annotations

import glob
import json
import re
from collections.abc import Iterable
from typing import Any, NotRequired, TypedDict, cast
from urllib.parse import urlsplit

from genson import SchemaBuilder
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from agents.secrets import PLACEHOLDER, SECRET_MASK, fill
from browser_pool.actions import ACTIONS
from browser_pool.actions.registry import NAVIGATING_ACTIONS, validate_arguments
from browser_pool.types import RecordedTarget
from webapp.core.exceptions import ApplicationError
from webapp.core.types import JsonObject
from webapp.runs.models import Step
from webapp.workflows.types import Parameter

# Actions that only look: a replay does not need them.
LOOKING = frozenset({"get_elements", "get_element_details", "screenshot", "list_tabs"})
# The agent's tool that reads data off the page (with the model): kept, with the schema of what it returns.
EXTRACT = "extract_data"
# The arguments of these actions that hold what the user typed or chose: they become parameters.
TYPED = {"type": ("text",), "select": ("value", "label")}
CHECKS = {"url": str, "navigated": bool, "value": bool, "gone": bool}
# The arguments that say how a step was aimed: its recorded element replaces them in a workflow.
AIMS = ("index", "selector", "x", "y")
# Actions that may aim at an element but work on the whole page without one (a new step may use them so).
WHOLE_PAGE_TOO = frozenset({"press_key", "scroll"})
_EXTRACTED = re.compile(r'source="extracted json">\n(.*)\n</', re.DOTALL)
# The value a type action reports for a password field (browser_pool.actions.forms).
_DOT = "•"


class Checks(TypedDict, total=False):
    url: str  # an fnmatch pattern the page's address must match before the step
    navigated: bool  # the step leads to another page
    value: bool  # the field holds the typed or chosen value afterwards
    gone: bool  # the element clicked is gone afterwards


class StepOutput(TypedDict):
    name: str
    schema: JsonObject  # a JSON schema


class WorkflowStep(TypedDict):
    action: str
    arguments: JsonObject  # the action's JSON arguments, typed values as {{parameter}}
    target: RecordedTarget  # {} for none
    url: str
    intent: str
    checks: NotRequired[Checks]
    expect: NotRequired[Checks]  # what the first saved workflows called checks
    output: NotRequired[StepOutput]


def as_steps(raw: Any) -> list[WorkflowStep]:
    """A version's stored steps (JSON) with their type."""
    return cast(list[WorkflowStep], raw)


def url_pattern(url: str) -> str:
    """The recorded page as a pattern: its address without query or fragment, then anything."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return ""
    return glob.escape(f"{parts.scheme}://{parts.netloc}{parts.path}") + "*"


def checks_of(step: WorkflowStep) -> Checks:
    """The step's checks (`expect` is what the first saved workflows called them)."""
    return Checks(**(step.get("checks") or step.get("expect") or {}))


def _reported(step: Step) -> JsonObject:
    """What the action reported (the JSON its observation starts with, inside the agent's fence), or nothing."""
    text = step.observation.lstrip()
    if text.startswith("<"):  # the agent's steps: <untrusted_page_data source="click result">\n{...}
        text = text.partition("\n")[2]
    try:
        value, _ = json.JSONDecoder().raw_decode(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def value_held(action: str, arguments: JsonObject, data: JsonObject, password: bool) -> bool:
    """Whether the action's report says the field holds what went in (browser_pool.actions.forms: a password's value
    is reported as dots, a long one cut with its whole length)."""
    if action == "type":
        text = str(arguments.get("text", ""))
        if "value_length" in data:
            return bool(data["value_length"] == len(text))
        return bool(data.get("value") == (_DOT * len(text) if password else text))
    if action == "select":
        if "labels" in arguments:
            return bool(data.get("selected") == arguments["labels"])
        if "value" in arguments:
            return str(data.get("value")) == str(arguments["value"])
        return str(data.get("selected")) == str(arguments.get("label"))
    return False


def is_secret_field(target: RecordedTarget) -> bool:
    attributes = target.get("attributes") or {}
    return attributes.get("type") == "password" or "password" in str(attributes.get("autocomplete", ""))


def recorded(step: Step, arguments: JsonObject, intent: str, typed: JsonObject | None = None) -> WorkflowStep:
    """One workflow step made of a run's step; `typed` are its arguments as they were typed (for the value check)."""
    target: RecordedTarget = step.target or {}
    out = WorkflowStep(action=step.action, arguments=arguments, target=target, url=target.get("url", ""),
                       intent=intent)  # fmt: skip
    checks = Checks()
    if target.get("url") and url_pattern(target["url"]):
        checks["url"] = url_pattern(target["url"])
    report = _reported(step)
    if step.action in NAVIGATING_ACTIONS and step.action != "navigate" and report.get("navigated"):
        checks["navigated"] = True
    if target.get("gone_after"):
        checks["gone"] = True
    if step.action in TYPED and value_held(step.action, typed or arguments, report.get("data") or {},
                                           is_secret_field(target)):  # fmt: skip
        checks["value"] = True
    if checks:
        out["checks"] = checks
    return out


def _extracted_value(step: Step) -> Any:
    match = _EXTRACTED.search(step.observation)
    if match is None:
        return None
    try:
        return json.loads(match.group(1))
    except ValueError:
        return None


def extraction(step: Step, intent: str, taken: set[str]) -> WorkflowStep:
    """An extract_data step, with the schema its output must fit: the one the agent gave, or one inferred from what
    it extracted (genson)."""
    arguments = {key: value for key, value in (step.arguments or {}).items() if key in ("instruction", "format",
                                                                                        "schema")}  # fmt: skip
    schema = arguments.get("schema")
    if schema is None and arguments.get("format", "json") == "json":
        value = _extracted_value(step)
        if value is not None:
            builder = SchemaBuilder(schema_uri=False)
            builder.add_object(value)
            schema = builder.to_schema()
    name, n = "data", 2
    while name in taken:
        name, n = f"data_{n}", n + 1
    taken.add(name)
    return WorkflowStep(action=EXTRACT, arguments=arguments, target={}, url="", intent=intent,
                        output=StepOutput(name=name, schema=schema or {}))  # fmt: skip


def replayable(step: Step) -> bool:
    return (
        step.kind == Step.Kind.ACTION
        and step.status == Step.Status.SUCCEEDED
        and ((step.action in ACTIONS and step.action not in LOOKING) or step.action == EXTRACT)
    )


def intent_of(step: Step, thought: str) -> str:
    target: RecordedTarget = step.target or {}
    aim = f' "{target.get("name")}"' if target.get("name") else ""
    what = f"{step.action}{aim}"
    return f"{what} — {thought}" if thought else what


def _unaimed(step: Step) -> JsonObject:
    """The step's arguments without the way it was aimed, when its element was recorded (a replay finds the element
    by the record, whatever the step was aimed by); a step aimed by selector or at a point that nothing could record
    keeps its aim."""
    arguments = step.arguments or {}
    dropped = AIMS if step.target else ("index",)
    return {key: value for key, value in arguments.items() if key not in dropped}


def _parameter_name(target: RecordedTarget, taken: set[str]) -> str:
    attributes = target.get("attributes") or {}
    words = attributes.get("name") or target.get("name") or attributes.get("placeholder") or attributes.get("id")
    base = re.sub(r"[^a-z0-9]+", "_", str(words or "value").lower()).strip("_")[:40] or "value"
    if base[0].isdigit():
        base = f"field_{base}"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def steps_from(source: Iterable[Step]) -> tuple[list[WorkflowStep], list[Parameter]]:
    """The replayable steps among these (in order) and the parameters made of what was typed in them."""
    steps: list[WorkflowStep] = []
    parameters: list[Parameter] = []
    taken: set[str] = set()
    outputs: set[str] = set()
    thought = ""
    for step in source:
        if step.kind == Step.Kind.THOUGHT:
            thought = step.observation.strip()[:300]
            continue
        if not replayable(step):
            continue
        if step.action == EXTRACT:
            steps.append(extraction(step, intent_of(step, thought), outputs))
            thought = ""
            continue
        typed = _unaimed(step)
        arguments = dict(typed)
        if "index" in (step.arguments or {}) and not step.target:
            raise ApplicationError(
                f"Step {step.index} ({step.action}) aimed at an element Hive could not record (inside a frame, or "
                "gone before it was described); these steps cannot be saved as a workflow."
            )
        for key in TYPED.get(step.action, ()):
            # A vault placeholder the agent typed stays as it is: a replay fills it from its starter's vault.
            if isinstance(arguments.get(key), str) and not _names_vault(arguments[key]):
                name = _parameter_name(step.target or {}, taken)
                label = (step.target or {}).get("name", "")
                if is_secret_field(step.target or {}):
                    # Never kept: a replay names a credential from the user's store instead.
                    parameters.append(Parameter(name=name, type="secret", default="", label=label))
                else:
                    parameters.append(Parameter(name=name, type="string", default=arguments[key], label=label))
                arguments[key] = "{{" + name + "}}"
        steps.append(recorded(step, arguments, intent_of(step, thought), typed))
        thought = ""
    if not steps:
        raise ApplicationError("There is nothing a workflow could replay here (no successful browser actions).")
    return steps, parameters


def healed_steps(steps: list[Step], values: dict[str, str], intent: str) -> list[WorkflowStep]:
    """What the agent did to get a step done, as steps to replay next time: a value it typed that is a parameter's
    value becomes that parameter again."""
    out = []
    by_value = {value: name for name, value in values.items() if value and value != SECRET_MASK}
    for step in steps:
        if not replayable(step) or step.action == EXTRACT or ("index" in (step.arguments or {}) and not step.target):
            continue
        typed = _unaimed(step)
        arguments = dict(typed)
        for key in TYPED.get(step.action, ()):
            if isinstance(arguments.get(key), str) and arguments[key] in by_value:
                arguments[key] = "{{" + by_value[arguments[key]] + "}}"
        out.append(recorded(step, arguments, f"{intent_of(step, '')} (healed from: {intent})", typed))
    return out


def _names_vault(text: str) -> bool:
    return any("." in name for name in PLACEHOLDER.findall(text))


def placeholders(value: Any) -> set[str]:
    """The workflow parameters `value` names (a vault's `{{credential.field}}` is not one)."""
    if isinstance(value, str):
        return {name for name in PLACEHOLDER.findall(value) if "." not in name}
    if isinstance(value, dict):
        return set().union(*(placeholders(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(placeholders(v) for v in value)) if value else set()
    return set()


def _checked_checks(number: int, checks: Any) -> Checks:
    if not isinstance(checks, dict):
        raise ApplicationError(f'Step {number}: checks is an object, e.g. {{"url": "https://example.com/*"}}.')
    for key, value in checks.items():
        if key not in CHECKS:
            raise ApplicationError(f"Step {number}: there is no check {key!r} (there are: {', '.join(CHECKS)}).")
        if not isinstance(value, CHECKS[key]):
            raise ApplicationError(f"Step {number}: the check {key} is {CHECKS[key].__name__}.")
    return cast(Checks, {key: value for key, value in checks.items() if value not in ("", False)})


def steps_edit(current: list[WorkflowStep], edits: list[Any], parameters: dict[str, str]) -> list[WorkflowStep]:
    """The owner's edit of the steps: the whole list in its new order; an edit with `from` starts from that step of
    the current version (its recorded element and anything not given); without it, a new step that aims at no
    element. `parameters` are the names (with example values) a `{{placeholder}}` may use."""
    if not edits:
        raise ApplicationError("A workflow needs at least one step.")
    out: list[WorkflowStep] = []
    for number, edit in enumerate(edits, 1):
        if not isinstance(edit, dict):
            raise ApplicationError(f"Step {number}: a step is an object.")
        unknown = sorted(set(edit) - {"from", "action", "arguments", "intent", "checks", "output"})
        if unknown:
            raise ApplicationError(f"Step {number}: unknown field(s) {', '.join(unknown)}.")
        origin = edit.get("from")
        if origin is not None:
            if not isinstance(origin, int) or isinstance(origin, bool) or not 0 <= origin < len(current):
                raise ApplicationError(f"Step {number}: from is the position (0 to {len(current) - 1}) of a step.")
            step = WorkflowStep(**current[origin])
        else:
            if "action" not in edit or "arguments" not in edit:
                raise ApplicationError(f"Step {number}: a new step needs an action and its arguments.")
            step = WorkflowStep(action="", arguments={}, target={}, url="", intent="")
        action = edit.get("action", step["action"])
        if not isinstance(action, str) or (action not in ACTIONS and action != EXTRACT) or action in LOOKING:
            raise ApplicationError(f"Step {number}: {action!r} is not an action a workflow can replay.")
        if action != step["action"] and step.get("target") and origin is not None:
            raise ApplicationError(f"Step {number}: a step that aims at an element keeps its action.")
        arguments = edit.get("arguments", step["arguments"])
        if not isinstance(arguments, dict) or "index" in arguments:
            raise ApplicationError(
                f"Step {number}: arguments is an object without an index (a step keeps its element)."
            )
        missing = sorted(placeholders(arguments) - set(parameters))
        if missing:
            raise ApplicationError(f"Step {number}: no parameter named {', '.join(missing)}.")
        if action == EXTRACT:
            _check_extraction(number, arguments)
        else:
            example = fill(dict(arguments), parameters)
            if step.get("target"):
                example["index"] = 0
            invalid = validate_arguments(action, example)
            if invalid is not None:
                raise ApplicationError(f"Step {number}: {invalid.error}.")
            aims = "index" in ACTIONS[action].schema.get("properties", {}) and action not in WHOLE_PAGE_TOO
            if aims and not step.get("target") and not set(arguments) & {"selector", "x", "y", "from", "to"}:
                raise ApplicationError(
                    f"Step {number}: {action} needs an element, and a new step has no recorded one: give a selector."
                )
        intent = edit.get("intent", step.get("intent", ""))
        if not isinstance(intent, str) or len(intent) > 1000:
            raise ApplicationError(f"Step {number}: intent is text (at most 1,000 characters).")
        step["action"], step["arguments"], step["intent"] = action, arguments, intent.strip()
        if "checks" in edit:
            step.pop("expect", None)
            step["checks"] = _checked_checks(number, edit["checks"])
        if action == EXTRACT:
            step["output"] = _checked_output(number, edit.get("output", step.get("output")), out)
        out.append(step)
    return out


def _check_extraction(number: int, arguments: JsonObject) -> None:
    if not isinstance(arguments.get("instruction"), str) or not arguments["instruction"].strip():
        raise ApplicationError(f"Step {number}: an extraction needs an instruction.")
    if set(arguments) - {"instruction", "format", "schema"}:
        raise ApplicationError(f"Step {number}: an extraction takes instruction, format and schema.")


def _checked_output(number: int, output: Any, before: list[WorkflowStep]) -> StepOutput:
    taken = {s["output"]["name"] for s in before if s.get("output")}
    if not isinstance(output, dict) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,39}", str(output.get("name"))):
        raise ApplicationError(f"Step {number}: an extraction's output has a name (letters, digits, _).")
    if output["name"] in taken:
        raise ApplicationError(f"Step {number}: another step's output is already named {output['name']}.")
    schema = output.get("schema") or {}
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        raise ApplicationError(f"Step {number}: the output's schema is not a JSON schema: {exc.message}") from exc
    return StepOutput(name=output["name"], schema=schema)
