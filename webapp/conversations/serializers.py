"""Output shapes shared by the API and the websocket events (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from webapp.conversations.models import Conversation, Message
from webapp.runs.models import Run
from webapp.usage.selectors import conversation_usage


class ConversationUsageOutput(serializers.Serializer[Any]):
    """What the conversation's model calls used and cost so far, whoever sent the messages."""

    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    cost_usd = serializers.DecimalField(max_digits=18, decimal_places=10, help_text="US dollars, priced calls only.")
    unpriced_calls = serializers.IntegerField(help_text="Calls the price table could not price (price unknown).")


class ConversationOutput(serializers.ModelSerializer[Conversation]):
    last_run_status = serializers.SerializerMethodField()
    owner = serializers.CharField(source="owner.username", read_only=True)
    role = serializers.SerializerMethodField()
    shared = serializers.SerializerMethodField()
    usage = serializers.SerializerMethodField()

    class Meta:
        model = Conversation
        fields = [
            "id", "title", "model_profile", "show_reasoning", "confirm_mode", "trace_runs", "created_at", "updated_at",
            "last_run_status", "owner", "role", "shared", "usage",
        ]  # fmt: skip

    def get_last_run_status(self, obj: Conversation) -> str | None:
        if hasattr(obj, "last_run_status"):  # annotated by the list selector
            return obj.last_run_status
        last = obj.runs.filter(kind__in=Run.WORK_KINDS).order_by("-created_at", "-id").only("status").first()
        return last.status if last else None

    def get_role(self, obj: Conversation) -> str:
        # Annotated by the selectors for the reader; a conversation written by its owner (create, settings) has
        # none, and the websocket rewrites `conversation.updated` for each teammate watching.
        return str(getattr(obj, "access", "owner"))

    def get_shared(self, obj: Conversation) -> bool:
        return self.get_role(obj) != "owner"

    @extend_schema_field(ConversationUsageOutput)
    def get_usage(self, obj: Conversation) -> Any:
        return ConversationUsageOutput(conversation_usage(conversation=obj)).data


class MessageOutput(serializers.ModelSerializer[Message]):
    author: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Message
        fields = ["id", "conversation", "role", "content", "author", "run", "created_at"]
