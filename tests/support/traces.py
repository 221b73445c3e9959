"""Reading a run's `trace.zip` as Playwright's Trace Viewer does: a zip whose `*.trace` and `*.network` entries are
JSON lines (the actions and page events, the network log) beside `resources/` (screenshots, snapshot resources,
request and response bodies)."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus


@dataclass
class Trace:
    entries: dict[str, bytes]
    events: list[dict[str, Any]]  # of every *.trace entry, in order
    network: list[dict[str, Any]]

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event.get("type") == kind]

    def actions(self) -> list[tuple[str, dict[str, Any]]]:
        """(method, params) of each call Playwright recorded."""
        return [(str(e.get("method")), dict(e.get("params") or {})) for e in self.of_type("before")]

    def picture(self, frame: dict[str, Any]) -> bytes:
        """A screencast frame's picture: a file of its own, or a resource named by its hash (older traces)."""
        return self.entries[frame["file"]] if "file" in frame else self.entries[f"resources/{frame['sha1']}"]

    def holds(self, value: str) -> list[str]:
        """The entries in which `value` appears as text, plain, JSON-escaped or form-encoded."""
        forms = {value, quote(value), quote_plus(value), json.dumps(value)[1:-1]}
        return [name for name, data in self.entries.items() if any(form.encode() in data for form in forms)]


def trace_read(data: bytes) -> Trace:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    events: list[dict[str, Any]] = []
    network: list[dict[str, Any]] = []
    for name, body in entries.items():
        if name.endswith((".trace", ".network")):
            lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
            (events if name.endswith(".trace") else network).extend(lines)
    return Trace(entries, events, network)
