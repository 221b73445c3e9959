"""Workflows over REST: save a run as one, list and read them, run one with parameters."""

from __future__ import annotations

from typing import Any, TypedDict
from urllib.parse import urlsplit

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from browser_pool.types import RecordedTarget
from webapp.conversations.selectors import conversation_get
from webapp.core.exceptions import ApplicationError
from webapp.core.throttles import WriteThrottle
from webapp.core.types import JsonObject
from webapp.core.users import request_user
from webapp.profiles.selectors import profile_get
from webapp.runs.selectors import run_get
from webapp.runs.serializers import RunOutput, run_shape
from webapp.workflows.export import export_script
from webapp.workflows.models import Credential, WebhookDelivery, Workflow, WorkflowSchedule, WorkflowShare
from webapp.workflows.schedules import schedule_create, schedule_delete
from webapp.workflows.selectors import (
    workflow_deliveries,
    workflow_get,
    workflow_latest,
    workflow_list,
    workflow_runs,
    workflow_versions,
)
from webapp.workflows.services import (
    credential_set,
    workflow_delete,
    workflow_run_start,
    workflow_save_from_run,
    workflow_save_from_steps,
    workflow_share,
    workflow_update,
)
from webapp.workflows.steps import Checks, StepOutput, WorkflowStep, as_steps, checks_of
from webapp.workflows.types import Parameter
from webapp.workflows.webhooks import webhook_remove, webhook_set

PROFILE_MODES = [("read-write", "saves back what changes"), ("read-only", "saves nothing back")]


class WorkflowTargetOutput(serializers.Serializer):
    tag = serializers.CharField()
    role = serializers.CharField()
    name = serializers.CharField()


class WorkflowChecksOutput(serializers.Serializer):
    url = serializers.CharField(required=False, help_text="An fnmatch pattern the page's address must match first.")
    navigated = serializers.BooleanField(required=False, help_text="The step must lead to another page.")
    value = serializers.BooleanField(required=False, help_text="The field must hold the value afterwards.")
    gone = serializers.BooleanField(required=False, help_text="The element must be gone afterwards.")


class WorkflowStepResultOutput(serializers.Serializer):
    name = serializers.CharField()
    schema = serializers.DictField(help_text="The JSON schema the extracted data must fit.")


class WorkflowStepOutput(serializers.Serializer):
    action = serializers.CharField()
    arguments = serializers.DictField()
    intent = serializers.CharField()
    url = serializers.CharField(help_text="The page the step was recorded on.")
    target = WorkflowTargetOutput(allow_null=True, help_text="The element it aims at, as recorded.")
    checks = WorkflowChecksOutput()
    output = WorkflowStepResultOutput(
        allow_null=True, help_text="For a step that extracts data: where its result is kept."
    )


class ShownTarget(TypedDict):
    tag: str
    role: str
    name: str


class ShownStep(TypedDict):
    """A workflow step as WorkflowStepOutput shows it: the element it aims at named, not its whole record."""

    action: str
    arguments: JsonObject
    intent: str
    url: str
    target: ShownTarget | None
    checks: Checks
    output: StepOutput | None


def _shown_target(target: RecordedTarget) -> ShownTarget | None:
    if not target:
        return None
    return {"tag": str(target.get("tag") or ""), "role": str(target.get("role") or ""),
            "name": str(target.get("name") or "")}  # fmt: skip


def step_shown(step: WorkflowStep) -> ShownStep:
    return {
        "action": step["action"],
        "arguments": step["arguments"],
        "intent": step.get("intent", ""),
        "url": step.get("url", ""),
        "target": _shown_target(step.get("target") or {}),
        "checks": checks_of(step),
        "output": step.get("output"),
    }


class WorkflowOutput(serializers.ModelSerializer[Workflow]):
    """A workflow read through `workflow_list`/`workflow_get`, which say the reader's `access`."""

    access = serializers.CharField(read_only=True, help_text="owner, controller or viewer")
    owner: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    version = serializers.SerializerMethodField()
    parameters = serializers.SerializerMethodField()
    steps = serializers.SerializerMethodField()
    webhook_url = serializers.SerializerMethodField(
        help_text="Where a replay's end is POSTed (\"\" for nowhere); null for a teammate: a hook's address can be a "
        "secret of its own (a chat hook's), so only the owner sees it."
    )

    class Meta:
        model = Workflow
        fields = [
            "id", "name", "description", "created_at", "updated_at", "version", "parameters", "steps", "webhook_url",
            "access", "owner",
        ]  # fmt: skip

    def get_version(self, obj: Workflow) -> int | None:
        latest = workflow_latest(workflow=obj)
        return latest.number if latest else None

    def get_parameters(self, obj: Workflow) -> list[Parameter]:
        latest = workflow_latest(workflow=obj)
        return list(latest.parameters) if latest else []

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_webhook_url(self, obj: Workflow) -> str | None:
        return obj.webhook_url if getattr(obj, "access", None) == "owner" else None

    @extend_schema_field(WorkflowStepOutput(many=True))
    def get_steps(self, obj: Workflow) -> list[ShownStep]:
        latest = workflow_latest(workflow=obj)
        return [step_shown(s) for s in as_steps(latest.steps if latest else [])]


class SaveInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)


class RunSaveApi(APIView):
    @extend_schema(request=SaveInput, responses={201: WorkflowOutput})
    def post(self, request: Request, run_id: int) -> Response:
        run = run_get(user=request.user, run_id=run_id, need="owner")
        data = SaveInput(data=request.data)
        data.is_valid(raise_exception=True)
        workflow = workflow_save_from_run(run=run, user=request_user(request), name=data.validated_data["name"])
        shown = workflow_get(user=request.user, workflow_id=workflow.pk)
        return Response(WorkflowOutput(shown).data, status=status.HTTP_201_CREATED)


class StepsSaveInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    first_step = serializers.IntegerField(help_text="The id of the first step to keep.")
    last_step = serializers.IntegerField(help_text="The id of the last step to keep.")


class ConversationSaveApi(APIView):
    @extend_schema(request=StepsSaveInput, responses={201: WorkflowOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        data = StepsSaveInput(data=request.data)
        data.is_valid(raise_exception=True)
        workflow = workflow_save_from_steps(
            conversation=conversation,
            user=request_user(request),
            name=data.validated_data["name"],
            first=data.validated_data["first_step"],
            last=data.validated_data["last_step"],
        )
        shown = workflow_get(user=request.user, workflow_id=workflow.pk)
        return Response(WorkflowOutput(shown).data, status=status.HTTP_201_CREATED)


class WorkflowListApi(APIView):
    @extend_schema(responses={200: WorkflowOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(WorkflowOutput(workflow_list(user=request.user), many=True).data)


class WorkflowUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    rename = serializers.DictField(child=serializers.CharField(max_length=40), required=False, help_text="old → new")
    defaults = serializers.DictField(child=serializers.CharField(allow_blank=True), required=False)
    steps = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=500,
        help_text=(
            "The whole list of steps in its new order, written with the parameters' current names. Each: from (the "
            "0-based position of a current step: it keeps that step's element and whatever is not given), action, "
            "arguments, intent, checks, output. A step left out is removed; a new step (no from) aims at no element."
        ),
    )


class WorkflowDetailApi(APIView):
    @extend_schema(responses={200: WorkflowOutput})
    def get(self, request: Request, workflow_id: int) -> Response:
        return Response(WorkflowOutput(workflow_get(user=request.user, workflow_id=workflow_id)).data)

    @extend_schema(request=WorkflowUpdateInput, responses={200: WorkflowOutput})
    def patch(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        data = WorkflowUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        workflow_update(workflow=workflow, **data.validated_data)
        return Response(WorkflowOutput(workflow_get(user=request.user, workflow_id=workflow_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        workflow_delete(workflow=workflow)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RunInput(serializers.Serializer):
    parameters = serializers.DictField(child=serializers.CharField(allow_blank=True), required=False, default=dict)
    conversation = serializers.IntegerField(required=False, help_text="Replay in this conversation's browser.")
    profile = serializers.IntegerField(
        required=False, help_text="Start the browser from this profile (with `conversation`: one of yours)."
    )
    profile_mode = serializers.ChoiceField(choices=PROFILE_MODES, default="read-write")


class WorkflowRunOutput(serializers.Serializer):
    id = serializers.IntegerField()
    conversation = serializers.IntegerField()
    status = serializers.CharField()
    error = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    parameters = serializers.DictField(child=serializers.CharField())
    url = serializers.CharField(help_text="The page the replay ended on.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    prompt_tokens = serializers.IntegerField(help_text="Tokens a healing used; 0 for a replay without the model.")
    outputs = serializers.DictField(help_text="What the extraction steps returned, by output name.")
    downloads = serializers.ListField(
        child=serializers.DictField(),
        help_text="The files its steps downloaded, as GET /api/conversations/<id>/files/ lists them.",
    )


class WorkflowRunApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "runs"

    @extend_schema(responses={200: WorkflowRunOutput(many=True)})
    def get(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id)
        return Response(WorkflowRunOutput(workflow_runs(workflow=workflow, user=request.user), many=True).data)

    @extend_schema(request=RunInput, responses={202: RunOutput})
    def post(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="controller")
        data = RunInput(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = None
        if "conversation" in data.validated_data:
            conversation = conversation_get(
                user=request.user, conversation_id=data.validated_data["conversation"], need="controller"
            )
        profile = None
        if "profile" in data.validated_data:
            profile = profile_get(user=request.user, profile_id=data.validated_data["profile"], need="controller")
        run = workflow_run_start(
            workflow=workflow,
            user=request_user(request),
            parameters=data.validated_data["parameters"],
            conversation=conversation,
            profile=profile,
            profile_writes=data.validated_data["profile_mode"] == "read-write",
        )
        return Response(run_shape(run), status=status.HTTP_202_ACCEPTED)


class WorkflowExportApi(APIView):
    @extend_schema(responses={(200, "text/x-python"): str})
    def get(self, request: Request, workflow_id: int) -> HttpResponse:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="viewer")
        latest = workflow_latest(workflow=workflow)
        if latest is None:
            raise ApplicationError("This workflow has no steps.", status_code=status.HTTP_409_CONFLICT)
        try:
            filename, source = export_script(latest)
        except ValueError as exc:
            raise ApplicationError(str(exc)) from exc
        response = HttpResponse(source, content_type="text/x-python; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class VersionOutput(serializers.Serializer):
    number = serializers.IntegerField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
    source_run = serializers.IntegerField(allow_null=True)
    steps = serializers.IntegerField()
    changes = serializers.ListField(child=serializers.CharField())


class WorkflowVersionListApi(APIView):
    @extend_schema(responses={200: VersionOutput(many=True)})
    def get(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="viewer")
        return Response(VersionOutput(workflow_versions(workflow=workflow), many=True).data)


class WebhookInput(serializers.Serializer):
    url = serializers.URLField(max_length=2000)

    def validate_url(self, value: str) -> str:
        if urlsplit(value).scheme not in ("http", "https"):
            raise serializers.ValidationError("Only http and https addresses.")
        return value


class WebhookApi(APIView):
    """Where a replay's end is reported. Setting it makes a new signing secret, shown this once."""

    @extend_schema(
        request=WebhookInput,
        responses={
            201: inline_serializer("Webhook", {"url": serializers.URLField(), "secret": serializers.CharField()})
        },
    )
    def post(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        data = WebhookInput(data=request.data)
        data.is_valid(raise_exception=True)
        secret = webhook_set(workflow=workflow, url=data.validated_data["url"])
        return Response({"url": workflow.webhook_url, "secret": secret}, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, workflow_id: int) -> Response:
        webhook_remove(workflow=workflow_get(user=request.user, workflow_id=workflow_id, need="owner"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryOutput(serializers.ModelSerializer[WebhookDelivery]):
    class Meta:
        model = WebhookDelivery
        fields = ["id", "run", "url", "status", "attempts", "log", "payload", "created_at", "updated_at"]


class DeliveryListApi(APIView):
    @extend_schema(responses={200: DeliveryOutput(many=True)})
    def get(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        return Response(DeliveryOutput(workflow_deliveries(workflow=workflow), many=True).data)


class ScheduleInput(serializers.Serializer):
    cron = serializers.CharField(max_length=200, help_text="minute hour day-of-month month day-of-week")
    timezone = serializers.CharField(max_length=64, required=False, default="UTC")
    parameters = serializers.DictField(child=serializers.CharField(allow_blank=True), required=False, default=dict)
    confirmations = serializers.ChoiceField(
        choices=["wait", "refuse"],
        default="wait",
        help_text="A step that needs a yes: wait for the owner (told by e-mail and the webhook), or refuse it.",
    )
    profile = serializers.IntegerField(required=False, allow_null=True, help_text="Each replay starts from it.")
    profile_mode = serializers.ChoiceField(choices=PROFILE_MODES, default="read-write")


class ScheduleOutput(serializers.ModelSerializer[WorkflowSchedule]):
    profile_mode = serializers.SerializerMethodField()

    class Meta:
        model = WorkflowSchedule
        fields = [
            "id", "cron", "timezone", "parameters", "confirmations", "profile", "profile_mode", "last_run", "created_at",
        ]  # fmt: skip

    def get_profile_mode(self, obj: WorkflowSchedule) -> str:
        return "read-write" if obj.profile_writes else "read-only"


class ScheduleListApi(APIView):
    @extend_schema(responses={200: ScheduleOutput(many=True)})
    def get(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        return Response(ScheduleOutput(workflow.schedules.all(), many=True).data)

    @extend_schema(request=ScheduleInput, responses={201: ScheduleOutput})
    def post(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        data = ScheduleInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        profile_id, mode = values.pop("profile", None), values.pop("profile_mode")
        profile = profile_get(user=request.user, profile_id=profile_id, need="controller") if profile_id else None
        schedule = schedule_create(workflow=workflow, profile=profile, profile_writes=mode == "read-write", **values)
        return Response(ScheduleOutput(schedule).data, status=status.HTTP_201_CREATED)


class ScheduleDetailApi(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request: Request, workflow_id: int, schedule_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        schedule_delete(schedule=get_object_or_404(workflow.schedules.all(), pk=schedule_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class CredentialInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    value = serializers.CharField(max_length=10_000, trim_whitespace=False)


class CredentialOutput(serializers.ModelSerializer[Credential]):
    """Names only: a value is never shown after saving."""

    class Meta:
        model = Credential
        fields = ["id", "name", "created_at", "updated_at"]


class CredentialListApi(APIView):
    @extend_schema(responses={200: CredentialOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(CredentialOutput(Credential.objects.filter(owner_id=request.user.pk), many=True).data)

    @extend_schema(request=CredentialInput, responses={201: CredentialOutput})
    def post(self, request: Request) -> Response:
        data = CredentialInput(data=request.data)
        data.is_valid(raise_exception=True)
        credential = credential_set(owner=request_user(request), **data.validated_data)
        return Response(CredentialOutput(credential).data, status=status.HTTP_201_CREATED)


class CredentialDetailApi(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request: Request, credential_id: int) -> Response:
        get_object_or_404(Credential.objects.filter(owner_id=request.user.pk), pk=credential_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class WorkflowShareInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=WorkflowShare.Role.choices, default=WorkflowShare.Role.VIEWER)


class WorkflowShareOutput(serializers.ModelSerializer[WorkflowShare]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = WorkflowShare
        fields = ["id", "username", "role", "created_at"]


class WorkflowShareListApi(APIView):
    """Who else sees or runs the workflow (the conversation roles: viewer, controller)."""

    @extend_schema(responses={200: WorkflowShareOutput(many=True)})
    def get(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        return Response(WorkflowShareOutput(workflow.shares.select_related("user"), many=True).data)

    @extend_schema(request=WorkflowShareInput, responses={201: WorkflowShareOutput})
    def post(self, request: Request, workflow_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        data = WorkflowShareInput(data=request.data)
        data.is_valid(raise_exception=True)
        share = workflow_share(workflow=workflow, **data.validated_data)
        return Response(WorkflowShareOutput(share).data, status=status.HTTP_201_CREATED)


class WorkflowShareDetailApi(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request: Request, workflow_id: int, workflow_share_id: int) -> Response:
        workflow = workflow_get(user=request.user, workflow_id=workflow_id, need="owner")
        get_object_or_404(workflow.shares.all(), pk=workflow_share_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
