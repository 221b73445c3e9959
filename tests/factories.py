"""Model factories (factory_boy). Call them like functions: `UserFactory(username="ada")` returns a saved User."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth.models import User

from webapp.conversations.models import Conversation

PASSWORD = "correct-horse-battery"


class _UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj: User, create: bool, extracted: object, **kwargs: object) -> None:  # noqa: N805
        if create:
            obj.save()


class _ConversationFactory(factory.django.DjangoModelFactory[Conversation]):
    class Meta:
        model = Conversation

    owner = factory.SubFactory(_UserFactory)
    title = factory.Sequence(lambda n: f"Conversation {n}")


# Functions rather than the factory classes, so that the type checker knows what a call returns.
def UserFactory(**fields: Any) -> User:
    return _UserFactory.create(**fields)


def ConversationFactory(**fields: Any) -> Conversation:
    return _ConversationFactory.create(**fields)
