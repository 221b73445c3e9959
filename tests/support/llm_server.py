"""A scripted OpenAI-compatible model server for tests: real HTTP, streaming and not, tool calls.

Each test scripts it with a handler that reads the request (the messages, the tools) and decides the
answer from what it read, e.g. "click the element whose text is 'Submit' in the observation I got".
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agents.prompts import PAGE_CONTEXT_INTRO, RESULTS_INTRO, SCREENSHOT_INTRO
from agents.shared_tabs import HEADER as SHARED_TABS_HEADER


@dataclass
class Reply:
    content: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # [{"name": ..., "arguments": {...}}]
    status: int = 200
    error: str = ""
    delay_s: float = 0.0  # before the first byte
    chunk_delay_s: float = 0.0  # between streamed chunks
    chunk_size: int = 8
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # the part of prompt_tokens reported as read from the prompt cache, as OpenAI does
    reasoning: str = ""  # sent as `reasoning_content`, as DeepSeek and Qwen do


Handler = Callable[[dict[str, Any]], Reply]


# What the agent itself adds as user-role messages (page summary, tool results, shared tabs), not the user's words.
# What the agent adds as user messages besides the user's own words (the prompts' own openings, not retyped).
AGENT_ADDED = (PAGE_CONTEXT_INTRO, RESULTS_INTRO, SCREENSHOT_INTRO, SHARED_TABS_HEADER)


def last_user_text(request: dict[str, Any]) -> str:
    """The user's latest message, as they typed it."""
    for message in reversed(request.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, list):
            text = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        else:
            text = str(content or "")
        if not text.startswith(AGENT_ADDED):
            return text
    return ""


def echo_handler(request: dict[str, Any]) -> Reply:
    return Reply(content=f"You said: {last_user_text(request)}")


EMBEDDING_DIMENSIONS = 256


def embedding_of(text: str) -> list[float]:
    """A deterministic embedding for `/embeddings`: hashed bag of lower-cased words (each CJK character a word),
    normalised, so texts sharing words are similar and texts sharing none are orthogonal."""
    vector = [0.0] * EMBEDDING_DIMENSIONS
    for word in re.findall(r"[\u3040-\u30ff\u3400-\u9fff]|[^\W_]+", text.lower()):
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % EMBEDDING_DIMENSIONS] += 1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class ScriptedLLM:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        # `/embeddings` requests, kept apart so tests that count chat requests are unaffected.
        self.embedding_requests: list[dict[str, Any]] = []
        # The size in bytes of each chat request as the client sent it (compact JSON), in order.
        self.sent_bytes: list[int] = []
        self._handler: Handler = echo_handler
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, handler: Handler) -> None:
        with self._lock:
            self._handler = handler

    def reset(self) -> None:
        with self._lock:
            self._handler = echo_handler
            self.requests.clear()
            self.embedding_requests.clear()
            self.sent_bytes.clear()

    def _record(self, request: dict[str, Any]) -> Handler:
        with self._lock:
            self.requests.append(request)
            return self._handler

    def _embeddings(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.embedding_requests.append(request)
        texts = request.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        data = [{"object": "embedding", "index": i, "embedding": embedding_of(t)} for i, t in enumerate(texts)]
        tokens = sum(len(t.split()) for t in texts)
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        # Floats only: clients must ask for encoding_format "float" (the openai SDK's default is base64).
        return {"object": "list", "data": data, "model": request.get("model", "scripted"), "usage": usage}

    def start(self) -> None:
        owner = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                return

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                request = json.loads(body or b"{}")
                if self.path.rstrip("/").endswith("/chat/completions"):
                    owner.sent_bytes.append(len(body))  # each chat request's size as sent (bench/context_size.py)
                if self.path.rstrip("/").endswith("/embeddings"):
                    self._json(200, owner._embeddings(request))
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._json(404, {"error": {"message": f"unknown path {self.path}"}})
                    return
                reply = owner._record(request)(request)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.status != 200:
                    self._json(reply.status, {"error": {"message": reply.error or "scripted failure"}})
                    return
                try:
                    if request.get("stream"):
                        self._stream(request, reply)
                    else:
                        self._json(200, _completion(request, reply))
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client went away (an aborted turn)

            def _stream(self, request: dict[str, Any], reply: Reply) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for chunk in _chunks(request, reply):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                    if reply.chunk_delay_s:
                        time.sleep(reply.chunk_delay_s)
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-llm", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def _usage(reply: Reply) -> dict[str, Any]:
    completion = reply.completion_tokens or max(1, len(reply.content) // 4)
    prompt = reply.prompt_tokens or 10
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if reply.cached_tokens:
        usage["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
    return usage


def _tool_call_objects(reply: Reply) -> list[dict[str, Any]]:
    return [
        {
            "id": f"call_{uuid.uuid4().hex[:12]}",
            "type": "function",
            "function": {"name": call["name"], "arguments": json.dumps(call.get("arguments", {}))},
        }
        for call in reply.tool_calls
    ]


def _completion(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = _tool_call_objects(reply)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "scripted"),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
        "usage": _usage(reply),
    }


def _chunks(request: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
    base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion.chunk", "created": int(time.time())}
    base["model"] = request.get("model", "scripted")

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant", "content": ""})]
    if reply.reasoning:
        out.append(chunk({"reasoning_content": reply.reasoning}))
    text = reply.content
    out += [chunk({"content": text[i : i + reply.chunk_size]}) for i in range(0, len(text), reply.chunk_size)]
    for index, call in enumerate(_tool_call_objects(reply)):
        args = call["function"]["arguments"]
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"]}}
        out.append(chunk({"tool_calls": [{**head, "function": {**head["function"], "arguments": ""}}]}))
        out += [
            chunk({"tool_calls": [{"index": index, "function": {"arguments": args[i : i + 16]}}]})
            for i in range(0, len(args), 16)
        ]
    out.append(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
    if (request.get("stream_options") or {}).get("include_usage"):
        out.append({**base, "choices": [], "usage": _usage(reply)})
    return out
