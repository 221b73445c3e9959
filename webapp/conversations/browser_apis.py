"""A conversation's browser by hand: its tabs and actions run from the dashboard."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from browser_pool.actions import ACTIONS, validate_arguments
from webapp.conversations.browser_selectors import browser_session_tabs, tab_content_get
from webapp.conversations.browser_services import tab_content_remove
from webapp.conversations.live import tab_content_request
from webapp.conversations.selectors import conversation_get
from webapp.core.throttles import WriteThrottle
from webapp.core.users import request_user
from webapp.runs.serializers import RunOutput, run_shape
from webapp.runs.services import RUN_ACTION_TASK, run_create_for_action


class TabOutput(serializers.Serializer):
    id = serializers.CharField()
    title = serializers.CharField()
    url = serializers.CharField()
    favicon = serializers.CharField()
    active = serializers.BooleanField()


class TabListApi(APIView):
    @extend_schema(responses={200: TabOutput(many=True)})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(browser_session_tabs(conversation=conversation))


class TabContentOutput(serializers.Serializer):
    tab_id = serializers.CharField()
    title = serializers.CharField()
    url = serializers.CharField()
    content = serializers.CharField()
    method = serializers.CharField()
    length = serializers.IntegerField()
    truncated = serializers.BooleanField()
    reason = serializers.CharField()
    extracted_at = serializers.DateTimeField(allow_null=True)


class TabContentApi(APIView):
    """A tab in the conversation's context: add it (or read it again), see what was read, take it out."""

    @extend_schema(responses={200: TabContentOutput})
    def get(self, request: Request, conversation_id: int, tab_id: str) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(TabContentOutput(tab_content_get(conversation=conversation, tab_id=tab_id)).data)

    @extend_schema(request=None, responses={202: inline_serializer("Reading", {"detail": serializers.CharField()})})
    def post(self, request: Request, conversation_id: int, tab_id: str) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="controller")
        known = {str(tab.get("id")) for tab in browser_session_tabs(conversation=conversation)}
        if tab_id not in known:
            raise NotFound("No such tab in this conversation's browser.")
        tab_content_request(conversation_id=conversation.pk, tab_id=tab_id)
        return Response({"detail": "Reading the tab; its content arrives as a tab.content event."}, status=202)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, conversation_id: int, tab_id: str) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="controller")
        tab_content_remove(conversation=conversation, tab_id=tab_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ActionInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=sorted(ACTIONS))
    arguments = serializers.DictField(required=False, default=dict)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        invalid = validate_arguments(str(attrs["action"]), attrs["arguments"])
        if invalid is not None:
            raise serializers.ValidationError({"arguments": [invalid.error, invalid.suggestion]})
        return attrs


class ActionApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "actions"

    @extend_schema(request=ActionInput, responses={202: RunOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="controller")
        data = ActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        run = run_create_for_action(
            conversation=conversation,
            started_by=request_user(request),
            action=data.validated_data["action"],
            arguments=data.validated_data["arguments"],
        )
        return Response(run_shape(run), status=status.HTTP_202_ACCEPTED)


__all__ = ["RUN_ACTION_TASK", "ActionApi", "TabListApi"]
