"""Runs, their steps, abort, and step screenshots."""

from __future__ import annotations

from django.http import FileResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.selectors import conversation_get
from webapp.runs.selectors import run_get, run_list, step_get
from webapp.runs.serializers import RunOutput, RunWithStepsOutput
from webapp.runs.services import run_abort


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
        run = run_abort(run=run_get(user=request.user, run_id=run_id))
        return Response(RunOutput(run).data, status=status.HTTP_202_ACCEPTED)


class StepScreenshotApi(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="The step's screenshot (JPEG)")})
    def get(self, request: Request, step_id: int) -> FileResponse:
        step = step_get(user=request.user, step_id=step_id)
        if not step.screenshot:
            raise NotFound("This step has no screenshot.")
        return FileResponse(step.screenshot.open("rb"), content_type="image/jpeg")
