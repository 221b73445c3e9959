"""The agent: LLM adapter, ReAct loop, tools, safety policy, prompts. A plain async library: it never imports Django.

Entry point: `run_agent_turn(config=AgentConfig(...), history=..., tabs=session, sink=sink)`.

The names below load on first use, so the web process can import `agents.llm.config` or `agents.events`
without pulling in Playwright and the loop.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "AgentConfig": "agents.config",
    "ConfirmationRequest": "agents.events",
    "EventSink": "agents.events",
    "PlanStep": "agents.events",
    "SafetyLevel": "agents.events",
    "LLMError": "agents.llm",
    "ModelConfig": "agents.llm",
    "NoModelConfiguredError": "agents.llm",
    "Usage": "agents.llm",
    "TurnLLMError": "agents.loop",
    "TurnResult": "agents.loop",
    "run_agent_turn": "agents.loop",
    "SafetyConfig": "agents.safety",
    "SafetyDecision": "agents.safety",
    "SafetyPolicy": "agents.safety",
    "Tool": "agents.tools",
    "ToolContext": "agents.tools",
    "ToolError": "agents.tools",
    "ToolOutput": "agents.tools",
}

__all__ = [
    "AgentConfig",
    "ConfirmationRequest",
    "EventSink",
    "LLMError",
    "ModelConfig",
    "NoModelConfiguredError",
    "PlanStep",
    "SafetyConfig",
    "SafetyDecision",
    "SafetyLevel",
    "SafetyPolicy",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolOutput",
    "TurnLLMError",
    "TurnResult",
    "Usage",
    "run_agent_turn",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


if TYPE_CHECKING:
    from agents.config import AgentConfig
    from agents.events import ConfirmationRequest, EventSink, PlanStep, SafetyLevel
    from agents.llm import LLMError, ModelConfig, NoModelConfiguredError, Usage
    from agents.loop import TurnLLMError, TurnResult, run_agent_turn
    from agents.safety import SafetyConfig, SafetyDecision, SafetyPolicy
    from agents.tools import Tool, ToolContext, ToolError, ToolOutput
