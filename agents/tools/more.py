"""The rarer tools behind one entry: a request carries every tool it offers, so tabs, drag and drop, JavaScript,
screenshots and element details wait behind `more_tools` until the model asks for them, keeping requests short.
They run when called either way; asking only adds them to what every later request offers."""

from __future__ import annotations

from agents.tools.base import SOURCE_AGENT, Tool, ToolContext, ToolOutput, ToolRegistry
from browser_pool.types import JsonObject


def more_tools(registry: ToolRegistry) -> Tool:
    names = registry.deferred

    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        shown = registry.reveal()
        if not shown:
            return ToolOutput(text="Every tool is already offered.")
        return ToolOutput(text="Now offered as well:\n" + "\n".join(f"- {t.name}: {t.description}" for t in shown))

    return Tool(
        name="more_tools",
        description="Offer the rarer tools too: " + ", ".join(names) + ".",
        parameters={"type": "object", "properties": {}, "additionalProperties": False},
        handler=run,
        read_only=True,
        source=SOURCE_AGENT,
    )
