"""Output shapes shared by the API and the websocket events (docs/architecture.md)."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from webapp.runs.models import Run, Step


class StepOutput(serializers.ModelSerializer[Step]):
    screenshot_url = serializers.SerializerMethodField()

    class Meta:
        model = Step
        fields = [
            "id", "run", "index", "kind", "action", "arguments", "observation", "status", "error",
            "started_at", "duration_ms", "screenshot_url",
        ]  # fmt: skip

    def get_screenshot_url(self, obj: Step) -> str | None:
        return reverse("step-screenshot", args=[obj.pk]) if obj.screenshot else None


class RunOutput(serializers.ModelSerializer[Run]):
    class Meta:
        model = Run
        fields = [
            "id", "conversation", "status", "error", "prompt_tokens", "completion_tokens",
            "created_at", "started_at", "finished_at",
        ]  # fmt: skip


class RunWithStepsOutput(RunOutput):
    steps = StepOutput(many=True, read_only=True)

    class Meta(RunOutput.Meta):
        fields = [*RunOutput.Meta.fields, "steps"]
