"""A user's vault as the agent meets it: credentials it names by placeholder and never reads.

The agent writes `{{github.username}}`, `{{github.password}}`, `{{github.otp}}` (or another field the credential
holds) in the text it types; `VaultSecrets` fills the value in at the moment of typing, only on a page of an origin
the credential names, and a one-time code is computed then from the credential's TOTP secret. Everything a step
reports is masked with every value filled in so far, one-time codes included. The values come from `open`, which the
worker gives: it decrypts a credential when it is first typed, never before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyotp

from agents.safety import origin_of
from agents.secrets import PLACEHOLDER, SECRET_MASK, SecretRefused, without_secrets
from browser_pool.types import JsonObject

OTP = "otp"  # the field computed at typing time from the credential's TOTP secret
# The only argument a vault's value may be typed through (the `type` action's text): a value put in an address, a
# script or a key press would leave the page by a way the origin check does not see.
TYPED_ARGUMENT = "text"

# A credential's stored fields by name (the TOTP secret under OTP), decrypted by the worker when first needed.
Opener = Callable[[str], Awaitable[Mapping[str, str]]]


class SiteTotp(pyotp.TOTP):
    """TOTP as sites issue it: many still give 80-bit secrets (16 base32 characters), below pyotp's own floor, and a
    user cannot choose another; the vault computes what the site expects."""

    min_secret_length_bits = 80


def one_time_code(secret: str) -> str:
    """The current code of a TOTP secret (base32); ValueError or TypeError when it is not one."""
    return SiteTotp(secret).now()


@dataclass(frozen=True, slots=True)
class VaultEntry:
    """What may be said of a credential: its name, the fields it holds and the origins it may be typed into."""

    name: str
    fields: tuple[str, ...]
    origins: tuple[str, ...]

    def allows(self, url: str) -> bool:
        if not url.startswith(("http://", "https://")):
            return False
        return origin_of(url) in {origin_of(origin) for origin in self.origins}

    def placeholders(self) -> str:
        return ", ".join("{{" + f"{self.name}.{field}" + "}}" for field in self.fields)


class VaultSecrets:
    """The `Secrets` of an agent's turn: a user's vault, plus any other named values (a replay's parameters)."""

    def __init__(self, entries: Sequence[VaultEntry], open: Opener, *, others: Mapping[str, str] | None = None) -> None:
        self._entries = {entry.name: entry for entry in entries}
        self._open = open
        self._others = dict(others or {})
        self._opened: dict[str, Mapping[str, str]] = {}
        # Every value typed so far (one-time codes included): masked in whatever is reported after.
        self._filled: set[str] = set()

    @property
    def filled(self) -> frozenset[str]:
        """The values filled in so far: for whoever must hide them somewhere else (a trace file)."""
        return frozenset(self._filled)

    async def fill(self, arguments: JsonObject, *, url: str) -> JsonObject:
        wanted = {key: _names(value) for key, value in arguments.items()}
        vault = {name for names in wanted.values() for name in names if "." in name}
        if not vault and not self._others:
            return arguments
        for key, names in wanted.items():
            used = sorted(name for name in names if "." in name)
            if used and key != TYPED_ARGUMENT:
                raise SecretRefused(
                    f"{_braced(used[0])} can only be typed into a field (the type action's text), not put in {key!r}; "
                    "nothing was done"
                )
        values = dict(self._others)
        for placeholder in sorted(vault):
            values[placeholder] = await self._value(placeholder, url)
        self._filled.update(value for value in values.values() if value)

        def one(value: Any) -> Any:
            if isinstance(value, str):
                return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
            return value

        return {key: one(value) for key, value in arguments.items()}

    async def _value(self, placeholder: str, url: str) -> str:
        name, field = placeholder.split(".", 1)
        entry = self._entries.get(name)
        if entry is None:
            known = ", ".join(sorted(self._entries)) or "none"
            raise SecretRefused(
                f"there is no saved credential named {name!r} (saved: {known}); nothing was typed"
            ) from None
        if field not in entry.fields:
            raise SecretRefused(
                f"the credential {name!r} has no field {field!r} (it has: {entry.placeholders()}); nothing was typed"
            )
        if not entry.allows(url):
            where = origin_of(url) if url.startswith(("http://", "https://")) else (url or "no page")
            raise SecretRefused(
                f"the credential {name!r} may only be typed on {', '.join(entry.origins)}, and this page is {where}; "
                "nothing was typed. Do not type it anywhere else; tell the user if this is the right site"
            )
        if name not in self._opened:
            self._opened[name] = await self._open(name)
        stored = self._opened[name]
        if field == OTP:
            try:
                return one_time_code(stored.get(OTP, ""))
            except (ValueError, TypeError) as exc:  # a secret that is not base32: the user must save it again
                raise SecretRefused(
                    f"the one-time code of {name!r} cannot be computed ({exc}); nothing was typed"
                ) from None
        value = stored.get(field, "")
        if not value:
            raise SecretRefused(f"the credential {name!r} holds no value for {field!r}; nothing was typed") from None
        return value

    def mask(self, text: str) -> str:
        text = without_secrets(text, self._others)
        for value in sorted(self._filled, key=len, reverse=True):  # a longer value first, so no part of it is left
            text = text.replace(value, SECRET_MASK)
        return text

    def hidden(self) -> frozenset[str]:
        return frozenset(self._filled | {value for value in self._others.values() if value})

    def refusal(self, tool: str) -> str:
        return ""

    def describe(self, *, url: str) -> str:
        here = [entry for entry in self._entries.values() if entry.allows(url)]
        if not here:
            return ""
        lines = "\n".join(f"- {entry.name}: {entry.placeholders()}" for entry in here)
        return (
            f"Saved credentials for this page ({origin_of(url)}). To log in, type these placeholders exactly, in the "
            "type action's text; Hive types the value (a one-time code is computed then). You never see the values: "
            "do not ask the user for them.\n" + lines
        )


def _names(value: Any) -> set[str]:
    return set(PLACEHOLDER.findall(value)) if isinstance(value, str) else set()


def _braced(name: str) -> str:
    return "{{" + name + "}}"
