"""Check that a model profile works: one tiny chat call, with the reason in words when it does not."""

from __future__ import annotations

import time
from dataclasses import dataclass

import openai

from agents.llm.config import ModelConfig


@dataclass(frozen=True, slots=True)
class ConnectionCheck:
    ok: bool
    detail: str
    latency_ms: int


def connection_check(config: ModelConfig, *, timeout_s: float = 20.0) -> ConnectionCheck:
    client = openai.OpenAI(
        base_url=config.base_url, api_key=config.api_key or "not-needed", timeout=timeout_s, max_retries=0
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
    except openai.APIConnectionError:
        detail = "Could not connect. Check the base URL (it usually ends in /v1)."
    else:
        text = (reply.choices[0].message.content or "").strip() if reply.choices else ""
        latency = int((time.monotonic() - started) * 1000)
        return ConnectionCheck(True, f"Connected to {config.model}: it answered {text[:40]!r}.", latency)
    finally:
        client.close()
    return ConnectionCheck(False, detail, int((time.monotonic() - started) * 1000))
