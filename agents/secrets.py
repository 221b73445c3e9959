"""Values typed into a page that the model, the step log and the dashboard never see.

A step's arguments name them with `{{name}}` placeholders; the step executor (agents.step) fills them in at the
moment of acting, on the page the step acts on, and masks their values in everything the step reports. A workflow's
parameters and the credentials a replay (or the agent healing one of its steps) types are filled this way; a vault
that checks a credential's origin, or computes a one-time code when it is typed, is another `Secrets`.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol
from urllib.parse import quote, quote_plus

from browser_pool.types import JsonObject

SECRET_MASK = "••••••••"
# `{{name}}`: a value filled in by Hive, never by the model (a workflow's parameters, a secret while healing);
# `{{credential.field}}`: a field of a credential in the user's vault (agents.vault).
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*\}\}")


class SecretRefused(Exception):
    """A placeholder that must not be filled in where the step would act (a credential on a page of another
    origin): the step is not done, and the message tells the agent why."""


def fill(arguments: JsonObject, values: Mapping[str, str]) -> dict[str, Any]:
    """`{{name}}` in string arguments replaced by its value (placeholders without one stay as they are)."""

    def one(value: Any) -> Any:
        if isinstance(value, str):
            return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
        return value

    return {key: one(value) for key, value in arguments.items()}


def without_secrets(text: str, secrets: Mapping[str, str]) -> str:
    for value in secrets.values():
        if value:
            text = text.replace(value, SECRET_MASK)
    return text


class Secrets(Protocol):
    """Fills a step's placeholders when it acts, and hides what it filled in from everything reported."""

    async def fill(self, arguments: JsonObject, *, url: str) -> JsonObject:
        """The arguments to act with, on the page at `url` (the one the step acts on)."""

    def mask(self, text: str) -> str:
        """`text` with every value this may fill in (or has filled in) replaced by a mask."""

    def describe(self, *, url: str) -> str:
        """What the agent is told of the placeholders it may use on the page at `url` ("" for nothing)."""

    def hidden(self) -> frozenset[str]:
        """What `mask` hides, for a picture of the page: wherever the page shows one of these as text, it is
        covered."""

    def refusal(self, tool: str) -> str:
        """Why the step may not use `tool` at all in this browser ("" when it may)."""


# Tools that read the page as its own scripts can, past every mask: a field's raw value included.
RAW_READERS = frozenset({"execute_js"})
OTHERS_TYPED = (
    "Not done: another person's run typed secrets from their vault into this browser, and a script could read them "
    "back from the page, so scripts of anyone else are refused in it. Use the other tools."
)

# Values shorter than this are masked in the run that typed them only: remembered for a browser's life, a three-digit
# code would mask every price and index holding its digits from then on.
REMEMBERED_MIN_CHARS = 4


def masked_any_case(text: str, values: Iterable[str]) -> str:
    """`text` with each value masked whatever its case (a page may show "ADA@EXAMPLE.COM" for "ada@example.com") and
    however an address, a form or a page's markup encodes it ("ada%40example.com" as Python or a page's script
    encodes it, "ada+lovelace" for a space, "&amp;", "&#39;"), a longer value first so that no part of it is left (a
    password that holds the username)."""
    for value in sorted((v for v in values if v), key=len, reverse=True):
        text = _any_case(value).sub(SECRET_MASK, text)
    return text


@functools.lru_cache(maxsize=256)
def _any_case(value: str) -> re.Pattern[str]:
    forms = {value, quote(value, safe=""), quote(value), quote_plus(value), quote(value, safe="!'()*~"),
             quote_plus(value, safe="*").replace("~", "%7E"), html.escape(value),
             html.escape(value).replace("&#x27;", "&#39;"), html.escape(value).replace("&#x27;", "&#039;"),
             json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]}  # fmt: skip
    return re.compile("|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True)), re.IGNORECASE)


class Remembered:
    """A run's secrets (or none) together with every value its starter's runs filled in earlier into the same
    browser, which `typed` keeps for the browser's life: a page may go on showing a value typed by an earlier run.
    Kept per person: a teammate's steps in the same browser do not mask the owner's values, which would tell them
    whether a text they show is one."""

    def __init__(
        self, secrets: Secrets | None, typed: set[str], others_typed: Callable[[], bool] = lambda: False
    ) -> None:
        self._secrets = secrets
        self._typed = typed
        # Whether someone else's runs typed secrets into the same browser: theirs are not masked for this person (it
        # would tell them which text is one), so what reads the page raw is refused instead.
        self._others_typed = others_typed

    async def fill(self, arguments: JsonObject, *, url: str) -> JsonObject:
        if self._secrets is None:
            return arguments
        filled = await self._secrets.fill(arguments, url=url)
        if filled != arguments:
            self._typed.update(v for v in self._secrets.hidden() if len(v) >= REMEMBERED_MIN_CHARS)
        return filled

    def mask(self, text: str) -> str:
        # Every value the run's own secrets mask is among `hidden()`: one pass masks them all, a longer one first.
        return masked_any_case(text, self.hidden()) if text else text

    def describe(self, *, url: str) -> str:
        return self._secrets.describe(url=url) if self._secrets is not None else ""

    def hidden(self) -> frozenset[str]:
        return frozenset(self._typed | (self._secrets.hidden() if self._secrets is not None else frozenset()))

    def refusal(self, tool: str) -> str:
        if tool in RAW_READERS and self._others_typed():
            return OTHERS_TYPED
        return self._secrets.refusal(tool) if self._secrets is not None else ""


class PlaceholderSecrets:
    """Named values, filled in wherever their placeholder appears."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = dict(values)

    async def fill(self, arguments: JsonObject, *, url: str) -> JsonObject:
        return fill(arguments, self._values) if self._values else arguments

    def mask(self, text: str) -> str:
        return without_secrets(text, self._values)

    def describe(self, *, url: str) -> str:
        return ""  # a replay names its parameters in its own prompt

    def hidden(self) -> frozenset[str]:
        return frozenset(value for value in self._values.values() if value)

    def refusal(self, tool: str) -> str:
        return ""
