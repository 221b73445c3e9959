"""Chat with any OpenAI-compatible endpoint through the `openai` SDK: streamed text, streamed tool calls, retries."""

from __future__ import annotations

import asyncio
import importlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import openai

from agents.llm.config import ModelConfig
from agents.llm.egress import EgressRefusedError, guarded_async_client
from agents.llm.messages import ChatMessage, FunctionTool
from agents.llm.results import ChatResult, LLMError, Usage
from agents.llm.stream import ReplyStream
from agents.llm.toolcalls import ToolCallAccumulator

log = logging.getLogger(__name__)

DeltaCallback = Callable[[str], Awaitable[None]]
# (request payload, response summary, duration in ms) for every attempt, failed ones included.
CallCallback = Callable[[dict[str, Any], dict[str, Any], int], Awaitable[None]]

# A server's Retry-After is honoured up to this long; beyond it the backoff decides.
MAX_RETRY_AFTER_S = 10.0


def _http_errors(name: str) -> tuple[type[Exception], ...]:
    """The SDK's HTTP library raises its own errors when a stream breaks mid-way (openai 3 uses httpx2, 1.x
    httpx); both are caught so either SDK generation works."""
    found: list[type[Exception]] = []
    for module_name in ("httpx2", "httpx"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        found.append(getattr(module, name))
    return tuple(found)


_HTTP_ERRORS = _http_errors("HTTPError")
_HTTP_TIMEOUTS = _http_errors("TimeoutException")
_HTTP_TRANSPORT = _http_errors("TransportError")
_MODEL_ERRORS: tuple[type[Exception], ...] = (openai.OpenAIError, *_HTTP_ERRORS)


def _firewall_refusal(exc: BaseException) -> str:
    """The network firewall's reason when it refused the connection (somewhere in the exception's causes)."""
    current: BaseException | None = exc
    for _ in range(10):
        if current is None:
            break
        if isinstance(current, EgressRefusedError):
            return str(current)
        current = current.__cause__ or current.__context__
    return ""


def _retryable(exc: Exception) -> bool:
    if _firewall_refusal(exc):
        return False  # the address will not become public by asking again
    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError | openai.RateLimitError):
        return True
    if isinstance(exc, _HTTP_TIMEOUTS + _HTTP_TRANSPORT):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def _server_message(exc: openai.APIStatusError) -> str:
    """The service's own words (the SDK's message repeats the status code in front of them)."""
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error")
        message = body.get("message") or (error.get("message") if isinstance(error, dict) else error)
        if isinstance(message, str) and message.strip():
            return message.strip()
    return exc.message


def _describe(exc: Exception) -> str:
    if isinstance(exc, openai.AuthenticationError):
        return "the service refused the API key (401); check the key in the model profile"
    if isinstance(exc, openai.NotFoundError):
        return "the service does not know this model or URL (404); check the model name and base URL"
    if isinstance(exc, openai.RateLimitError):
        return f"the service is rate limiting requests (429): {_server_message(exc)}"
    if isinstance(exc, openai.APIStatusError):
        return f"the service answered {exc.status_code}: {_server_message(exc)}"
    if isinstance(exc, (openai.APITimeoutError, *_HTTP_TIMEOUTS)):
        return "the service did not answer in time"
    if isinstance(exc, (openai.APIConnectionError, *_HTTP_TRANSPORT)):
        return _firewall_refusal(exc) or "could not reach the service; check its base URL"
    return f"the call failed: {exc}"


def _retry_after(exc: Exception) -> float | None:
    if not isinstance(exc, openai.APIStatusError):
        return None
    value = exc.response.headers.get("retry-after")
    try:
        return min(float(value), MAX_RETRY_AFTER_S) if value else None
    except ValueError:
        return None


def _usage_of(reported: Any) -> Usage:
    """The SDK's usage object as reported. Cached prompt tokens: OpenAI (and Qwen, GLM) in
    `prompt_tokens_details.cached_tokens`, DeepSeek as `prompt_cache_hit_tokens`, Moonshot as `cached_tokens`."""
    details = getattr(reported, "prompt_tokens_details", None)
    extra = getattr(reported, "model_extra", None) or {}
    cached = (
        getattr(details, "cached_tokens", None) or extra.get("prompt_cache_hit_tokens") or extra.get("cached_tokens")
    )
    return Usage(reported.prompt_tokens or 0, reported.completion_tokens or 0, int(cached or 0))


def _reasoning_piece(delta: Any) -> str:
    """DeepSeek and Qwen stream `reasoning_content`; Ollama and others `reasoning`. Neither is in the SDK's types."""
    extra = getattr(delta, "model_extra", None) or {}
    for key in ("reasoning_content", "reasoning"):
        value = extra.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


class LLMClient:
    """One model endpoint. Retries timeouts, 429 and 5xx with exponential backoff, as long as nothing was shown."""

    def __init__(self, config: ModelConfig, *, backoff_base_s: float = 0.5) -> None:
        self.config = config
        self.backoff_base_s = backoff_base_s
        self._client = openai.AsyncOpenAI(
            base_url=config.endpoint,
            api_key=config.api_key or "not-needed",
            timeout=config.timeout_s,
            max_retries=0,
            http_client=guarded_async_client(config.egress, timeout_s=config.timeout_s) if config.egress else None,
        )

    async def close(self) -> None:
        await self._client.close()

    def payload(self, messages: Sequence[ChatMessage], tools: Sequence[FunctionTool] | None) -> dict[str, Any]:
        """The exact request body (besides the SDK's own headers)."""
        quirks = self.config.quirks
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": list(messages),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if tools:
            body["tools"] = list(tools)
            if quirks.accepts_parallel_param:
                body["parallel_tool_calls"] = self.config.calls_tools_in_parallel
        body.update(quirks.extra_body)
        return body

    async def stream_chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[FunctionTool] | None = None,
        on_delta: DeltaCallback | None = None,
        on_call: CallCallback | None = None,
        hold_fences: bool = False,
    ) -> ChatResult:
        body = self.payload(messages, tools)
        attempt = 0
        while True:
            stream = ReplyStream(on_delta, hold_fences=hold_fences)
            started = time.monotonic()
            try:
                result = await self._stream_once(body, stream)
            except _MODEL_ERRORS as exc:
                attempt += 1
                if on_call is not None:
                    failed = {"error": _describe(exc), "attempt": attempt, **_call_facts(self.config, Usage())}
                    await on_call(body, failed, _ms_since(started))
                retryable = _retryable(exc)
                if stream.emitted or not retryable or attempt > self.config.max_retries:
                    raise LLMError(
                        f"{self.config.describe()}: {_describe(exc)}"
                        + (f" (after {attempt} attempts)" if attempt > 1 else ""),
                        retryable=retryable,
                        emitted=stream.emitted,
                    ) from exc
                delay = _retry_after(exc) or self.backoff_base_s * (2 ** (attempt - 1)) * (1 + random.random() / 4)
                log.warning("model call to %s failed (%s); retry %d in %.2fs", self.config.model, exc, attempt, delay)
                await asyncio.sleep(delay)
                continue
            if on_call is not None:
                await on_call(body, _response_summary(result, attempt + 1, self.config), _ms_since(started))
            return result

    async def _stream_once(self, body: dict[str, Any], stream: ReplyStream) -> ChatResult:
        response = await self._client.chat.completions.create(**body)
        calls = ToolCallAccumulator()
        usage = Usage()
        finish_reason = ""
        # Closing the stream on the way out (also on cancellation) frees the connection at once.
        async with response:
            async for chunk in response:
                if chunk.usage is not None:
                    usage = _usage_of(chunk.usage)
                for choice in chunk.choices or ():
                    if choice.finish_reason:
                        finish_reason = choice.finish_reason
                    delta = choice.delta
                    if delta is None:
                        continue
                    reasoning = _reasoning_piece(delta)
                    if reasoning:
                        stream.add_reasoning(reasoning)
                    for piece in delta.tool_calls or ():
                        function = piece.function
                        calls.add(
                            piece.index,
                            piece.id,
                            function.name if function else None,
                            function.arguments if function else None,
                        )
                    if delta.content:  # None from providers that send `content: null` next to tool calls
                        await stream.feed(delta.content)
        await stream.finish()
        return ChatResult(
            content=stream.content,
            usage=usage,
            finish_reason=finish_reason,
            tool_calls=calls.calls(id_prefix=f"call_{random.getrandbits(32):08x}"),
            reasoning=stream.reasoning,
            held=stream.held,
            stream=stream,
        )


def _ms_since(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _call_facts(config: ModelConfig, usage: Usage) -> dict[str, Any]:
    """Which model answered (a fallback may have taken over), the tokens the service reported, and what they cost
    in US dollars as a decimal string (None: the price is unknown). A failed attempt reported no tokens."""
    cost = config.cost(
        prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens, cached_tokens=usage.cached_tokens
    )
    return {
        "model": config.model,
        "provider": config.provider,
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "cached_tokens": usage.cached_tokens,
        },
        "cost_usd": None if cost is None else str(cost),
    }


def _response_summary(result: ChatResult, attempt: int, config: ModelConfig) -> dict[str, Any]:
    out: dict[str, Any] = {
        "content": result.content,
        "finish_reason": result.finish_reason,
        **_call_facts(config, result.usage),
        "attempt": attempt,
    }
    if result.tool_calls:
        out["tool_calls"] = [call.as_message_part() for call in result.tool_calls]
    if result.reasoning:
        out["reasoning"] = result.reasoning
    return out
