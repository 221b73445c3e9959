"""What the model cost the signed-in user: per day and model, for the Settings page's Usage section."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.usage.selectors import first_day, usage_by_day

MAX_DAYS = 366


class UsageRowOutput(serializers.Serializer[Any]):
    day = serializers.DateField(help_text="A UTC date.")
    model = serializers.CharField(help_text="The model that answered (a fallback model has rows of its own).")
    provider = serializers.CharField()
    calls = serializers.IntegerField()
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    cached_tokens = serializers.IntegerField(help_text="The part of prompt_tokens read from the provider's cache.")
    tokens = serializers.IntegerField()
    cost_usd = serializers.DecimalField(
        max_digits=18, decimal_places=10, help_text="What the priced calls cost, in US dollars."
    )
    unpriced_calls = serializers.IntegerField(help_text="Calls the price table could not price (price unknown).")


class UsageTotalsOutput(serializers.Serializer[Any]):
    calls = serializers.IntegerField()
    tokens = serializers.IntegerField()
    cost_usd = serializers.DecimalField(max_digits=18, decimal_places=10)
    unpriced_calls = serializers.IntegerField()


class UsageOutput(serializers.Serializer[Any]):
    days = serializers.IntegerField()
    since = serializers.DateField(help_text="The first UTC date counted; the last is today.")
    currency = serializers.CharField()
    rows = UsageRowOutput(many=True)
    total = UsageTotalsOutput()


class UsageInput(serializers.Serializer[Any]):
    days = serializers.IntegerField(min_value=1, max_value=MAX_DAYS, default=30)


class UsageApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("days", int, description=f"How many UTC days back, today included (1–{MAX_DAYS}).")
        ],
        responses={200: UsageOutput},
    )
    def get(self, request: Request) -> Response:
        data = UsageInput(data=request.query_params)
        data.is_valid(raise_exception=True)
        days: int = data.validated_data["days"]
        now = timezone.now()
        rows = usage_by_day(user=request.user, days=days, now=now)
        total = {
            "calls": sum(row.calls for row in rows),
            "tokens": sum(row.tokens for row in rows),
            "cost_usd": sum((row.cost_usd for row in rows), Decimal(0)),
            "unpriced_calls": sum(row.unpriced_calls for row in rows),
        }
        body = {"days": days, "since": first_day(days, now=now), "currency": "USD", "rows": rows, "total": total}
        return Response(UsageOutput(body).data)
