"""What a model call gives back (and how it fails), apart from the client: these load without the `openai` SDK."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.llm.stream import ReplyStream
from agents.llm.toolcalls import ToolCall


class LLMError(Exception):
    """The model service failed in a way worth telling the user about; the message says which model and why."""

    def __init__(self, message: str, *, retryable: bool = False, emitted: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
        # Text of the failed reply already reached the user, so trying another model would repeat it.
        self.emitted = emitted


@dataclass(slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # The part of prompt_tokens the service read from its prompt cache (billed lower by those that report it).
    cached_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cached_tokens += other.cached_tokens


@dataclass(slots=True)
class ChatResult:
    content: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    reasoning: str = ""
    # In fenced mode: the text from the first ``` on, not shown yet (a tool call, or the end of the answer).
    held: str = ""
    stream: ReplyStream | None = None
