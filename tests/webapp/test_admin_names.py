"""Django admin names every model in proper English: the index an operator reads says "Webhook deliveries"."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.test import Client

from tests.factories import UserFactory

# Django's default plural adds an "s": wrong after a consonant and "y" (delivery), or after s, x, z, ch, sh.
_NAIVE = re.compile(r"([^aeiou]ys|(s|x|z|ch|sh)s)$")


@pytest.mark.django_db
def test_the_admin_index_names_every_model_in_proper_plurals() -> None:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get("/admin/").content.decode()

    assert "Webhook deliveries" in page
    assert "deliverys" not in page.lower()
    naive = [model._meta.label for model in admin.site._registry if _NAIVE.search(str(model._meta.verbose_name_plural))]
    assert not naive, f"admin plurals that need a verbose_name_plural: {naive}"
