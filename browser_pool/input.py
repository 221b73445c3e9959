"""Replays live-view input (mouse, wheel, keys, text) into the active tab through CDP `Input.*` events.

Viewers send positions as fractions (0–1) of the picture they see; the picture is the viewport, so a fraction maps
to CSS pixels by the viewport size, whatever size the picture was scaled to.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

from playwright.async_api import CDPSession

InputKind = Literal["click", "move", "down", "up", "wheel", "key", "text"]
MouseButton = Literal["left", "middle", "right"]

# CDP modifier bits (Input.dispatchKeyEvent / dispatchMouseEvent `modifiers`).
MODIFIER_BITS = {"alt": 1, "ctrl": 2, "control": 2, "meta": 4, "cmd": 4, "shift": 8}
# CDP `buttons` bits for mouse moves while a button is held (a drag).
_BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}
MAX_TEXT_LENGTH = 10_000
MAX_WHEEL_DELTA = 10_000.0

# key -> (code, Windows virtual key code, text it types). Printable single characters are derived in `key_definition`.
_NAMED_KEYS: dict[str, tuple[str, int, str]] = {
    "Enter": ("Enter", 13, "\r"),
    "Tab": ("Tab", 9, ""),
    "Backspace": ("Backspace", 8, ""),
    "Escape": ("Escape", 27, ""),
    "Delete": ("Delete", 46, ""),
    "Insert": ("Insert", 45, ""),
    "Home": ("Home", 36, ""),
    "End": ("End", 35, ""),
    "PageUp": ("PageUp", 33, ""),
    "PageDown": ("PageDown", 34, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    "Shift": ("ShiftLeft", 16, ""),
    "Control": ("ControlLeft", 17, ""),
    "Alt": ("AltLeft", 18, ""),
    "Meta": ("MetaLeft", 91, ""),
    " ": ("Space", 32, " "),
    **{f"F{n}": (f"F{n}", 111 + n, "") for n in range(1, 13)},
}
_PUNCTUATION_CODES: dict[str, tuple[str, int]] = {
    ";": ("Semicolon", 186), ":": ("Semicolon", 186), "=": ("Equal", 187), "+": ("Equal", 187),
    ",": ("Comma", 188), "<": ("Comma", 188), "-": ("Minus", 189), "_": ("Minus", 189),
    ".": ("Period", 190), ">": ("Period", 190), "/": ("Slash", 191), "?": ("Slash", 191),
    "`": ("Backquote", 192), "~": ("Backquote", 192), "[": ("BracketLeft", 219), "{": ("BracketLeft", 219),
    "\\": ("Backslash", 220), "|": ("Backslash", 220), "]": ("BracketRight", 221), "}": ("BracketRight", 221),
    "'": ("Quote", 222), '"': ("Quote", 222),
}  # fmt: skip


class InputError(ValueError):
    """An input event that cannot be replayed; the message says which field is wrong."""


@dataclass(frozen=True, slots=True)
class InputEvent:
    """One live-view input, as the websocket protocol carries it (docs/architecture.md, client → server `input`)."""

    kind: InputKind
    x: float = 0.0
    y: float = 0.0
    button: MouseButton = "left"
    delta_x: float = 0.0
    delta_y: float = 0.0
    key: str = ""
    text: str = ""
    modifiers: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> InputEvent:
        """Validate an untrusted message; raises `InputError` with a readable reason."""
        kind = raw.get("kind")
        if kind not in get_args(InputKind):
            raise InputError(f"kind must be one of {', '.join(get_args(InputKind))}")
        button = raw.get("button", "left")
        if button not in get_args(MouseButton):
            raise InputError("button must be left, middle or right")
        modifiers = raw.get("modifiers") or []
        if not isinstance(modifiers, list | tuple) or any(m not in MODIFIER_BITS for m in modifiers):
            raise InputError(f"modifiers must be a list of {', '.join(MODIFIER_BITS)}")
        key, text = raw.get("key", ""), raw.get("text", "")
        if not isinstance(key, str) or len(key) > 32:
            raise InputError("key must be a key name such as Enter or a single character")
        if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
            raise InputError(f"text must be a string of at most {MAX_TEXT_LENGTH} characters")
        if kind == "key" and not key:
            raise InputError("a key event needs a key")
        return cls(
            kind=cast(InputKind, kind),
            x=_fraction(raw.get("x", 0.0), "x"),
            y=_fraction(raw.get("y", 0.0), "y"),
            button=cast(MouseButton, button),
            delta_x=_delta(raw.get("delta_x", 0.0), "delta_x"),
            delta_y=_delta(raw.get("delta_y", 0.0), "delta_y"),
            key=key,
            text=text,
            modifiers=tuple(str(m) for m in modifiers),
        )

    @property
    def modifier_bits(self) -> int:
        bits = 0
        for name in self.modifiers:
            bits |= MODIFIER_BITS[name]
        return bits


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"{name} must be a number")
    return float(value)


def _fraction(value: Any, name: str) -> float:
    # Clamped rather than refused: a drag that leaves the picture still ends at its edge.
    return min(1.0, max(0.0, _number(value, name)))


def _delta(value: Any, name: str) -> float:
    return max(-MAX_WHEEL_DELTA, min(MAX_WHEEL_DELTA, _number(value, name)))


def key_definition(key: str, modifier_bits: int = 0) -> tuple[str, int, str]:
    """(code, virtual key code, text) for a key name or a single printable character.

    With Ctrl, Alt or Meta held a key types nothing (Ctrl+A selects rather than typing "a"), as in a real browser.
    """
    if key in _NAMED_KEYS:
        code, key_code, text = _NAMED_KEYS[key]
    elif len(key) == 1:
        if key.isascii() and key.isalpha():
            code, key_code = f"Key{key.upper()}", ord(key.upper())
        elif key.isdigit():
            code, key_code = f"Digit{key}", ord(key)
        else:
            code, key_code = _PUNCTUATION_CODES.get(key, ("", 0))
        text = key
    else:
        raise InputError(f"unknown key {key!r}")
    if modifier_bits & (MODIFIER_BITS["alt"] | MODIFIER_BITS["ctrl"] | MODIFIER_BITS["meta"]):
        text = ""
    return code, key_code, text


@dataclass(frozen=True, slots=True)
class InputTarget:
    """Where input goes: the active tab's CDP session and its viewport size in CSS pixels."""

    cdp: CDPSession
    width: float
    height: float


InputTargetGetter = Callable[[], Awaitable[InputTarget]]


class InputReplayer:
    """Turns `InputEvent`s into CDP input events on whatever tab is active when each event arrives."""

    def __init__(self, target: InputTargetGetter) -> None:
        self._target = target
        self._held_buttons: set[MouseButton] = set()

    async def replay(self, event: InputEvent) -> None:
        target = await self._target()
        if event.kind == "text":
            if event.text:
                await target.cdp.send("Input.insertText", {"text": event.text})
        elif event.kind == "key":
            await self._key(target.cdp, event)
        else:
            await self._mouse(target, event)

    async def _mouse(self, target: InputTarget, event: InputEvent) -> None:
        position = {"x": event.x * target.width, "y": event.y * target.height, "modifiers": event.modifier_bits}
        send = target.cdp.send
        if event.kind == "wheel":
            await send(
                "Input.dispatchMouseEvent",
                {"type": "mouseWheel", **position, "deltaX": event.delta_x, "deltaY": event.delta_y},
            )
            return
        # The page sees a hover move first, as it would from a real pointer, so :hover and mouseover handlers run.
        await send("Input.dispatchMouseEvent", {"type": "mouseMoved", **position, "buttons": self._buttons_bits()})
        if event.kind in ("click", "down"):
            self._held_buttons.add(event.button)
            await send(
                "Input.dispatchMouseEvent",
                {"type": "mousePressed", **position, "button": event.button, "buttons": self._buttons_bits(),
                 "clickCount": 1},
            )  # fmt: skip
        if event.kind in ("click", "up"):
            self._held_buttons.discard(event.button)
            await send(
                "Input.dispatchMouseEvent",
                {"type": "mouseReleased", **position, "button": event.button, "buttons": self._buttons_bits(),
                 "clickCount": 1},
            )  # fmt: skip

    def _buttons_bits(self) -> int:
        return sum(_BUTTON_BITS[b] for b in self._held_buttons)

    async def _key(self, cdp: CDPSession, event: InputEvent) -> None:
        bits = event.modifier_bits
        code, key_code, text = key_definition(event.key, bits)
        common = {"key": event.key, "code": code, "windowsVirtualKeyCode": key_code, "modifiers": bits}
        # Chromium types text only for "keyDown"; a key without text (arrows, Ctrl+A) is a "rawKeyDown".
        down: dict[str, Any] = {"type": "keyDown" if text else "rawKeyDown", **common}
        if text:
            down |= {"text": text, "unmodifiedText": text}
        await cdp.send("Input.dispatchKeyEvent", down)
        await cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **common})
