"""Route a streamed reply's text: what the user sees now, what is reasoning, what is held back.

- A reply that opens with `<think>` (reasoning models served through Ollama or vLLM) has its thinking
  routed to `reasoning` and never shown as the answer.
- In fenced-JSON mode, text from the first ``` fence on is held back: it is either a tool call (never shown)
  or part of the final answer (sent once the reply is complete and known to hold no call).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

TextCallback = Callable[[str], Awaitable[None]]

_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
_FENCE = "```"


class ReplyStream:
    def __init__(self, on_text: TextCallback | None, *, hold_fences: bool) -> None:
        self._on_text = on_text
        self._hold_fences = hold_fences
        self._mode = "start"  # start -> (think ->) text -> held
        self._pending = ""
        self._shown: list[str] = []
        self._held: list[str] = []
        self._reasoning: list[str] = []

    @property
    def emitted(self) -> bool:
        """Whether the user has seen any of this reply (after which a retry would repeat text)."""
        return bool(self._shown)

    @property
    def content(self) -> str:
        """The reply's text without its `<think>` part: what was shown, what is pending and what is held."""
        pending = self._pending if self._mode in ("text", "start") else ""
        return "".join(self._shown) + pending + "".join(self._held)

    @property
    def held(self) -> str:
        return "".join(self._held)

    @property
    def reasoning(self) -> str:
        return "".join(self._reasoning).strip()

    def add_reasoning(self, text: str) -> None:
        """Reasoning sent in its own field (`reasoning_content`, `reasoning`)."""
        self._reasoning.append(text)

    async def feed(self, text: str) -> None:
        self._pending += text
        if self._mode == "start":
            head = self._pending.lstrip()
            if head.startswith(_THINK_OPEN):
                self._mode, self._pending = "think", head[len(_THINK_OPEN) :]
            elif head and not _THINK_OPEN.startswith(head):
                self._mode = "text"
            else:
                return
        if self._mode == "think":
            end = self._pending.find(_THINK_CLOSE)
            if end < 0:
                keep = len(_THINK_CLOSE) - 1  # a closing tag may be split across chunks
                self._reasoning.append(self._pending[:-keep] if len(self._pending) > keep else "")
                self._pending = self._pending[-keep:] if len(self._pending) > keep else self._pending
                return
            self._reasoning.append(self._pending[:end])
            self._mode, self._pending = "text", self._pending[end + len(_THINK_CLOSE) :].lstrip("\n")
        if self._mode == "text":
            await self._route_text()
        elif self._mode == "held":
            self._held.append(self._pending)
            self._pending = ""

    async def _route_text(self) -> None:
        if not self._hold_fences:
            await self._show(self._pending)
            self._pending = ""
            return
        fence = self._pending.find(_FENCE)
        if fence >= 0:
            await self._show(self._pending[:fence])
            self._held.append(self._pending[fence:])
            self._mode, self._pending = "held", ""
            return
        # A fence may be split across chunks: keep trailing backticks until the next piece decides.
        cut = len(self._pending.rstrip("`"))
        await self._show(self._pending[:cut])
        self._pending = self._pending[cut:]

    async def _show(self, text: str) -> None:
        if not text:
            return
        self._shown.append(text)
        if self._on_text is not None:
            await self._on_text(text)

    async def finish(self) -> None:
        """The reply is complete: settle what was still undecided (never the held part)."""
        if self._mode == "think":
            self._reasoning.append(self._pending)
        elif self._mode in ("start", "text"):
            await self._show(self._pending)
        self._pending = ""

    async def release_held(self) -> None:
        """Show the held-back text: it turned out to be part of the answer."""
        held, self._held = "".join(self._held), []
        await self._show(held)
