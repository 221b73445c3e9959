from __future__ import annotations

from django.conf import settings
from django.db import models

from agents.llm.pricing import TokenPrice


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
    # US dollars per million tokens, set by the user or an operator (both or neither): a local model, one the price
    # table does not know, or a price of one's own. Unset, calls are priced from the table (agents/llm/pricing.py).
    price_input_per_mtok = models.DecimalField(max_digits=12, decimal_places=6, null=True, blank=True)
    price_output_per_mtok = models.DecimalField(max_digits=12, decimal_places=6, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="unique_profile_name_per_user"),
            models.CheckConstraint(
                condition=models.Q(price_input_per_mtok__isnull=True, price_output_per_mtok__isnull=True)
                | models.Q(price_input_per_mtok__gte=0, price_output_per_mtok__gte=0),
                name="profile_price_both_or_neither",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.model})"

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key_encrypted)

    @property
    def price(self) -> TokenPrice | None:
        if self.price_input_per_mtok is None or self.price_output_per_mtok is None:
            return None
        return TokenPrice(self.price_input_per_mtok, self.price_output_per_mtok)
