"""Output shapes shared by the API and the websocket events (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from webapp.runs.models import Confirmation, ModelCall, Run, Step
from webapp.runs.selectors import run_queue_position
from webapp.runs.types import PlanStepPayload, SharedTabRef


class PlanStepOutput(serializers.Serializer[Any]):
    """One step of the plan the agent published (docs/architecture.md, `plan.updated`)."""

    id = serializers.CharField()
    title = serializers.CharField()
    depends_on = serializers.ListField(child=serializers.CharField())
    status = serializers.ChoiceField(choices=["pending", "running", "done", "failed", "skipped"])


class SharedTabOutput(serializers.Serializer[Any]):
    """A tab the user shared with the message that started the run."""

    id = serializers.CharField()
    title = serializers.CharField()
    url = serializers.CharField()


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
    plan = serializers.SerializerMethodField()
    queue_position = serializers.SerializerMethodField()
    shared_tabs = serializers.SerializerMethodField()
    started_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    model_calls = serializers.SerializerMethodField()
    trace_url = serializers.SerializerMethodField(help_text="The run's Playwright trace (trace.zip); null: none kept.")

    class Meta:
        model = Run
        fields = [
            "id", "conversation", "number", "status", "error", "prompt_tokens", "completion_tokens", "cost_usd",
            "unpriced_calls", "created_at", "started_at", "finished_at", "kind", "plan", "shared_tabs", "queue_position",
            "started_by", "model_calls", "trace_url",
        ]  # fmt: skip

    def get_model_calls(self, obj: Run) -> int:
        """How many times the run called the model (what "What the model saw" would show)."""
        if hasattr(obj, "model_call_count"):  # annotated by the list selectors
            return int(obj.model_call_count)
        return obj.model_calls.count()

    def get_trace_url(self, obj: Run) -> str | None:
        return reverse("run-trace", args=[obj.pk]) if obj.trace else None

    def get_queue_position(self, obj: Run) -> int | None:
        known: int | None = getattr(obj, "known_queue_position", None)  # counted where the run was created
        if known is not None and obj.status == Run.Status.QUEUED:
            return known
        return run_queue_position(run=obj)

    @extend_schema_field(PlanStepOutput(many=True))
    def get_plan(self, obj: Run) -> list[PlanStepPayload]:
        return list(obj.metadata.get("plan") or [])

    @extend_schema_field(SharedTabOutput(many=True))
    def get_shared_tabs(self, obj: Run) -> list[SharedTabRef]:
        return list(obj.metadata.get("shared_tabs") or [])


# A run's and a step's live events are shaped several times per action. DRF builds a serializer's fields anew for each
# instance, ten times the cost of shaping the row itself, so the events use one instance of each (they keep no state
# from one call to the next).
_RUN_SHAPE = RunOutput()
_STEP_SHAPE = StepOutput()


def run_shape(run: Run) -> dict[str, Any]:
    """What `RunOutput(run).data` gives, from one serializer built once: DRF builds a serializer's fields for every
    instance, which costs more than the run's own shape (live events, and the answers to requests that create one)."""
    return dict(_RUN_SHAPE.to_representation(run))


def step_shape(step: Step) -> dict[str, Any]:
    """What `StepOutput(step).data` gives, for the live events."""
    return dict(_STEP_SHAPE.to_representation(step))


class ConfirmationOutput(serializers.ModelSerializer[Confirmation]):
    decided_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Confirmation
        fields = [
            "id", "run", "step", "action", "arguments", "reason", "url", "status", "decided_by",
            "created_at", "expires_at", "decided_at",
        ]  # fmt: skip


class ModelCallOutput(serializers.ModelSerializer[ModelCall]):
    class Meta:
        model = ModelCall
        fields = [
            "index", "request", "response", "duration_ms", "model", "provider", "prompt_tokens", "completion_tokens",
            "cached_tokens", "cost_usd", "created_at",
        ]  # fmt: skip


class RunWithStepsOutput(RunOutput):
    steps = StepOutput(many=True, read_only=True)
    confirmations = ConfirmationOutput(many=True, read_only=True)

    class Meta(RunOutput.Meta):
        fields = [*RunOutput.Meta.fields, "steps", "confirmations"]
