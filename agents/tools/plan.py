"""Plans for multi-step work: the model publishes steps with dependencies, then reports progress step by step.

A plan is checked (unique ids, known dependencies, no cycles: a cycle is named, e.g. "b → c → b") and put in
topological order, keeping the model's order among steps that are ready together. A step can only start or
finish once everything it depends on is done or skipped, so progress follows the dependencies. Every change goes to
the sink, which shows the plan as a checklist.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from agents.events import PlanStep
from agents.tools.base import SOURCE_AGENT, Tool, ToolContext, ToolError, ToolOutput
from browser_pool.types import JsonObject

PLAN_STATE_KEY = "plan"
FINISHED = frozenset({"done", "skipped"})
_MARKS = {"pending": "[ ]", "running": "[>]", "done": "[x]", "failed": "[!]", "skipped": "[-]"}

PUBLISH_SCHEMA: JsonObject = {
    "type": "object",
    "properties": {
        "steps": {
            "type": "array",
            "minItems": 1,
            "maxItems": 30,
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "minLength": 1, "maxLength": 40, "description": "A short unique id."},
                    "title": {"type": "string", "minLength": 1, "maxLength": 200, "description": "What to do."},
                    "depends_on": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Ids of steps that must be done first.",
                    },
                },
                "required": ["id", "title"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["steps"],
    "additionalProperties": False,
}
UPDATE_SCHEMA: JsonObject = {
    "type": "object",
    "properties": {
        "step_id": {"type": "string", "minLength": 1, "description": "The id of a step of the published plan."},
        "status": {"type": "string", "enum": ["running", "done", "failed", "skipped"]},
    },
    "required": ["step_id", "status"],
    "additionalProperties": False,
}


class PlanError(ValueError):
    """A plan that cannot be followed; the message says why in words a model can act on."""


def find_cycle(steps: Sequence[PlanStep]) -> list[str] | None:
    """A dependency cycle as a closed path of ids (["a", "b", "a"]), or None."""
    depends = {step.id: step.depends_on for step in steps}
    state: dict[str, str] = {}  # "open" while on the current path, "done" once explored
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for dependency in depends.get(node, ()):
            if state.get(dependency) == "open":
                return [*path[path.index(dependency) :], dependency]
            if dependency not in state and (found := visit(dependency)) is not None:
                return found
        path.pop()
        state[node] = "done"
        return None

    for step in steps:
        if step.id not in state and (cycle := visit(step.id)) is not None:
            return cycle
    return None


def order_plan(steps: Sequence[PlanStep]) -> list[PlanStep]:
    """Check a plan and return its steps in an order that respects every dependency."""
    ids = [step.id for step in steps]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise PlanError(f"step ids must be unique; repeated: {', '.join(duplicates)}")
    known = set(ids)
    for step in steps:
        unknown = [dep for dep in step.depends_on if dep not in known]
        if unknown:
            raise PlanError(f"step {step.id!r} depends on unknown step(s): {', '.join(unknown)}")
    cycle = find_cycle(steps)
    if cycle is not None:
        raise PlanError("the plan has a dependency cycle: " + " → ".join(cycle))
    position = {step.id: n for n, step in enumerate(steps)}
    remaining = {step.id: set(step.depends_on) for step in steps}
    by_id = {step.id: step for step in steps}
    ordered: list[PlanStep] = []
    while remaining:
        ready = min((i for i, deps in remaining.items() if not deps), key=position.__getitem__)
        ordered.append(by_id[ready])
        del remaining[ready]
        for deps in remaining.values():
            deps.discard(ready)
    return ordered


def render_plan(steps: Sequence[PlanStep]) -> str:
    lines = [
        f"{_MARKS[step.status]} {step.id}: {step.title}"
        + (f" (after {', '.join(step.depends_on)})" if step.depends_on else "")
        for step in steps
    ]
    upcoming = next_steps(steps)
    if upcoming:
        lines.append("Ready next: " + ", ".join(step.id for step in upcoming))
    elif steps and all(step.status in FINISHED for step in steps):
        lines.append("All steps are finished.")
    return "\n".join(lines)


def next_steps(steps: Sequence[PlanStep]) -> list[PlanStep]:
    status = {step.id: step.status for step in steps}
    return [
        step for step in steps if step.status == "pending" and all(status[dep] in FINISHED for dep in step.depends_on)
    ]


def current_plan(ctx: ToolContext) -> list[PlanStep]:
    plan: list[PlanStep] = ctx.state.get(PLAN_STATE_KEY, [])
    return plan


async def _publish(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
    steps = [
        PlanStep(
            id=raw["id"].strip(), title=raw["title"].strip(), depends_on=[d.strip() for d in raw.get("depends_on", [])]
        )
        for raw in arguments["steps"]
    ]
    try:
        ordered = order_plan(steps)
    except PlanError as exc:
        raise ToolError(str(exc), "fix the steps' ids and depends_on, then call publish_plan again") from exc
    ctx.state[PLAN_STATE_KEY] = ordered
    await ctx.sink.plan_updated(copy.deepcopy(ordered))
    return ToolOutput(
        text="Plan published, in the order to follow:\n"
        + render_plan(ordered)
        + "\nReport progress with update_plan (running when you start a step, done when it is finished)."
    )


async def _update(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
    plan = current_plan(ctx)
    if not plan:
        raise ToolError("no plan has been published in this turn", "call publish_plan first")
    by_id = {step.id: step for step in plan}
    step = by_id.get(arguments["step_id"].strip())
    if step is None:
        raise ToolError(f"there is no step {arguments['step_id']!r}", "use one of: " + ", ".join(by_id))
    status = arguments["status"]
    if status in ("running", "done"):
        waiting = [dep for dep in step.depends_on if by_id[dep].status not in FINISHED]
        if waiting:
            raise ToolError(
                f"step {step.id!r} depends on {', '.join(waiting)}, which is not finished yet",
                "finish the steps it depends on first (mark them done or skipped)",
            )
    step.status = status
    await ctx.sink.plan_updated(copy.deepcopy(plan))
    return ToolOutput(text=render_plan(plan))


def plan_tools() -> list[Tool]:
    return [
        Tool(
            name="publish_plan",
            description="Publish a plan of several steps; the user sees it as a checklist. Publishing again "
            "replaces it.",
            parameters=PUBLISH_SCHEMA,
            handler=_publish,
            read_only=True,
            source=SOURCE_AGENT,
        ),
        Tool(
            name="update_plan",
            description="Report progress on a plan step: running when you start it, done, failed or skipped.",
            parameters=UPDATE_SCHEMA,
            handler=_update,
            read_only=True,
            source=SOURCE_AGENT,
            offered_after="publish_plan",
        ),
    ]
