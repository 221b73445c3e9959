"""Conversations and their messages."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.models import Conversation
from webapp.conversations.selectors import conversation_get, conversation_list, message_list
from webapp.conversations.serializers import ConversationOutput, MessageOutput
from webapp.conversations.services import conversation_create, conversation_delete, conversation_update, message_send
from webapp.core.throttles import WriteThrottle
from webapp.core.types import JsonObject
from webapp.core.users import request_user
from webapp.llm.selectors import model_profile_get
from webapp.runs.serializers import RunOutput, run_shape


class ConversationInput(serializers.Serializer):
    title = serializers.CharField(max_length=200, required=False, allow_blank=True)
    model_profile = serializers.IntegerField(required=False, allow_null=True)
    show_reasoning = serializers.BooleanField(required=False)
    confirm_mode = serializers.ChoiceField(choices=Conversation.ConfirmMode.choices, required=False)
    trace_runs = serializers.BooleanField(
        required=False, help_text="Keep every run as a Playwright trace (replays and failed runs keep theirs anyway)."
    )


def _resolve_profile(request: Request, fields: JsonObject) -> JsonObject:
    if fields.get("model_profile") is not None:
        fields["model_profile"] = model_profile_get(user=request.user, profile_id=fields["model_profile"])
    return fields


class ConversationListApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "conversations"

    @extend_schema(responses={200: ConversationOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ConversationOutput(conversation_list(user=request.user), many=True).data)

    @extend_schema(request=ConversationInput, responses={201: ConversationOutput})
    def post(self, request: Request) -> Response:
        data = ConversationInput(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = conversation_create(
            owner=request_user(request), **_resolve_profile(request, dict(data.validated_data))
        )
        return Response(ConversationOutput(conversation).data, status=status.HTTP_201_CREATED)


class ConversationDetailApi(APIView):
    @extend_schema(responses={200: ConversationOutput})
    def get(self, request: Request, conversation_id: int) -> Response:
        return Response(ConversationOutput(conversation_get(user=request.user, conversation_id=conversation_id)).data)

    @extend_schema(request=ConversationInput, responses={200: ConversationOutput})
    def patch(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        data = ConversationInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        conversation = conversation_update(
            conversation=conversation, **_resolve_profile(request, dict(data.validated_data))
        )
        return Response(ConversationOutput(conversation).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, conversation_id: int) -> Response:
        conversation_delete(
            conversation=conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class MessageInput(serializers.Serializer):
    # The length limit is the service's (a setting); this cap only keeps absurd bodies out early.
    content = serializers.CharField(max_length=1_000_000, trim_whitespace=False)
    tab_ids = serializers.ListField(child=serializers.CharField(max_length=64), required=False, max_length=50)


class MessageListApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "runs"

    @extend_schema(responses={200: MessageOutput(many=True)})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(MessageOutput(message_list(conversation=conversation), many=True).data)

    @extend_schema(
        request=MessageInput,
        responses={201: inline_serializer("MessageSent", {"message": MessageOutput(), "run": RunOutput()})},
    )
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="controller")
        data = MessageInput(data=request.data)
        data.is_valid(raise_exception=True)
        message, run = message_send(
            conversation=conversation,
            content=data.validated_data["content"],
            tab_ids=data.validated_data.get("tab_ids", []),
            author=request_user(request),
        )
        return Response({"message": MessageOutput(message).data, "run": run_shape(run)}, status=status.HTTP_201_CREATED)
