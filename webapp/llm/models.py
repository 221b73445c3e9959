from __future__ import annotations

from django.conf import settings
from django.db import models


class ModelProfile(models.Model):
    """A model a user can choose for a conversation: an OpenAI-compatible endpoint and its capabilities."""

    class Provider(models.TextChoices):
        OPENAI = "openai", "OpenAI"
        DEEPSEEK = "deepseek", "DeepSeek"
        QWEN = "qwen", "Qwen"
        GLM = "glm", "GLM"
        MOONSHOT = "moonshot", "Moonshot"
        OLLAMA = "ollama", "Ollama"
        CUSTOM = "custom", "Custom"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="model_profiles")
    name = models.CharField(max_length=100)
    provider = models.CharField(max_length=20, choices=Provider.choices, default=Provider.CUSTOM)
    base_url = models.URLField(max_length=500)
    model = models.CharField(max_length=200)
    # Never sent to any client; decrypted only in the worker that calls the model.
    api_key_encrypted = models.TextField(blank=True)
    supports_tools = models.BooleanField(default=True)
    supports_vision = models.BooleanField(default=False)
    parallel_tool_calls = models.BooleanField(default=False)
    # The provider's embeddings model for ranking memory notes by meaning; empty ranks them by words (BM25).
    embedding_model = models.CharField(max_length=200, blank=True)
    fallback = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_profile_name_per_user")]

    def __str__(self) -> str:
        return f"{self.name} ({self.model})"

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key_encrypted)
