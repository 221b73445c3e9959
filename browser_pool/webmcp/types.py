"""What discovery and calls hand back: tool records and call results, plain data ready for JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from browser_pool.types import JsonObject

PAGE_SOURCE = "page"


@dataclass(frozen=True, slots=True)
class ToolAnnotations:
    """The page's hints about a tool. Hints only: a page can claim anything, so they never grant trust."""

    read_only_hint: bool = False
    untrusted_content_hint: bool = False
    consequential_hint: bool = False

    def as_dict(self) -> dict[str, bool]:
        return {
            "read_only_hint": self.read_only_hint,
            "untrusted_content_hint": self.untrusted_content_hint,
            "consequential_hint": self.consequential_hint,
        }


@dataclass(frozen=True, slots=True)
class FrameRef:
    """The document a tool lives in: `path` is the chain of `window.frames` indices from the top (empty for the top
    document), which names the frame unambiguously; `url` and `name` are for people."""

    path: tuple[int, ...] = ()
    url: str = ""
    name: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"path": list(self.path), "url": self.url, "name": self.name}


@dataclass(frozen=True, slots=True)
class ToolRecord:
    """One WebMCP tool of a tab. `source` is "page", or the name of the SKILL that registered it (recorded data that
    Hive itself vouched for, see `PageToolWatcher.expect_skill`)."""

    name: str
    description: str
    title: str = ""
    source: str = PAGE_SOURCE
    input_schema: JsonObject | None = None
    annotations: ToolAnnotations = field(default_factory=ToolAnnotations)
    frame: FrameRef = field(default_factory=FrameRef)
    declarative: bool = False
    autosubmit: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "source": self.source,
            "input_schema": self.input_schema,
            "annotations": self.annotations.as_dict(),
            "frame": self.frame.as_dict(),
            "declarative": self.declarative,
            "autosubmit": self.autosubmit,
        }


@dataclass(frozen=True, slots=True)
class ToolCallResult:
    """How a tool call went. `result_text` is the tool's result as JSON or text: untrusted page content, to be
    fenced by whoever shows it to a model. `error` is the tool's own error text when it threw."""

    ok: bool
    result_text: str = ""
    error: str = ""
    truncated: bool = False
    duration_ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "result_text": self.result_text,
            "error": self.error,
            "truncated": self.truncated,
            "duration_ms": round(self.duration_ms, 1),
        }
