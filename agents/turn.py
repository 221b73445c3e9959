"""A plain chat turn without tools or browser, kept until the worker calls `agents.loop.run_agent_turn`."""

from __future__ import annotations

from collections.abc import Sequence

from agents.events import EventSink
from agents.llm import LLMClient, ModelConfig
from agents.loop import TurnResult
from agents.prompts import SYSTEM_PROMPT


def build_messages(history: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM_PROMPT}, *({"role": r, "content": c} for r, c in history)]


async def run_chat_turn(*, model: ModelConfig, history: Sequence[tuple[str, str]], sink: EventSink) -> TurnResult:
    client = LLMClient(model)
    try:
        result = await client.stream_chat(build_messages(history), on_delta=sink.text_delta)
    finally:
        await client.close()
    return TurnResult(reply=result.content, usage=result.usage)
