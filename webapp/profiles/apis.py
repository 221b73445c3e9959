"""Browser profiles over REST: list, import, rename, forget an origin, export (the owner's only), share; and which
profile a conversation's browser starts from, or a conversation's browser saved as a profile."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.selectors import conversation_get
from webapp.core.throttles import WriteThrottle
from webapp.core.types import JsonObject
from webapp.core.users import request_user
from webapp.profiles.capture import profile_capture
from webapp.profiles.models import BrowserProfile, ProfileShare, ProfileUse
from webapp.profiles.selectors import Holder, profile_get, profile_holder, profile_list, profile_state, profile_use_get
from webapp.profiles.services import (
    profile_delete,
    profile_forget_origin,
    profile_import,
    profile_rename,
    profile_share,
    profile_share_delete,
    profile_store,
    profile_use_clear,
    profile_use_set,
)

MODES = [("read-write", "saves back what changes"), ("read-only", "starts from it, saves nothing back")]


class OriginOutput(serializers.Serializer):
    origin = serializers.CharField(help_text="scheme://host[:port]; cookies are counted with their host")
    cookies = serializers.IntegerField()
    local_storage = serializers.IntegerField(help_text="local storage items")
    indexed_db = serializers.IntegerField(help_text="IndexedDB databases")


class HolderOutput(serializers.Serializer):
    username = serializers.CharField(help_text="who chose the profile for the session writing it")
    conversation = serializers.IntegerField()


class ProfileOutput(serializers.ModelSerializer[BrowserProfile]):
    """A profile read through `profile_list`/`profile_get` (which say the reader's `access`): names and counts only,
    never a cookie or a stored value."""

    owner: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    access = serializers.CharField(read_only=True, help_text="owner, controller or viewer")
    origins = OriginOutput(many=True, read_only=True)
    in_use = serializers.SerializerMethodField(help_text="The session writing it now, if any.")

    class Meta:
        model = BrowserProfile
        fields = [
            "id", "name", "owner", "access", "origins", "size", "saved_at", "last_used_at", "in_use", "created_at",
            "updated_at",
        ]  # fmt: skip

    @extend_schema_field(HolderOutput(allow_null=True))
    def get_in_use(self, obj: BrowserProfile) -> Holder | None:
        return profile_holder(profile=obj)


def _shown(request: Request, profile: BrowserProfile) -> dict[str, Any]:
    return dict(ProfileOutput(profile_get(user=request.user, profile_id=profile.pk)).data)


class ProfileInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    content = serializers.CharField(
        required=False,
        allow_blank=False,
        trim_whitespace=False,
        max_length=2_000_000,
        help_text="A storage-state JSON (Playwright's storage_state()) or a Netscape cookies.txt, as text. Without "
        "it the profile starts empty (a read-write conversation fills it).",
    )
    format = serializers.ChoiceField(choices=["auto", "storage_state", "cookies_txt"], default="auto")
    replace = serializers.BooleanField(default=False, help_text="Replace the state of your profile of that name.")


class ProfileListApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "actions"

    @extend_schema(responses={200: ProfileOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ProfileOutput(profile_list(user=request.user), many=True).data)

    @extend_schema(request=ProfileInput, responses={201: ProfileOutput})
    def post(self, request: Request) -> Response:
        data = ProfileInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = request_user(request)
        if "content" in values:
            profile, _ = profile_import(owner=user, name=values["name"], content=values["content"],
                                        fmt=values["format"], replace=values["replace"])  # fmt: skip
        else:
            empty: JsonObject = {"cookies": [], "origins": []}
            profile = profile_store(owner=user, name=values["name"], state=empty, replace=values["replace"])
        return Response(_shown(request, profile), status=status.HTTP_201_CREATED)


class ProfileRenameInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)


class ProfileDetailApi(APIView):
    @extend_schema(responses={200: ProfileOutput})
    def get(self, request: Request, browser_profile_id: int) -> Response:
        return Response(ProfileOutput(profile_get(user=request.user, profile_id=browser_profile_id)).data)

    @extend_schema(request=ProfileRenameInput, responses={200: ProfileOutput})
    def patch(self, request: Request, browser_profile_id: int) -> Response:
        profile = profile_get(user=request.user, profile_id=browser_profile_id, need="owner")
        data = ProfileRenameInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(_shown(request, profile_rename(profile=profile, name=data.validated_data["name"])))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, browser_profile_id: int) -> Response:
        profile_delete(profile=profile_get(user=request.user, profile_id=browser_profile_id, need="owner"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProfileExportApi(APIView):
    """The profile's cookies and storage as Playwright's storage-state JSON: its owner's only."""

    @extend_schema(responses={(200, "application/json"): dict})
    def get(self, request: Request, browser_profile_id: int) -> HttpResponse:
        profile = profile_get(user=request.user, profile_id=browser_profile_id, need="owner")
        body = json.dumps(profile_state(profile_id=profile.pk), ensure_ascii=False, indent=1)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in profile.name)[:60] or "profile"
        response["Content-Disposition"] = f'attachment; filename="{safe}.storage-state.json"'
        response["Cache-Control"] = "no-store"
        return response


class ForgetInput(serializers.Serializer):
    origin = serializers.CharField(max_length=300, help_text="One of the profile's origins, as listed.")


class ProfileForgetApi(APIView):
    @extend_schema(request=ForgetInput, responses={200: ProfileOutput})
    def post(self, request: Request, browser_profile_id: int) -> Response:
        profile = profile_get(user=request.user, profile_id=browser_profile_id, need="owner")
        data = ForgetInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(_shown(request, profile_forget_origin(profile=profile, origin=data.validated_data["origin"])))


class ProfileShareInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=ProfileShare.Role.choices, default=ProfileShare.Role.VIEWER)


class ProfileShareOutput(serializers.ModelSerializer[ProfileShare]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = ProfileShare
        fields = ["id", "username", "role", "created_at"]


class ProfileShareListApi(APIView):
    """Who else sees the profile (viewer: its name and origins) or starts sessions from it (controller)."""

    @extend_schema(responses={200: ProfileShareOutput(many=True)})
    def get(self, request: Request, browser_profile_id: int) -> Response:
        profile = profile_get(user=request.user, profile_id=browser_profile_id, need="owner")
        return Response(ProfileShareOutput(profile.shares.select_related("user"), many=True).data)

    @extend_schema(request=ProfileShareInput, responses={201: ProfileShareOutput})
    def post(self, request: Request, browser_profile_id: int) -> Response:
        profile = profile_get(user=request.user, profile_id=browser_profile_id, need="owner")
        data = ProfileShareInput(data=request.data)
        data.is_valid(raise_exception=True)
        share = profile_share(profile=profile, **data.validated_data)
        return Response(ProfileShareOutput(share).data, status=status.HTTP_201_CREATED)


class ProfileShareDetailApi(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request: Request, browser_profile_id: int, profile_share_id: int) -> Response:
        profile = profile_get(user=request.user, profile_id=browser_profile_id, need="owner")
        profile_share_delete(share=get_object_or_404(profile.shares.all(), pk=profile_share_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProfileRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()


class ConversationProfileOutput(serializers.Serializer):
    profile = ProfileRefOutput(allow_null=True)
    mode = serializers.ChoiceField(choices=MODES, allow_null=True)
    chosen_by = serializers.CharField(allow_null=True)
    writing = serializers.BooleanField(help_text="This conversation's browser is the profile's writer now.")


def conversation_profile_shown(use: ProfileUse | None) -> dict[str, Any]:
    if use is None:
        return {"profile": None, "mode": None, "chosen_by": None, "writing": False}
    profile = use.profile
    holder = profile_holder(profile=profile)
    return {
        "profile": {"id": profile.pk, "name": profile.name, "owner": profile.owner.username},
        "mode": "read-write" if use.writes else "read-only",
        "chosen_by": use.chosen_by.username,
        "writing": holder is not None and holder["conversation"] == use.conversation_id,
    }


class ConversationProfileInput(serializers.Serializer):
    profile = serializers.IntegerField(help_text="A profile you own, or one shared with you as controller.")
    mode = serializers.ChoiceField(choices=MODES, default="read-write")


class CaptureInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    replace = serializers.BooleanField(default=False, help_text="Replace the state of your profile of that name.")


class ConversationProfileApi(APIView):
    """Which profile the conversation's browser starts from (the owner's setting); or its browser saved as one."""

    @extend_schema(responses={200: ConversationProfileOutput})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response(conversation_profile_shown(profile_use_get(conversation_id=conversation.pk)))

    @extend_schema(request=ConversationProfileInput, responses={200: ConversationProfileOutput})
    def put(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        data = ConversationProfileInput(data=request.data)
        data.is_valid(raise_exception=True)
        profile = profile_get(user=request.user, profile_id=data.validated_data["profile"], need="controller")
        use = profile_use_set(conversation=conversation, profile=profile,
                              writes=data.validated_data["mode"] == "read-write", user=request_user(request))  # fmt: skip
        return Response(conversation_profile_shown(profile_use_get(conversation_id=use.conversation_id)))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, conversation_id: int) -> Response:
        profile_use_clear(conversation=conversation_get(user=request.user, conversation_id=conversation_id,
                                                        need="owner"))  # fmt: skip
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=CaptureInput, responses={201: ProfileOutput})
    def post(self, request: Request, conversation_id: int) -> Response:
        """The browser as it is now (cookies, local storage, IndexedDB) kept as your profile `name`; log in by hand
        on the live view first."""
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need="owner")
        data = CaptureInput(data=request.data)
        data.is_valid(raise_exception=True)
        profile = profile_capture(conversation=conversation, **data.validated_data)
        return Response(_shown(request, profile), status=status.HTTP_201_CREATED)
