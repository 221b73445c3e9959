"""How the agent reports what it does. The worker injects a sink that persists and publishes."""

from __future__ import annotations

from typing import Any, Protocol


class EventSink(Protocol):
    async def text_delta(self, delta: str) -> None: ...

    async def step_started(self, *, kind: str, action: str = "", arguments: dict[str, Any] | None = None) -> int: ...

    async def step_finished(
        self,
        step_id: int,
        *,
        ok: bool,
        observation: str = "",
        error: str = "",
        duration_ms: int | None = None,
        screenshot: bytes | None = None,
    ) -> None: ...
