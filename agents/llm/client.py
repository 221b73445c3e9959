"""Chat with any OpenAI-compatible endpoint through the `openai` SDK, streaming the reply."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openai

from agents.llm.config import ModelConfig

log = logging.getLogger(__name__)

DeltaCallback = Callable[[str], Awaitable[None]]


class LLMError(Exception):
    """The model service failed in a way worth telling the user about."""


@dataclass(slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


@dataclass(slots=True)
class ChatResult:
    content: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = ""


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError | openai.RateLimitError):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def _describe(exc: Exception) -> str:
    if isinstance(exc, openai.AuthenticationError):
        return "The model service refused the API key (401). Check the key in your model profile."
    if isinstance(exc, openai.NotFoundError):
        return "The model service does not know this model or URL (404). Check the model name and base URL."
    if isinstance(exc, openai.APIStatusError):
        return f"The model service answered {exc.status_code}: {exc.message}"
    if isinstance(exc, openai.APITimeoutError):
        return "The model service did not answer in time."
    if isinstance(exc, openai.APIConnectionError):
        return "Could not reach the model service. Check its base URL."
    return f"The model call failed: {exc}"


class LLMClient:
    """One model endpoint. Retries timeouts, 429 and 5xx with exponential backoff before any text arrives."""

    def __init__(self, config: ModelConfig, *, backoff_base_s: float = 0.5) -> None:
        self.config = config
        self.backoff_base_s = backoff_base_s
        self._client = openai.AsyncOpenAI(
            base_url=config.base_url,
            api_key=config.api_key or "not-needed",
            timeout=config.timeout_s,
            max_retries=0,
        )

    async def close(self) -> None:
        await self._client.close()

    async def stream_chat(
        self, messages: Sequence[dict[str, Any]], *, on_delta: DeltaCallback | None = None
    ) -> ChatResult:
        attempt = 0
        while True:
            emitted = False

            async def forward(delta: str) -> None:
                nonlocal emitted
                emitted = True
                if on_delta is not None:
                    await on_delta(delta)

            try:
                return await self._stream_once(messages, forward)
            except openai.OpenAIError as exc:
                attempt += 1
                if emitted or not _retryable(exc) or attempt > self.config.max_retries:
                    raise LLMError(_describe(exc)) from exc
                delay = self.backoff_base_s * (2 ** (attempt - 1)) * (1 + random.random() / 4)
                log.warning("model call failed (%s); retry %d in %.2fs", exc, attempt, delay)
                await asyncio.sleep(delay)

    async def _stream_once(self, messages: Sequence[dict[str, Any]], on_delta: DeltaCallback) -> ChatResult:
        stream = await self._client.chat.completions.create(
            model=self.config.model,
            messages=list(messages),  # type: ignore[arg-type]
            stream=True,
            stream_options={"include_usage": True},
        )
        parts: list[str] = []
        usage = Usage()
        finish_reason = ""
        async for chunk in stream:
            if chunk.usage is not None:
                usage = Usage(chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0)
            for choice in chunk.choices:
                if choice.finish_reason:
                    finish_reason = choice.finish_reason
                text = choice.delta.content if choice.delta else None
                if text:
                    parts.append(text)
                    await on_delta(text)
        return ChatResult(content="".join(parts), usage=usage, finish_reason=finish_reason)
