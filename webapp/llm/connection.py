"""Check that a model profile works: one tiny chat call, with the reason in words when it does not."""

from __future__ import annotations

import time
from dataclasses import dataclass

import openai
from openai.types.chat import ChatCompletion

from agents.llm.config import ModelConfig
from agents.llm.egress import EgressRefusedError, guarded_client, url_problem


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


def connection_check(config: ModelConfig, *, timeout_s: float = 20.0) -> ConnectionCheck:
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
        reply = client.chat.completions.create(
            model=config.model, messages=[{"role": "user", "content": "Reply with the word: ok"}], max_tokens=5
        )
    except openai.AuthenticationError:
        detail = "The service refused the API key (401)."
    except openai.NotFoundError:
        detail = "The service does not know this model or URL (404). Check the model name and base URL."
    except openai.APIStatusError as exc:
        detail = f"The service answered {exc.status_code}: {exc.message}"
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
        text = (reply.choices[0].message.content or "").strip() if reply.choices else ""
        latency = int((time.monotonic() - started) * 1000)
        return ConnectionCheck(True, f"Connected to {config.model}: it answered {text[:40]!r}.", latency)
    finally:
        client.close()
    return ConnectionCheck(False, detail, int((time.monotonic() - started) * 1000))
