"""The Tool Inspector: the active tab's WebMCP tools (the page's and SKILLs'), and calling one by hand."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.browser_selectors import browser_session_tools
from webapp.conversations.selectors import conversation_get
from webapp.core.throttles import WriteThrottle
from webapp.core.users import request_user
from webapp.runs.serializers import RunOutput, run_shape
from webapp.runs.services import run_create_for_tool_call


class ToolListApi(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "WebTools",
                {
                    "tab": serializers.CharField(allow_null=True),
                    "tools": serializers.ListField(),
                    "skills": serializers.ListField(),
                },
            )
        }
    )
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(browser_session_tools(conversation=conversation))


class ToolCallInput(serializers.Serializer):
    name = serializers.RegexField(r"^[A-Za-z0-9_.-]{1,128}$", error_messages={"invalid": "Not a WebMCP tool name."})
    arguments = serializers.DictField(required=False, default=dict)


class ToolCallApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "tool_calls"

    @extend_schema(request=ToolCallInput, responses={202: RunOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="controller")
        data = ToolCallInput(data=request.data)
        data.is_valid(raise_exception=True)
        known = {
            tool["name"] for tool in browser_session_tools(conversation=conversation)["tools"] if not tool["shadowed"]
        }
        if data.validated_data["name"] not in known:
            return Response(
                {"detail": f"The page offers no tool named {data.validated_data['name']!r} right now."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        run = run_create_for_tool_call(
            conversation=conversation,
            started_by=request_user(request),
            name=data.validated_data["name"],
            arguments=data.validated_data["arguments"],
        )
        return Response(run_shape(run), status=status.HTTP_202_ACCEPTED)
