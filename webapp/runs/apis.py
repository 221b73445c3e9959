"""Runs, their steps, abort, step screenshots and recordings."""

from __future__ import annotations

from django.http import FileResponse, HttpResponse
from django.urls import reverse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.file_apis import AnyAccept
from webapp.conversations.selectors import conversation_get
from webapp.core.users import request_user
from webapp.runs.recordings import recording_frame, recording_frames, recording_of
from webapp.runs.selectors import confirmation_get, model_call_list, run_get, run_list, step_get
from webapp.runs.serializers import ConfirmationOutput, ModelCallOutput, RunOutput, RunWithStepsOutput, run_shape
from webapp.runs.services import confirmation_answer, run_abort
from webapp.runs.traces import TRACE_NAME


class RunListApi(APIView):
    @extend_schema(responses={200: RunWithStepsOutput(many=True)})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(RunWithStepsOutput(run_list(conversation=conversation), many=True).data)


class RunDetailApi(APIView):
    @extend_schema(responses={200: RunWithStepsOutput})
    def get(self, request: Request, run_id: int) -> Response:
        return Response(RunWithStepsOutput(run_get(user=request.user, run_id=run_id)).data)


class RunAbortApi(APIView):
    @extend_schema(request=None, responses={202: RunOutput})
    def post(self, request: Request, run_id: int) -> Response:
        run = run_abort(run=run_get(user=request.user, run_id=run_id, need="controller"))
        return Response(run_shape(run), status=status.HTTP_202_ACCEPTED)


class StepScreenshotApi(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="The step's screenshot (JPEG)")})
    def get(self, request: Request, step_id: int) -> FileResponse:
        step = step_get(user=request.user, step_id=step_id)
        if not step.screenshot:
            raise NotFound("This step has no screenshot.")
        return FileResponse(step.screenshot.open("rb"), content_type="image/jpeg")


class RunTraceApi(APIView):
    """The run as a Playwright trace, for Playwright's Trace Viewer (`playwright show-trace trace.zip`)."""

    content_negotiation_class = AnyAccept

    @extend_schema(
        responses={
            (200, "application/zip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The trace, as an attachment named trace.zip."
            )
        }
    )
    def get(self, request: Request, run_id: int) -> FileResponse:
        run = run_get(user=request.user, run_id=run_id)
        if not run.trace:
            raise NotFound("This run has no trace.")
        response = FileResponse(run.trace.open("rb"), content_type="application/zip")
        response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=TRACE_NAME)
        response["X-Content-Type-Options"] = "nosniff"
        response["Cache-Control"] = "private, no-store"
        return response


class RunRecordingApi(APIView):
    """A run's recording to watch again: its frames in order, when each was captured and the step it shows."""

    @extend_schema(
        responses={
            200: inline_serializer(
                "RunRecording",
                {
                    "run": serializers.IntegerField(),
                    "bytes": serializers.IntegerField(),
                    "truncated": serializers.BooleanField(),
                    "frames": serializers.ListField(child=serializers.DictField()),
                },
            )
        }
    )
    def get(self, request: Request, run_id: int) -> Response:
        run = run_get(user=request.user, run_id=run_id)  # viewers too, as for the run's steps
        recording = recording_of(run=run)
        if recording is None:
            raise NotFound("This run has no recording.")
        url = reverse("run-recording-frame", args=[run.pk, 0]).replace("/0/", "/{n}/")
        frames = recording_frames(recording=recording, frame_url=url)
        return Response({"run": run.pk, "bytes": recording.bytes, "truncated": recording.truncated, "frames": frames})


class RunRecordingFrameApi(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="One frame of the run's recording (JPEG)")})
    def get(self, request: Request, run_id: int, n: int) -> HttpResponse:
        run = run_get(user=request.user, run_id=run_id)
        recording = recording_of(run=run)
        data = recording_frame(recording=recording, n=n) if recording is not None else None
        if data is None:
            raise NotFound("This run's recording has no such frame.")
        response = HttpResponse(data, content_type="image/jpeg")
        response["Cache-Control"] = "private, max-age=3600"  # a recorded frame never changes
        return response


class RunDebugApi(APIView):
    """What the model saw: the exact payloads sent for this run, and the tabs shared with it."""

    @extend_schema(
        responses={
            200: inline_serializer(
                "RunDebug",
                {
                    "run": serializers.IntegerField(),
                    "shared_tabs": serializers.ListField(),
                    "model_calls": ModelCallOutput(many=True),
                },
            )
        }
    )
    def get(self, request: Request, run_id: int) -> Response:
        # The exact payloads can hold the owner's notes and personas: the owner only.
        run = run_get(user=request.user, run_id=run_id, need="owner")
        return Response(
            {
                "run": run.pk,
                "shared_tabs": run.metadata.get("shared_tabs", []),
                "model_calls": ModelCallOutput(model_call_list(run=run), many=True).data,
            }
        )


class ConfirmationAnswerInput(serializers.Serializer):
    approve = serializers.BooleanField()


class ConfirmationAnswerApi(APIView):
    @extend_schema(request=ConfirmationAnswerInput, responses={200: ConfirmationOutput})
    def post(self, request: Request, confirmation_id: int) -> Response:
        confirmation = confirmation_get(user=request.user, confirmation_id=confirmation_id, need="controller")
        data = ConfirmationAnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        confirmation = confirmation_answer(
            confirmation=confirmation, user=request_user(request), approve=data.validated_data["approve"]
        )
        return Response(ConfirmationOutput(confirmation).data)
