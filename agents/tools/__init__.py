"""The agent's tools. Later sources (page content, memory, WebMCP, SKILLs) add `Tool`s through
`run_agent_turn(..., extra_tools=[...])`."""

from agents.tools.base import (
    SOURCE_AGENT,
    SOURCE_BROWSER,
    Tool,
    ToolContext,
    ToolError,
    ToolHandler,
    ToolOutput,
    ToolRegistry,
)
from agents.tools.browser import browser_tools
from agents.tools.plan import PlanError, order_plan, plan_tools

__all__ = [
    "SOURCE_AGENT",
    "SOURCE_BROWSER",
    "PlanError",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolHandler",
    "ToolOutput",
    "ToolRegistry",
    "browser_tools",
    "order_plan",
    "plan_tools",
]
