"""The vault over REST, its owner's only: list by name, add, edit (values replaced, never shown), delete. No answer
ever holds a value: a credential is read as its name, the names of its fields and its origins."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.core.throttles import WriteThrottle
from webapp.core.users import request_user
from webapp.vault.models import VaultCredential
from webapp.vault.selectors import vault_get, vault_list
from webapp.vault.services import (
    MAX_VALUE,
    OTP,
    PASSWORD,
    USERNAME,
    vault_credential_create,
    vault_credential_delete,
    vault_credential_update,
)


class VaultCredentialOutput(serializers.ModelSerializer[VaultCredential]):
    fields = serializers.ListField(  # type: ignore[assignment]
        child=serializers.CharField(),
        read_only=True,
        help_text="The fields it holds, as the agent names them in placeholders: {{name.field}} ('otp' is the "
        "one-time code computed from its TOTP secret). Never their values.",
    )
    origins = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = VaultCredential
        fields = ["id", "name", "fields", "origins", "created_at", "updated_at"]


def _value(help_text: str) -> serializers.CharField:
    return serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, max_length=MAX_VALUE, write_only=True,
        help_text=help_text,
    )  # fmt: skip


class VaultCredentialInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="Letters, digits and '_', e.g. github.")
    origins = serializers.ListField(
        child=serializers.CharField(max_length=300),
        max_length=50,
        help_text="Where its values may be typed: scheme://host[:port], e.g. https://github.com.",
    )
    username = _value("The user name to type for {{name.username}}.")
    password = _value("The password to type for {{name.password}}.")
    totp_secret = _value(
        "The TOTP secret (base32, or an otpauth:// address) from which {{name.otp}} is computed when it is typed; "
        "empty removes it."
    )
    secrets = serializers.DictField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_VALUE),
        required=False,
        write_only=True,
        help_text="Other secrets by name ({{name.api_key}}); an empty value removes one.",
    )

    def values(self) -> dict[str, str]:
        data = self.validated_data
        given = {USERNAME: data.get("username"), PASSWORD: data.get("password"), OTP: data.get("totp_secret")}
        return {field: value for field, value in given.items() if value is not None} | dict(data.get("secrets", {}))


class VaultCredentialPatchInput(VaultCredentialInput):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class VaultListApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "actions"

    @extend_schema(responses={200: VaultCredentialOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(VaultCredentialOutput(vault_list(owner_id=request_user(request).pk), many=True).data)

    @extend_schema(request=VaultCredentialInput, responses={201: VaultCredentialOutput})
    def post(self, request: Request) -> Response:
        data = VaultCredentialInput(data=request.data)
        data.is_valid(raise_exception=True)
        credential = vault_credential_create(
            owner=request_user(request),
            name=data.validated_data["name"],
            values=data.values(),
            origins=data.validated_data["origins"],
        )
        return Response(VaultCredentialOutput(credential).data, status=status.HTTP_201_CREATED)


class VaultDetailApi(APIView):
    @extend_schema(responses={200: VaultCredentialOutput})
    def get(self, request: Request, vault_credential_id: int) -> Response:
        credential = vault_get(owner_id=request_user(request).pk, credential_id=vault_credential_id)
        return Response(VaultCredentialOutput(credential).data)

    @extend_schema(request=VaultCredentialPatchInput, responses={200: VaultCredentialOutput})
    def patch(self, request: Request, vault_credential_id: int) -> Response:
        credential = vault_get(owner_id=request_user(request).pk, credential_id=vault_credential_id)
        data = VaultCredentialPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        updated = vault_credential_update(
            credential=credential,
            name=data.validated_data.get("name"),
            values=data.values(),
            origins=data.validated_data.get("origins"),
        )
        return Response(VaultCredentialOutput(updated).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, vault_credential_id: int) -> Response:
        credential = vault_get(owner_id=request_user(request).pk, credential_id=vault_credential_id)
        vault_credential_delete(credential=credential)
        return Response(status=status.HTTP_204_NO_CONTENT)
