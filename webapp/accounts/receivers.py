"""An account that changes tells its open websockets, which then check at once whether what authenticated them
still does: signing out, a revoked or replaced API token, a deactivated or deleted user, a changed password."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from knox.models import AuthToken

from webapp.core.events import account_changed_notify


@receiver(user_logged_out)
def _signed_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        account_changed_notify(user.pk)


@receiver(post_save, sender=User)
def _user_saved(sender: Any, instance: User, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return  # a sign-in elsewhere changes nothing for the sockets already open
    account_changed_notify(instance.pk)


@receiver(post_delete, sender=User)
def _user_deleted(sender: Any, instance: User, **kwargs: Any) -> None:
    account_changed_notify(instance.pk)


@receiver(post_delete, sender=AuthToken)
def _token_deleted(sender: Any, instance: AuthToken, **kwargs: Any) -> None:
    account_changed_notify(instance.user_id)
