"""A turn's conversation, kept model-neutral and rendered per model: native tool messages or fenced JSON, with or
without screenshots, each provider's quirks applied. Reasoning (`reasoning_content`) is never sent back: DeepSeek
rejects it and no provider needs it. A fallback model with other capabilities can take over
mid-turn because nothing is stored in one model's format."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.llm.config import ModelConfig
from agents.llm.messages import ChatMessage
from agents.llm.toolcalls import ToolCall
from agents.prompts import PAGE_CONTEXT_INTRO, RESULTS_INTRO, SCREENSHOT_INTRO

HISTORY_ROLES = frozenset({"user", "assistant", "system"})


@dataclass(slots=True)
class ToolResult:
    call: ToolCall
    text: str
    image: bytes | None = None
    # What the model keeps of it once it is no longer among the last few steps (None: the text, it is short).
    summary: str | None = None


@dataclass(slots=True)
class Exchange:
    """One model reply that called tools, and what the calls returned."""

    text: str  # what the model wrote next to the calls
    raw: str  # the reply as written (in fenced mode it holds the JSON block)
    calls: list[ToolCall]
    results: list[ToolResult] = field(default_factory=list)


@dataclass(slots=True)
class Note:
    """The agent runtime speaking to the model (limits, parse errors), sent as a user message."""

    text: str


def image_part(image: bytes) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + base64.b64encode(image).decode()}}


@dataclass(slots=True)
class Transcript:
    history: Sequence[tuple[str, str]]
    context_messages: Sequence[ChatMessage] = ()
    page_context: str = ""
    entries: list[Exchange | Note] = field(default_factory=list)
    keep_full_observations: int = 4

    def render(self, model: ModelConfig, system_prompt: str) -> list[ChatMessage]:
        messages: list[ChatMessage] = [{"role": "system", "content": system_prompt}]
        messages += self._opening()
        native = model.uses_tool_calling
        full_from = self._full_from()
        last_image = self._last_image_index() if model.sees_images else None
        for position, entry in enumerate(self.entries):
            if isinstance(entry, Note):
                messages.append({"role": "user", "content": entry.text})
                continue
            shorten = position < full_from
            image = self._image_of(entry) if position == last_image else None
            if native:
                messages += self._native(entry, model, shorten, image)
            else:
                messages += self._fenced(entry, shorten, image)
        return messages

    def _opening(self) -> list[ChatMessage]:
        history = [{"role": role, "content": content} for role, content in self.history if role in HISTORY_ROLES]
        last_user = max((n for n, m in enumerate(history) if m["role"] == "user"), default=len(history))
        # Shared-tab context and the page go right before the request they serve, so the user's request stays
        # the last thing the model reads before it answers.
        page = [{"role": "user", "content": f"{PAGE_CONTEXT_INTRO}\n{self.page_context}"}] if self.page_context else []
        return [*history[:last_user], *self.context_messages, *page, *history[last_user:]]

    def _full_from(self) -> int:
        """Index of the first exchange whose results are sent in full (the last few are; older ones as summaries)."""
        exchanges = [n for n, entry in enumerate(self.entries) if isinstance(entry, Exchange) and entry.results]
        if len(exchanges) <= self.keep_full_observations:
            return 0
        return exchanges[-self.keep_full_observations] if self.keep_full_observations else len(self.entries)

    def _last_image_index(self) -> int | None:
        for position in range(len(self.entries) - 1, -1, -1):
            entry = self.entries[position]
            if isinstance(entry, Exchange) and self._image_of(entry) is not None:
                return position
        return None

    @staticmethod
    def _image_of(entry: Exchange) -> bytes | None:
        return next((result.image for result in reversed(entry.results) if result.image is not None), None)

    @staticmethod
    def _result_text(result: ToolResult, shorten: bool) -> str:
        return result.summary if shorten and result.summary is not None else result.text

    def _native(self, entry: Exchange, model: ModelConfig, shorten: bool, image: bytes | None) -> list[ChatMessage]:
        if not entry.calls:  # a fenced reply that could not be read, replayed to a model with function calling
            return [{"role": "assistant", "content": entry.raw or entry.text}]
        out: list[ChatMessage] = [
            {
                "role": "assistant",
                "content": entry.text or None,
                "tool_calls": [call.as_message_part() for call in entry.calls],
            }
        ]
        for result in entry.results:
            message = {"role": "tool", "tool_call_id": result.call.id, "content": self._result_text(result, shorten)}
            if model.quirks.tool_message_name:
                message["name"] = result.call.name
            out.append(message)
        if image is not None:
            out.append({"role": "user", "content": [{"type": "text", "text": SCREENSHOT_INTRO}, image_part(image)]})
        return out

    def _fenced(self, entry: Exchange, shorten: bool, image: bytes | None) -> list[ChatMessage]:
        out: list[ChatMessage] = [{"role": "assistant", "content": entry.raw}]
        if not entry.results:
            return out
        blocks = [
            f"### {n}. {result.call.name}\n{self._result_text(result, shorten)}"
            for n, result in enumerate(entry.results, start=1)
        ]
        text = RESULTS_INTRO + "\n\n" + "\n\n".join(blocks)
        if image is None:
            out.append({"role": "user", "content": text})
        else:
            parts = [{"type": "text", "text": text}, {"type": "text", "text": SCREENSHOT_INTRO}, image_part(image)]
            out.append({"role": "user", "content": parts})
        return out
