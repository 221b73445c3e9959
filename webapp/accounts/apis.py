"""Sign up, sign in, sign out, who am I, and personal API tokens."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.accounts.services import api_token_revoke, api_token_rotate, user_create
from webapp.core.throttles import WriteThrottle
from webapp.core.users import request_user


class UserOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class CredentialsInput(serializers.Serializer):
    username = serializers.RegexField(
        r"^[\w.@+-]+$",
        max_length=150,
        error_messages={"invalid": "Use letters, digits and @/./+/-/_ only."},
    )
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class SignupInput(CredentialsInput):
    invite = serializers.CharField(required=False, allow_blank=True, max_length=200)


@method_decorator(ensure_csrf_cookie, name="dispatch")
class CsrfApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={204: None})
    def get(self, request: Request) -> Response:
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignupApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "signup"

    permission_classes = [AllowAny]

    @extend_schema(request=SignupInput, responses={201: UserOutput})
    def post(self, request: Request) -> Response:
        mode = settings.HIVE_SIGNUP
        if mode == "closed":
            return Response(
                {"detail": "Sign-up is closed on this server; ask an administrator for an account."},
                status=status.HTTP_403_FORBIDDEN,
            )
        data = SignupInput(data=request.data)
        data.is_valid(raise_exception=True)
        if mode == "invite" and data.validated_data.get("invite") not in settings.HIVE_SIGNUP_INVITES:
            return Response(
                {"detail": "This server signs up by invitation: give the invitation code you were sent."},
                status=status.HTTP_403_FORBIDDEN,
            )
        user = user_create(username=data.validated_data["username"], password=data.validated_data["password"])
        login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
        return Response(UserOutput(user).data, status=status.HTTP_201_CREATED)


class LoginApi(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "login"

    permission_classes = [AllowAny]

    @extend_schema(request=CredentialsInput, responses={200: UserOutput})
    def post(self, request: Request) -> Response:
        data = CredentialsInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request._request, **data.validated_data)
        if getattr(request._request, "axes_locked_out", False):
            minutes = round(float(settings.AXES_COOLOFF_TIME) * 60)
            return Response(
                {
                    "detail": f"Too many failed sign-ins for this account from your address; try again in {minutes} minutes."
                },
                status=status.HTTP_429_TOO_MANY_REQUESTS,
            )
        if user is None:
            return Response({"detail": "Wrong username or password."}, status=status.HTTP_400_BAD_REQUEST)
        login(request._request, user)
        return Response(UserOutput(user).data)


class LogoutApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    @extend_schema(responses={200: UserOutput})
    def get(self, request: Request) -> Response:
        return Response(UserOutput(request.user).data)


class TokenOutput(serializers.Serializer):
    token = serializers.CharField(help_text="Shown this once: only a hash of it is kept.")
    expires_at = serializers.DateTimeField(allow_null=True)


class TokenApi(APIView):
    @extend_schema(request=None, responses={201: TokenOutput})
    def post(self, request: Request) -> Response:
        instance, key = api_token_rotate(user=request_user(request))
        return Response(TokenOutput({"token": key, "expires_at": instance.expiry}).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None})
    def delete(self, request: Request) -> Response:
        api_token_revoke(user=request_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
