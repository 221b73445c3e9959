"""Playwright traces of a session's runs: the context's tracing is started once, and each run is one chunk of it,
saved as a `trace.zip` Playwright's Trace Viewer opens, or discarded.

A trace holds what a person would not want shared: the text each action typed, every input's value in the DOM
snapshots, request bodies. `scrub_trace` rewrites a saved chunk so that no value a `mask` knows, and no value of a
password field, is left in any of its text entries. The screenshots are pictures: a password field shows dots in
them, as on screen, but a secret a page shows back as text would be drawn, so a run that typed one keeps its trace
without them (`pictures=False`).
"""

from __future__ import annotations

import json
import logging
import zipfile
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError

from browser_pool.types import CONCEALED

log = logging.getLogger(__name__)

MASK = "••••••••"
# The attributes Playwright's DOM snapshots keep an input's value in (the live value, and the markup's).
VALUE_ATTRIBUTES = ("__playwright_value_", "value")
# Shorter password values are masked where they stand in a snapshot but not searched for everywhere else: a
# one- or two-letter string is in every entry.
MIN_SEARCHED_CHARS = 3
# Where a trace keeps its screencast's frames (each one also named by a "screencast-frame" event).
SCREENCAST_FOLDER = "screencast/"
# Entries whose bytes are pictures or fonts: nothing typed is in them as text.
_BINARY_SUFFIXES = (".jpeg", ".jpg", ".png", ".webp", ".gif", ".woff", ".woff2", ".ttf", ".otf", ".ico")

Mask = Callable[[str], str]


class ContextTracing:
    """The tracing of one browser context, a chunk per run. Playwright runs tracing once per context; the first
    run starts it (which opens its first chunk), each later run opens a chunk of its own."""

    def __init__(self, context: BrowserContext) -> None:
        self._context = context
        self._started = False
        self.recording = False

    async def begin(self, title: str) -> None:
        if self.recording:
            await self.end(None)
        if self._started:
            await self._context.tracing.start_chunk(title=title)
        else:
            await self._context.tracing.start(screenshots=True, snapshots=True, title=title)
            self._started = True
        self.recording = True

    async def end(self, path: Path | None) -> bool:
        """Close the run's chunk: written to `path`, or discarded (nothing written) without one. False when no
        chunk was open or the browser could not write it (it crashed with the run)."""
        if not self.recording:
            return False
        self.recording = False
        try:
            await self._context.tracing.stop_chunk(path=str(path) if path is not None else None)
        except PlaywrightError as exc:
            log.info("the trace chunk could not be closed: %s", exc.message)
            return False
        return path is not None


def _nodes(html: Any) -> list[list[Any]]:
    """Every element of a snapshot's markup: `[tag, {attributes}, *children]`, nested (text is a plain string, a
    reference to an earlier snapshot's node a list of numbers)."""
    found: list[list[Any]] = []
    stack = [html]
    while stack:
        node = stack.pop()
        if isinstance(node, list) and len(node) >= 2 and isinstance(node[0], str) and isinstance(node[1], dict):
            found.append(node)
            stack.extend(node[2:])
    return found


def _password_nodes(event: Any) -> list[dict[str, Any]]:
    """The attributes of password fields and of fields Hive typed a secret into, in a DOM snapshot."""
    if not isinstance(event, dict) or event.get("type") != "frame-snapshot":
        return []
    html = (event.get("snapshot") or {}).get("html")
    return [
        node[1]
        for node in _nodes(html)
        if (node[0].upper() == "INPUT" and str(node[1].get("type", "")).lower() == "password")
        or (node[0].upper() in ("INPUT", "TEXTAREA") and CONCEALED in node[1])
    ]


def _walk(value: Any, mask: Mask) -> Any:
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        return [_walk(item, mask) for item in value]
    if isinstance(value, dict):
        return {key: _walk(item, mask) for key, item in value.items()}
    return value


def _events(text: str) -> list[Any]:
    events = []
    for line in text.splitlines():
        if line.strip():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                events.append(line)  # not Playwright's: kept as text, and masked as text
    return events


def _masked_text(text: str, mask: Mask) -> str:
    """`text` masked, also where it is form-encoded (a request body): such a body is then kept decoded."""
    masked = mask(text)
    if "%" in masked or "+" in masked:
        decoded = unquote_plus(masked)
        again = mask(decoded)
        if again != decoded:
            return again
    return masked


def mask_escaped(text: str, hidden: Collection[str]) -> str:
    """`text` with each of the `hidden` texts masked also where it stands as a JSON string holds it (a quote or a
    backslash escaped): a picture's mask finds a secret the page shows with a selector that holds it so, and the
    trace records that selector."""
    for value in sorted(hidden, key=len, reverse=True):  # a longer value first, so no part of it is left
        escaped = json.dumps(value, ensure_ascii=False)[1:-1]
        if escaped != value:
            text = text.replace(escaped, MASK)
    return text


def scrub_trace(path: Path, mask: Mask, *, pictures: bool = True) -> int:
    """Rewrite the trace at `path` with every value `mask` hides, and every password field's value, masked in all
    its text entries; without `pictures`, its screencast's frames left out. Returns how many entries changed."""
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    dropped = 0
    if not pictures:
        kept = [(info, data) for info, data in entries if not info.filename.startswith(SCREENCAST_FOLDER)]
        dropped, entries = len(entries) - len(kept), kept
    logs: dict[str, list[Any]] = {}
    passwords: set[str] = set()
    for info, data in entries:
        if info.filename.endswith((".trace", ".network")):
            events = _events(data.decode("utf-8", errors="replace"))
            if not pictures:
                events = [e for e in events if not (isinstance(e, dict) and e.get("type") == "screencast-frame")]
            logs[info.filename] = events
            for attributes in (a for event in events for a in _password_nodes(event)):
                passwords.update(str(attributes[k]) for k in VALUE_ATTRIBUTES if attributes.get(k))
    searched = sorted((p for p in passwords if len(p) >= MIN_SEARCHED_CHARS), key=len, reverse=True)

    def everything(text: str) -> str:
        text = mask(text)
        for password in searched:
            text = text.replace(password, MASK)
        return text

    changed = dropped
    scrubbed: list[tuple[zipfile.ZipInfo, bytes]] = []
    for info, data in entries:
        new = _scrubbed_entry(info.filename, data, logs.get(info.filename), everything)
        changed += new != data
        scrubbed.append((info, new))
    if changed:
        partial = path.with_suffix(".scrubbing")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
            for info, data in scrubbed:
                target.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
        partial.replace(path)
    return changed


def _scrubbed_entry(name: str, data: bytes, events: list[Any] | None, mask: Mask) -> bytes:
    if events is not None:
        for event in events:
            for attributes in _password_nodes(event):
                for key in VALUE_ATTRIBUTES:
                    if attributes.get(key):
                        attributes[key] = MASK
        lines = [
            json.dumps(_walk(e, mask), ensure_ascii=False, separators=(",", ":")) if not isinstance(e, str) else mask(e)
            for e in events
        ]
        return ("\n".join(lines) + "\n").encode() if lines else b""
    if name.lower().endswith(_BINARY_SUFFIXES):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # not text: nothing typed is in it as text
    masked = _masked_text(text, mask)
    return masked.encode() if masked != text else data
