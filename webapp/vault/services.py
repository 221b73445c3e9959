"""Saving the vault: values go in encrypted and never come out here. An edit replaces the fields it gives (an empty
value removes an optional one) and keeps the others without opening them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

import pyotp
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from agents.vault import one_time_code
from webapp.core.crypto import encrypt
from webapp.core.exceptions import ApplicationError
from webapp.vault.models import VaultCredential

USERNAME, PASSWORD, OTP = "username", "password", "otp"
FIXED = (USERNAME, PASSWORD, OTP)
# A placeholder's parts are identifiers: `{{github.password}}`.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
MAX_ORIGINS = 20
MAX_SECRETS = 20
MAX_VALUE = 10_000


def _name(name: str) -> str:
    name = name.strip()
    if not NAME.fullmatch(name):
        raise ApplicationError(
            f"{name!r} cannot name a credential: use letters, digits and '_' (not first), at most 100, as in "
            "'github' or 'work_mail'; the agent writes it in placeholders like {{github.password}}."
        )
    return name


def origin_normal(origin: str) -> str:
    """scheme://host[:port] as the browser says it, or a 400 saying what is wrong."""
    text = origin.strip()
    parts = urlsplit(text if "//" in text else "https://" + text)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
        raise ApplicationError(f"{origin!r} is not an origin: give scheme://host[:port], e.g. https://github.com.")
    if parts.username or parts.password or parts.query or parts.fragment or parts.path not in ("", "/"):
        raise ApplicationError(
            f"{origin!r} is not an origin: give only scheme://host[:port] (no path, query or user), "
            "e.g. https://github.com."
        )
    default = {"http": 80, "https": 443}[parts.scheme]
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def _origins(origins: list[str]) -> list[str]:
    if not origins:
        raise ApplicationError("Name at least one origin the credential may be typed into, e.g. https://github.com.")
    if len(origins) > MAX_ORIGINS:
        raise ApplicationError(f"At most {MAX_ORIGINS} origins per credential.")
    return list(dict.fromkeys(origin_normal(origin) for origin in origins))


def totp_secret_normal(secret: str) -> str:
    """A TOTP secret as base32 (spaces and case as authenticator apps show it are fine; an otpauth:// URI too)."""
    text = secret.strip()
    if text.startswith("otpauth://"):
        try:
            text = str(pyotp.parse_uri(text).secret)
        except ValueError as exc:
            raise ApplicationError(f"The otpauth:// address cannot be read: {exc}.") from None
    text = re.sub(r"[\s-]", "", text).upper()
    try:
        one_time_code(text)
    except (ValueError, TypeError):
        raise ApplicationError(
            "The TOTP secret is not base32 (letters A-Z and digits 2-7), as sites show it."
        ) from None
    return text


def _values(given: Mapping[str, str]) -> dict[str, str]:
    """The fields given, checked: a field's name, its value's size, the TOTP secret's form."""
    out: dict[str, str] = {}
    others = [field for field in given if field not in FIXED]
    if len(others) > MAX_SECRETS:
        raise ApplicationError(f"At most {MAX_SECRETS} other secrets per credential.")
    for field, value in given.items():
        if not NAME.fullmatch(field):
            raise ApplicationError(f"{field!r} cannot name a secret: use letters, digits and '_' (not first).")
        if len(value) > MAX_VALUE:
            raise ApplicationError(f"The value of {field} is longer than {MAX_VALUE} characters.")
        out[field] = totp_secret_normal(value) if field == OTP and value else value
    return out


def _apply(credential: VaultCredential, given: Mapping[str, str]) -> None:
    secret = dict(credential.secret)
    for field, value in _values(given).items():
        if value:
            secret[field] = encrypt(value)
        elif field == PASSWORD:
            raise ApplicationError("The password is empty: a credential keeps one.")
        else:
            secret.pop(field, None)
    if PASSWORD not in secret:
        raise ApplicationError("Give the password.")
    credential.secret = secret
    # The fixed fields first, in their usual order, then the others by name.
    credential.fields = [f for f in FIXED if f in secret] + sorted(f for f in secret if f not in FIXED)


def _saved(credential: VaultCredential) -> VaultCredential:
    try:
        with transaction.atomic():
            credential.save()
    except IntegrityError:
        raise ApplicationError(f"You already have a credential named {credential.name!r}.") from None
    return credential


def vault_credential_create(
    *, owner: User, name: str, values: Mapping[str, str], origins: list[str]
) -> VaultCredential:
    credential = VaultCredential(owner=owner, name=_name(name), origins=_origins(origins))
    _apply(credential, values)
    return _saved(credential)


def vault_credential_update(
    *, credential: VaultCredential, name: str | None = None, values: Mapping[str, str], origins: list[str] | None
) -> VaultCredential:
    """Replaces what is given: the name, the origins, each field given (an empty value removes it)."""
    if name is not None:
        credential.name = _name(name)
    if origins is not None:
        credential.origins = _origins(origins)
    _apply(credential, values)
    return _saved(credential)


def vault_credential_delete(*, credential: VaultCredential) -> None:
    credential.delete()
