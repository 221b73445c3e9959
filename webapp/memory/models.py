from __future__ import annotations

from django.conf import settings
from django.db import models


class Note(models.Model):
    """Something the user wants the agent to remember; found again with the search_memory tool."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notes")
    title = models.CharField(max_length=200)
    body = models.TextField(max_length=20_000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.title


class Persona(models.Model):
    """A voice the agent can write in (generate_reply)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personas")
    name = models.CharField(max_length=100)
    voice = models.CharField(max_length=300, help_text="How it sounds, e.g. 'warm, concise, a little dry'.")
    instructions = models.TextField(max_length=5_000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_persona_name_per_user")]

    def __str__(self) -> str:
        return self.name
