"""The SKILL library for users: read-only, plus each conversation's own switch per SKILL."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.selectors import conversation_get
from webapp.skills.selectors import conversation_skill_get, conversation_skill_list, skill_list
from webapp.skills.services import conversation_skill_set


class SkillToolOutput(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    input_schema = serializers.JSONField()
    annotations = serializers.JSONField()


class SkillOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.CharField()
    description = serializers.CharField()
    match_patterns = serializers.ListField(child=serializers.CharField())
    priority = serializers.IntegerField()
    tools = SkillToolOutput(many=True)


class ConversationSkillOutput(SkillOutput):
    enabled_here = serializers.BooleanField()


class StrictBooleanField(serializers.BooleanField):
    """Only JSON true or false: "no" or 0 are refused rather than guessed at."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class ConversationSkillInput(serializers.Serializer):
    enabled = StrictBooleanField()


class SkillListApi(APIView):
    @extend_schema(responses={200: SkillOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(SkillOutput(skill_list(), many=True).data)


class ConversationSkillListApi(APIView):
    @extend_schema(responses={200: ConversationSkillOutput(many=True)})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(ConversationSkillOutput(conversation_skill_list(conversation=conversation), many=True).data)


class ConversationSkillDetailApi(APIView):
    @extend_schema(request=ConversationSkillInput, responses={200: ConversationSkillOutput})
    def post(self, request: Request, conversation_id: int, skill_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        skill = conversation_skill_get(conversation=conversation, skill_id=skill_id)
        data = ConversationSkillInput(data=request.data)
        data.is_valid(raise_exception=True)
        conversation_skill_set(conversation=conversation, skill=skill, enabled=data.validated_data["enabled"])
        skill = conversation_skill_get(conversation=conversation, skill_id=skill_id)
        return Response(ConversationSkillOutput(skill).data)
