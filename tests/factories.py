from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from webapp.conversations.models import Conversation

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create: bool, extracted: object, **kwargs: object) -> None:  # noqa: N805
        if create:
            obj.save()


class ConversationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Conversation

    owner = factory.SubFactory(UserFactory)
    title = factory.Sequence(lambda n: f"Conversation {n}")
