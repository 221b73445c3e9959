"""The tool registry (validation before execution, failures as error + suggestion) and plans (topological order,
cycles rejected)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.events import PlanStep
from agents.tools import PlanError, Tool, ToolContext, ToolError, ToolOutput, ToolRegistry, browser_tools, order_plan
from agents.tools.plan import find_cycle
from browser_pool.actions import ACTIONS
from tests.agents.support import NoBrowser, RecordingSink

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}


def tool(name: str, handler: Any = None) -> Tool:
    async def ok(arguments: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        return ToolOutput(text=f"n={arguments['n']}")

    return Tool(name, "A test tool.", SCHEMA, handler or ok)


def context() -> ToolContext:
    return ToolContext(tabs=NoBrowser(), sink=RecordingSink(), uploads={}, action_timeout_ms=1000)


def test_every_browser_action_is_its_own_tool_with_its_schema() -> None:
    tools = {t.name: t for t in browser_tools()}
    assert set(tools) == set(ACTIONS)
    assert tools["click"].parameters == ACTIONS["click"].schema
    assert not tools["click"].read_only
    assert tools["get_elements"].read_only
    assert tools["get_elements"].source == "browser"


def test_the_registry_refuses_clashing_names_and_bad_schemas() -> None:
    with pytest.raises(ValueError, match="two tools are named 'a'"):
        ToolRegistry([tool("a"), tool("a")])
    with pytest.raises(Exception, match="is not valid"):
        ToolRegistry([Tool("b", "bad", {"type": "nonsense"}, tool("x").handler)])


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("name", "arguments", "error", "suggestion"),
    [
        ("count", {"n": 0}, "invalid arguments for count: n: 0 is less than the minimum of 1", "n (integer, required)"),
        ("count", {}, "'n' is a required property", "call count again"),
        ("nope", {}, "there is no tool named 'nope'", "use one of: count"),
    ],
)
async def test_arguments_are_checked_before_anything_runs(
    name: str, arguments: dict[str, Any], error: str, suggestion: str
) -> None:
    ran: list[dict[str, Any]] = []

    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        ran.append(args)
        return ToolOutput()

    output = await ToolRegistry([tool("count", handler)]).run(name, arguments, context())
    assert ran == []
    assert not output.ok
    assert error in output.error
    assert suggestion in output.suggestion


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("failure", "error", "suggestion"),
    [
        (ToolError("the shop is closed", "come back tomorrow"), "the shop is closed", "come back tomorrow"),
        (ToolError("no suggestion given"), "no suggestion given", "try once more"),
        (KeyError("total"), "count failed: KeyError: 'total'", "try once more"),
    ],
)
async def test_a_failing_tool_becomes_an_error_with_a_suggestion(
    failure: Exception, error: str, suggestion: str
) -> None:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        raise failure

    output = await ToolRegistry([tool("count", handler)]).run("count", {"n": 1}, context())
    assert not output.ok
    assert output.error == error
    assert suggestion in output.suggestion
    assert output.for_model().startswith(f"Error: {error}\nSuggestion: ")


# -- plans -----------------------------------------------------------------------------------------------------


def steps(edges: dict[str, list[str]]) -> list[PlanStep]:
    return [PlanStep(id=i, title=f"step {i}", depends_on=deps) for i, deps in edges.items()]


def test_a_plan_is_ordered_by_its_dependencies_keeping_the_models_order_otherwise() -> None:
    ordered = order_plan(steps({"pay": ["cart"], "search": [], "cart": ["search"], "mail": []}))
    assert [s.id for s in ordered] == ["search", "cart", "pay", "mail"]


@pytest.mark.parametrize(
    ("edges", "message"),
    [
        ({"a": ["b"], "b": ["c"], "c": ["a"]}, "cycle: a → b → c → a"),
        ({"a": ["a"]}, "cycle: a → a"),
        ({"a": [], "b": ["zzz"]}, r"depends on unknown step\(s\): zzz"),
    ],
)
def test_impossible_plans_are_rejected_with_the_reason(edges: dict[str, list[str]], message: str) -> None:
    with pytest.raises(PlanError, match=message):
        order_plan(steps(edges))


def test_duplicate_step_ids_are_rejected() -> None:
    with pytest.raises(PlanError, match="repeated: a"):
        order_plan([PlanStep("a", "one"), PlanStep("a", "two")])


@st.composite
def dags(draw: st.DrawFn) -> list[PlanStep]:
    """Random DAGs: a step may only depend on steps created before it; then the list is shuffled."""
    count = draw(st.integers(1, 12))
    ids = [f"s{n}" for n in range(count)]
    built = [
        PlanStep(ids[n], f"step {n}", draw(st.lists(st.sampled_from(ids[:n]), unique=True)) if n else [])
        for n in range(count)
    ]
    return draw(st.permutations(built))


@settings(max_examples=150, deadline=None)
@given(dags())
def test_any_dag_is_ordered_topologically(plan: list[PlanStep]) -> None:
    ordered = order_plan(plan)
    position = {step.id: n for n, step in enumerate(ordered)}
    assert sorted(position) == sorted(step.id for step in plan)
    assert all(position[dep] < position[step.id] for step in plan for dep in step.depends_on)


@settings(max_examples=150, deadline=None)
@given(dags(), st.data())
def test_any_cycle_is_rejected_and_named(plan: list[PlanStep], data: st.DataObject) -> None:
    ordered = order_plan(plan)
    # Close a cycle: make an early step depend on a later one that (transitively) depends on it, or itself.
    late = data.draw(st.sampled_from(ordered))
    reachable = {late.id}
    changed = True
    while changed:
        changed = False
        for step in plan:
            if step.id not in reachable and any(dep in reachable for dep in step.depends_on):
                reachable.add(step.id)
                changed = True
    for step in plan:
        if step.id == late.id:
            step.depends_on = [*step.depends_on, data.draw(st.sampled_from(sorted(reachable)))]
    cycle = find_cycle(plan)
    assert cycle is not None
    assert cycle[0] == cycle[-1]
    depends = {step.id: step.depends_on for step in plan}
    assert all(b in depends[a] for a, b in zip(cycle, cycle[1:], strict=False))
    with pytest.raises(PlanError, match="cycle"):
        order_plan(plan)
