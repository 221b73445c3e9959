"""What a run keeps beside its columns (`Run.metadata`), and the plan the agent publishes."""

from __future__ import annotations

from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before Python 3.12

from webapp.core.types import JsonObject


class SharedTabRef(TypedDict):
    """A tab the user shared with the message that started a turn (its content is read when the turn starts)."""

    id: str
    title: str
    url: str


class PlanStepPayload(TypedDict):
    """One step of the agent's plan (agents.events.PlanStep), as stored and sent in `plan.updated`."""

    id: str
    title: str
    depends_on: list[str]
    status: str


class RunMetadata(TypedDict, total=False):
    """`Run.metadata`: which keys a run has depends on its kind."""

    # a turn
    shared_tabs: list[SharedTabRef]
    plan: list[PlanStepPayload]
    # an action by hand (`action`), or a page's tool called by hand (`tool`)
    action: str
    tool: str
    arguments: JsonObject  # checked against the action's or the tool's schema where it runs
    source: str  # "mcp": an MCP client's call
    read_only: bool  # a tool called by an MCP client, as the tool declares it
    # a workflow's replay
    workflow: int
    version: int
    version_id: int
    parameters: dict[str, str]
    schedule: int  # started by this schedule
    confirmations: str  # a schedule's "wait" or "refuse"
    outputs: JsonObject  # what each extraction step returned, by its output name
