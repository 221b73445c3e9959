"""The vault as the agent meets it: a placeholder is filled only on the credential's origins and only in typed text,
a one-time code is computed at the moment of typing, everything filled is masked afterwards, a workflow's `{{name}}`
parameters still work beside it, and the agent is told the placeholders of the page it is on, never a value."""

from __future__ import annotations

from collections.abc import Mapping

import pyotp
import pytest

from agents.secrets import SECRET_MASK, PlaceholderSecrets, Remembered, SecretRefused
from agents.vault import VaultEntry, VaultSecrets

SECRET = pyotp.random_base32()
STORED = {"username": "ada", "password": "pw-91c3-plain", "otp": SECRET, "api_token": "tok-77"}
ENTRY = VaultEntry("members", ("username", "password", "otp", "api_token"), ("https://members.example",))


def _vault(opened: list[str] | None = None, **others: str) -> VaultSecrets:
    async def open_values(name: str) -> Mapping[str, str]:
        if opened is not None:
            opened.append(name)
        return STORED

    return VaultSecrets([ENTRY], open_values, others=others)


@pytest.mark.asyncio
async def test_values_are_filled_on_the_credentials_origin_and_masked_after() -> None:
    opened: list[str] = []
    vault = _vault(opened)
    url = "https://members.example/sign-in?next=/"
    assert await vault.fill({"index": 3, "text": "{{members.password}}"}, url=url) == {
        "index": 3,
        "text": STORED["password"],
    }
    code = (await vault.fill({"text": "{{ members.otp }}"}, url=url))["text"]
    assert pyotp.TOTP(SECRET).verify(str(code), valid_window=1)
    assert opened == ["members"]  # decrypted once, when first typed
    said = f"value={STORED['password']!r}, code {code}"
    assert STORED["password"] not in vault.mask(said)
    assert str(code) not in vault.mask(said)
    assert vault.mask(said).count(SECRET_MASK) == 2
    assert vault.filled == {STORED["password"], code}


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("arguments", "url", "says"),
    [
        ({"text": "{{members.password}}"}, "https://evil.example/members.example", "may only be typed on"),
        ({"text": "{{members.password}}"}, "http://members.example/", "this page is http://members.example:80"),
        ({"text": "{{members.password}}"}, "about:blank", "this page is about:blank"),
        ({"url": "https://members.example/?p={{members.password}}"}, "https://members.example/", "not put in 'url'"),
        ({"text": "{{github.password}}"}, "https://members.example/", "no saved credential named 'github'"),
        ({"text": "{{members.pin}}"}, "https://members.example/", "has no field 'pin'"),
    ],
)
async def test_anywhere_else_nothing_is_filled_and_the_agent_reads_why(
    arguments: dict[str, str], url: str, says: str
) -> None:
    opened: list[str] = []
    vault = _vault(opened)
    with pytest.raises(SecretRefused, match=says):
        await vault.fill(arguments, url=url)
    assert opened == []
    assert vault.filled == frozenset()


@pytest.mark.asyncio
async def test_a_workflows_parameters_are_filled_beside_the_vault() -> None:
    vault = _vault(pw="param-secret")
    filled = await vault.fill({"text": "{{pw}} {{members.username}}"}, url="https://members.example/")
    assert filled == {"text": "param-secret ada"}
    assert vault.mask("param-secret ada") == f"{SECRET_MASK} {SECRET_MASK}"


def test_the_agent_is_told_the_placeholders_of_this_pages_origin_only() -> None:
    vault = _vault()
    told = vault.describe(url="https://members.example/login")
    assert "{{members.username}}, {{members.password}}, {{members.otp}}, {{members.api_token}}" in told
    assert not any(value in told for value in STORED.values())
    assert vault.describe(url="https://other.example/") == ""


@pytest.mark.asyncio
async def test_a_later_run_of_the_same_person_masks_what_an_earlier_one_typed_and_a_teammates_does_not() -> None:
    """What a person's runs typed into a browser is kept for that person's later runs in it (a page may go on showing
    it), in any case, a longer value first; short values stay the typing run's own; another person's runs mask none
    of it (that would tell them whether a text they show is the value)."""
    typed: dict[str, set[str]] = {}
    url = "https://members.example/"
    first = Remembered(_vault(), typed.setdefault("user:1", set()))
    await first.fill({"text": "{{members.username}}"}, url=url)
    await first.fill({"text": "{{members.api_token}}"}, url=url)  # "tok-77": long enough to keep
    assert typed["user:1"] == {"tok-77"}  # "ada" is masked in the run that typed it only: too short to keep
    assert first.mask("Hello ada") == f"Hello {SECRET_MASK}"
    later = Remembered(None, typed.setdefault("user:1", set()))
    assert later.mask("Token TOK-77 for you") == f"Token {SECRET_MASK} for you"

    username_in_password = Remembered(PlaceholderSecrets({"pw": "tok-77-and-more"}), typed["user:1"])
    assert username_in_password.mask("tok-77-and-more") == SECRET_MASK, "no part of the longer value is left"

    teammate = Remembered(None, typed.setdefault("user:2", set()))
    assert teammate.mask("Token tok-77") == "Token tok-77"
    assert teammate.hidden() == frozenset()
