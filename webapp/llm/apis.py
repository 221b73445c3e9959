"""Model profiles: the user's models. API keys go in, never come out."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.llm.providers import PROVIDERS
from webapp.core.types import JsonObject
from webapp.core.users import request_user
from webapp.llm.connection import connection_check
from webapp.llm.models import ModelProfile
from webapp.llm.selectors import (
    base_url_problem,
    model_config_from_profile,
    model_profile_get,
    model_profile_list,
    server_default_summary,
)
from webapp.llm.services import model_profile_create, model_profile_delete, model_profile_update


class ModelProfileOutput(serializers.ModelSerializer[ModelProfile]):
    has_api_key = serializers.BooleanField(read_only=True)

    class Meta:
        model = ModelProfile
        fields = [
            "id", "name", "provider", "base_url", "model", "has_api_key", "supports_tools", "supports_vision",
            "parallel_tool_calls", "embedding_model", "fallback", "price_input_per_mtok", "price_output_per_mtok",
            "created_at", "updated_at",
        ]  # fmt: skip


class ModelProfileInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    provider = serializers.ChoiceField(choices=ModelProfile.Provider.choices, default=ModelProfile.Provider.CUSTOM)
    base_url = serializers.URLField(max_length=500)
    model = serializers.CharField(max_length=200)
    api_key = serializers.CharField(max_length=500, required=False, allow_blank=True, write_only=True)
    supports_tools = serializers.BooleanField(required=False)
    supports_vision = serializers.BooleanField(required=False)
    parallel_tool_calls = serializers.BooleanField(required=False)
    embedding_model = serializers.CharField(max_length=200, required=False, allow_blank=True)
    fallback = serializers.IntegerField(required=False, allow_null=True)
    # US dollars per million tokens, both or neither; null goes back to the price table's.
    price_input_per_mtok = serializers.DecimalField(
        max_digits=12, decimal_places=6, min_value=Decimal(0), required=False, allow_null=True
    )
    price_output_per_mtok = serializers.DecimalField(
        max_digits=12, decimal_places=6, min_value=Decimal(0), required=False, allow_null=True
    )

    def validate_base_url(self, value: str) -> str:
        problem = base_url_problem(value)
        if problem is not None:
            raise serializers.ValidationError(problem)
        return value


def _fallback(request: Request, data: JsonObject) -> Any:
    if "fallback" not in data:
        return ...
    if data["fallback"] is None:
        return None
    return model_profile_get(user=request.user, profile_id=data["fallback"])


class ModelProfileListApi(APIView):
    @extend_schema(responses={200: ModelProfileOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ModelProfileOutput(model_profile_list(user=request.user), many=True).data)

    @extend_schema(request=ModelProfileInput, responses={201: ModelProfileOutput})
    def post(self, request: Request) -> Response:
        data = ModelProfileInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fallback = _fallback(request, fields)
        fields.pop("fallback", None)
        preset = PROVIDERS.get(fields["provider"])
        if preset is not None:  # capabilities the user did not state come from the provider's preset
            fields.setdefault("supports_tools", preset.supports_tools)
            fields.setdefault("supports_vision", preset.supports_vision)
            fields.setdefault("parallel_tool_calls", preset.parallel_tool_calls)
        profile = model_profile_create(
            owner=request_user(request), fallback=None if fallback is ... else fallback, **fields
        )
        return Response(ModelProfileOutput(profile).data, status=status.HTTP_201_CREATED)


class ModelProfileDetailApi(APIView):
    @extend_schema(responses={200: ModelProfileOutput})
    def get(self, request: Request, profile_id: int) -> Response:
        return Response(ModelProfileOutput(model_profile_get(user=request.user, profile_id=profile_id)).data)

    @extend_schema(request=ModelProfileInput, responses={200: ModelProfileOutput})
    def patch(self, request: Request, profile_id: int) -> Response:
        profile = model_profile_get(user=request.user, profile_id=profile_id)
        data = ModelProfileInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fallback = _fallback(request, fields)
        fields.pop("fallback", None)
        profile = model_profile_update(profile=profile, fallback=fallback, **fields)
        return Response(ModelProfileOutput(profile).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, profile_id: int) -> Response:
        model_profile_delete(profile=model_profile_get(user=request.user, profile_id=profile_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ModelProfileTestApi(APIView):
    @extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "ConnectionCheck",
                {
                    "ok": serializers.BooleanField(),
                    "detail": serializers.CharField(),
                    "latency_ms": serializers.IntegerField(),
                },
            )
        },
    )
    def post(self, request: Request, profile_id: int) -> Response:
        profile = model_profile_get(user=request.user, profile_id=profile_id)
        check = connection_check(model_config_from_profile(profile))
        return Response({"ok": check.ok, "detail": check.detail, "latency_ms": check.latency_ms})


class ProviderListApi(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "Providers",
                {"providers": serializers.ListField(), "server_default": serializers.DictField(allow_null=True)},
            )
        }
    )
    def get(self, request: Request) -> Response:
        providers = [
            {
                "id": key,
                "label": preset.label,
                "base_url": preset.base_url,
                "supports_tools": preset.supports_tools,
                "supports_vision": preset.supports_vision,
                "parallel_tool_calls": preset.parallel_tool_calls,
            }
            for key, preset in PROVIDERS.items()
        ]
        return Response({"providers": providers, "server_default": server_default_summary()})
