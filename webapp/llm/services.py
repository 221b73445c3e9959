"""Writes for model profiles."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from webapp.core.crypto import encrypt
from webapp.core.exceptions import ApplicationError
from webapp.llm.models import ModelProfile

_FIELDS = (
    "name", "provider", "base_url", "model", "supports_tools", "supports_vision", "parallel_tool_calls",
    "embedding_model", "price_input_per_mtok", "price_output_per_mtok",
)  # fmt: skip
PRICE_HALF_SET = "Set both prices (input and output per million tokens), or neither to use the price table's."


def _check_fallback(*, owner: User, profile: ModelProfile | None, fallback: ModelProfile | None) -> None:
    if fallback is None:
        return
    if fallback.owner_id != owner.pk:
        raise ApplicationError("Unknown fallback profile.")
    if profile is not None and fallback.pk == profile.pk:
        raise ApplicationError("A profile cannot be its own fallback.")


def _check_price(profile: ModelProfile) -> None:
    if (profile.price_input_per_mtok is None) != (profile.price_output_per_mtok is None):
        raise ApplicationError(PRICE_HALF_SET)


@transaction.atomic
def model_profile_create(
    *, owner: User, api_key: str = "", fallback: ModelProfile | None = None, **fields: Any
) -> ModelProfile:
    _check_fallback(owner=owner, profile=None, fallback=fallback)
    profile = ModelProfile(owner=owner, fallback=fallback, api_key_encrypted=encrypt(api_key))
    for name in _FIELDS:
        if name in fields:
            setattr(profile, name, fields[name])
    _check_price(profile)
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError as exc:
        raise ApplicationError("You already have a profile with that name.") from exc
    return profile


@transaction.atomic
def model_profile_update(
    *, profile: ModelProfile, api_key: str | None = None, fallback: Any = ..., **fields: Any
) -> ModelProfile:
    """``api_key=None`` keeps the stored key; an empty string removes it. ``fallback`` left out keeps it."""
    for name in _FIELDS:
        if name in fields:
            setattr(profile, name, fields[name])
    if api_key is not None:
        profile.api_key_encrypted = encrypt(api_key)
    if fallback is not ...:
        _check_fallback(owner=profile.owner, profile=profile, fallback=fallback)
        profile.fallback = fallback
    _check_price(profile)
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError as exc:
        raise ApplicationError("You already have a profile with that name.") from exc
    return profile


@transaction.atomic
def model_profile_delete(*, profile: ModelProfile) -> None:
    profile.delete()
