"""Sharing a conversation with teammates (by username or an expiring link), and the browser's controls."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.selectors import conversation_get
from webapp.conversations.serializers import ConversationOutput
from webapp.core.users import request_user
from webapp.sharing.control import control_holder, control_release, control_take
from webapp.sharing.models import Share
from webapp.sharing.selectors import access_of, share_get, share_link_get, share_list
from webapp.sharing.services import (
    LINK_MAX_MINUTES,
    share_create,
    share_link_accept,
    share_link_create,
    share_revoke,
    share_update,
)


class ShareOutput(serializers.ModelSerializer[Share]):
    kind = serializers.SerializerMethodField()
    user = serializers.CharField(source="user.username", default=None)
    created_by = serializers.CharField(source="created_by.username")
    expired = serializers.SerializerMethodField()

    class Meta:
        model = Share
        fields = [
            "id", "conversation", "kind", "user", "role", "token", "via_link", "expires_at", "expired", "created_by",
            "created_at",
        ]  # fmt: skip

    def get_kind(self, obj: Share) -> str:
        return "link" if obj.is_link else "user"

    def get_expired(self, obj: Share) -> bool:
        return obj.expires_at is not None and obj.expires_at <= timezone.now()


class ShareInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Share.Role.choices, default=Share.Role.VIEWER)


class ShareRoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Share.Role.choices)


class ShareLinkInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Share.Role.choices, default=Share.Role.VIEWER)
    expires_in_minutes = serializers.IntegerField(min_value=1, max_value=LINK_MAX_MINUTES, default=24 * 60)


class ShareListApi(APIView):
    @extend_schema(responses={200: ShareOutput(many=True)})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        return Response(ShareOutput(share_list(conversation=conversation), many=True).data)

    @extend_schema(request=ShareInput, responses={201: ShareOutput, 200: ShareOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        data = ShareInput(data=request.data)
        data.is_valid(raise_exception=True)
        share, created = share_create(
            conversation=conversation, created_by=request_user(request), **data.validated_data
        )
        return Response(ShareOutput(share).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ShareDetailApi(APIView):
    @extend_schema(request=ShareRoleInput, responses={200: ShareOutput})
    def patch(self, request: Request, conversation_id: int, share_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        share = share_get(conversation=conversation, share_id=share_id)
        data = ShareRoleInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(ShareOutput(share_update(share=share, role=data.validated_data["role"])).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, conversation_id: int, share_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        share_revoke(share=share_get(conversation=conversation, share_id=share_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ShareLinkCreateApi(APIView):
    @extend_schema(request=ShareLinkInput, responses={201: ShareOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        data = ShareLinkInput(data=request.data)
        data.is_valid(raise_exception=True)
        link = share_link_create(conversation=conversation, created_by=request_user(request), **data.validated_data)
        return Response(ShareOutput(link).data, status=status.HTTP_201_CREATED)


ShareLinkPreview = inline_serializer(
    "ShareLinkPreview",
    {
        "conversation": serializers.IntegerField(),
        "title": serializers.CharField(),
        "owner": serializers.CharField(),
        "role": serializers.CharField(),
        "expires_at": serializers.DateTimeField(),
    },
)


class ShareLinkApi(APIView):
    """What a link opens (for the page that asks the teammate to accept it)."""

    @extend_schema(responses={200: ShareLinkPreview})
    def get(self, request: Request, token: str) -> Response:
        link = share_link_get(token=token)
        return Response(
            {
                "conversation": link.conversation_id,
                "title": link.conversation.title,
                "owner": link.conversation.owner.get_username(),
                "role": link.role,
                "expires_at": link.expires_at,
            }
        )


class ShareLinkAcceptApi(APIView):
    @extend_schema(request=None, responses={200: ConversationOutput})
    def post(self, request: Request, token: str) -> Response:
        conversation = share_link_accept(token=token, user=request_user(request))
        return Response(ConversationOutput(conversation_get(user=request.user, conversation_id=conversation.pk)).data)


class ControlInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=["take", "release"])


ControlOutput = inline_serializer("Control", {"holder": serializers.CharField(allow_null=True)})


class ControlApi(APIView):
    """Take the live browser's controls (the agent pauses after its current step) or hand them back."""

    @extend_schema(responses={200: ControlOutput})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        holder = control_holder(conversation_id=conversation.pk)
        return Response({"holder": holder["username"] if holder else None})

    @extend_schema(request=ControlInput, responses={200: ControlOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        data = ControlInput(data=request.data)
        data.is_valid(raise_exception=True)
        access = access_of(conversation)
        if data.validated_data["action"] == "take":
            holder = control_take(conversation_id=conversation.pk, user=request_user(request), access=access)
            return Response({"holder": holder["username"]})
        control_release(conversation_id=conversation.pk, user=request_user(request), access=access)
        return Response({"holder": None})
