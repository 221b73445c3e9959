"""Check that a model profile works: one tiny chat call, saying what came back, or the reason in words when it does
not. A profile with tool calling on is offered one tool, so the check also shows whether the service takes tools."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agents.llm.config import ModelConfig
from agents.llm.egress import EgressRefusedError, guarded_client, url_problem

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolParam


@dataclass(frozen=True, slots=True)
class ConnectionCheck:
    ok: bool
    detail: str
    latency_ms: int


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


# Offered to a profile with tool calling on: a service that cannot take tools refuses the request, one that can may
# call it (which is as good an answer as the word).
CHECK_TOOL: ChatCompletionToolParam = {
    "type": "function",
    "function": {
        "name": "say_ok",
        "description": "Say that you are reachable.",
        "parameters": {"type": "object", "properties": {}},
    },
}
TOOLS_REFUSED_HINT = " Tool calling is on for this profile: if the service cannot take tools, turn it off."


def answer_detail(model: str, reply: ChatCompletion) -> str:
    """What came back, in words: the text the model answered, or that it called the tool."""
    message = reply.choices[0].message if reply.choices else None
    if message is not None and message.tool_calls:
        return f"Connected to {model}: it answered with a tool call — tool calling works."
    text = " ".join((message.content or "").split()) if message is not None else ""
    if not text:
        return f"Connected to {model}, but its answer was empty."
    shown = text if len(text) <= 60 else text[:59] + "…"
    return f"Connected to {model}: it answered “{shown}”."


def connection_check(config: ModelConfig, *, timeout_s: float = 20.0) -> ConnectionCheck:
    # The SDK loads with the first check, not with the web server: it is a second and 40 MB that nothing else in
    # the web process needs.
    import openai
    from openai.types.chat import ChatCompletion

    problem = url_problem(config.base_url)
    if problem is not None:
        return ConnectionCheck(False, f"Not connected: {problem}.", 0)
    client = openai.OpenAI(
        base_url=config.base_url,
        api_key=config.api_key or "not-needed",
        timeout=timeout_s,
        max_retries=0,
        http_client=guarded_client(config.egress, timeout_s=timeout_s) if config.egress else None,
    )
    started = time.monotonic()
    try:
        messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Reply with the word: ok"}]
        if config.uses_tool_calling:
            reply = client.chat.completions.create(
                model=config.model, messages=messages, max_tokens=20, tools=[CHECK_TOOL]
            )
        else:
            reply = client.chat.completions.create(model=config.model, messages=messages, max_tokens=20)
    except openai.AuthenticationError:
        detail = "The service refused the API key (401)."
    except openai.NotFoundError:
        detail = "The service does not know this model or URL (404). Check the model name and base URL."
    except openai.APIStatusError as exc:
        detail = f"The service answered {exc.status_code}: {exc.message}"
        if exc.status_code == 400 and config.uses_tool_calling:
            detail += TOOLS_REFUSED_HINT
    except openai.APITimeoutError:
        detail = f"No answer within {timeout_s:.0f} s."
    except openai.APIConnectionError as exc:
        refused = next((str(e) for e in _causes(exc) if isinstance(e, EgressRefusedError)), "")
        detail = refused or "Could not connect. Check the base URL (it usually ends in /v1)."
    except openai.OpenAIError as exc:
        detail = f"The service's answer could not be read: {exc.__class__.__name__}."
    else:
        if not isinstance(reply, ChatCompletion):  # e.g. a plain-text page where an API was expected
            return ConnectionCheck(
                False,
                "The service answered, but not as an OpenAI-compatible API. Check the base URL.",
                int((time.monotonic() - started) * 1000),
            )
        return ConnectionCheck(True, answer_detail(config.model, reply), int((time.monotonic() - started) * 1000))
    finally:
        client.close()
    return ConnectionCheck(False, detail, int((time.monotonic() - started) * 1000))
