"""Writes for accounts: users and their personal API tokens."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from knox.models import AuthToken

from webapp.core.exceptions import ApplicationError


@transaction.atomic
def user_create(*, username: str, password: str) -> User:
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError("That username is taken.")
    user = User(username=username)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


@transaction.atomic
def admin_ensure(*, username: str, password: str, email: str = "") -> tuple[User, bool]:
    """Create the administrator, or reset its password: safe to run at every deployment."""
    user, created = User.objects.get_or_create(username=username, defaults={"email": email})
    user.is_staff = True
    user.is_superuser = True
    user.set_password(password)
    user.save()
    return user, created


@transaction.atomic
def api_token_rotate(*, user: User) -> tuple[AuthToken, str]:
    """A new personal token replacing the user's others; the key is returned this once (only its hash is kept)."""
    AuthToken.objects.filter(user=user).delete()
    return AuthToken.objects.create(user=user, expiry=settings.HIVE_API_TOKEN_TTL)  # type: ignore[no-any-return]


@transaction.atomic
def api_token_revoke(*, user: User) -> None:
    AuthToken.objects.filter(user=user).delete()
