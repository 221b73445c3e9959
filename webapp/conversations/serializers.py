"""Output shapes shared by the API and the websocket events (docs/architecture.md)."""

from __future__ import annotations

from rest_framework import serializers

from webapp.conversations.models import Conversation, Message


class ConversationOutput(serializers.ModelSerializer[Conversation]):
    last_run_status = serializers.SerializerMethodField()

    class Meta:
        model = Conversation
        fields = [
            "id", "title", "model_profile", "show_reasoning", "confirm_mode", "created_at", "updated_at",
            "last_run_status",
        ]  # fmt: skip

    def get_last_run_status(self, obj: Conversation) -> str | None:
        if hasattr(obj, "last_run_status"):  # annotated by the list selector
            return obj.last_run_status
        last = obj.runs.order_by("-created_at", "-id").only("status").first()
        return last.status if last else None


class MessageOutput(serializers.ModelSerializer[Message]):
    class Meta:
        model = Message
        fields = ["id", "conversation", "role", "content", "run", "created_at"]
