"""What the model cost, as a user sees it: each logged call's price adds up into its run and conversation, the
usage API sums the caller's own calls per day and model, a profile's own price is used, and the money quota
refuses a new run with a 429 once the server's model cost a user their daily amount."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from webapp.conversations.models import Conversation
from webapp.llm.models import ModelProfile
from webapp.llm.selectors import model_config_from_profile, server_default_model
from webapp.runs.models import ModelCall, Run
from webapp.runs.services import model_call_record, run_finish
from webapp.sharing.services import share_create

pytestmark = pytest.mark.django_db


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def call(
    run: Run, *, model: str = "gpt-4o-mini", cost: str | None = "0.001", prompt: int = 1000, days_ago: int = 0
) -> None:
    """A model call as the worker logs it (the summary agents/llm/client.py makes), made `days_ago` days ago."""
    response = {
        "content": "ok",
        "model": model,
        "provider": "openai",
        "usage": {"prompt_tokens": prompt, "completion_tokens": 100, "cached_tokens": 0},
        "cost_usd": cost,
    }
    logged = model_call_record(run_id=run.pk, request={"model": model}, response=response, duration_ms=5)
    if days_ago:
        ModelCall.objects.filter(pk=logged.pk).update(created_at=timezone.now() - timedelta(days=days_ago))


def finished_run(conversation: Conversation, *calls: dict[str, Any]) -> Run:
    run = Run.objects.create(conversation=conversation, status="running")
    for values in calls:
        call(run, **values)
    return run_finish(run_id=run.pk, status="succeeded")


def test_a_runs_cost_is_its_calls_and_says_how_many_could_not_be_priced(
    api: APIClient, conversation: Conversation
) -> None:
    run = finished_run(conversation, {"cost": "0.00345"}, {"cost": "0.0002"}, {"model": "scripted", "cost": None})
    assert run.cost_usd == Decimal("0.00365")
    assert run.unpriced_calls == 1
    shown = api.get(f"/api/runs/{run.pk}/").json()
    assert Decimal(shown["cost_usd"]) == Decimal("0.00365")
    assert shown["unpriced_calls"] == 1
    debug = api.get(f"/api/runs/{run.pk}/debug/").json()["model_calls"]
    assert [(c["model"], c["cost_usd"] and Decimal(c["cost_usd"])) for c in debug] == [
        ("gpt-4o-mini", Decimal("0.00345")),
        ("gpt-4o-mini", Decimal("0.0002")),
        ("scripted", None),
    ]


def test_a_malformed_price_in_the_log_is_unknown_not_free(conversation: Conversation) -> None:
    run = finished_run(conversation, {"cost": "-1"}, {"cost": "NaN"}, {"cost": "lots"})
    assert (run.cost_usd, run.unpriced_calls) == (0, 3)


def test_a_conversation_shows_what_its_runs_cost(api: APIClient, conversation: Conversation) -> None:
    finished_run(conversation, {"cost": "0.01", "prompt": 2000})
    finished_run(conversation, {"cost": None, "prompt": 500})
    other = ConversationFactory(owner=conversation.owner)
    expected = {"prompt_tokens": 2500, "completion_tokens": 200, "cost_usd": Decimal("0.01"), "unpriced_calls": 1}
    detail = api.get(f"/api/conversations/{conversation.pk}/").json()["usage"]
    assert {**detail, "cost_usd": Decimal(detail["cost_usd"])} == expected
    listed = {c["id"]: c["usage"] for c in api.get("/api/conversations/").json()}
    assert Decimal(listed[conversation.pk]["cost_usd"]) == Decimal("0.01")
    assert listed[conversation.pk]["unpriced_calls"] == 1
    nothing = listed[other.pk]
    assert (nothing["prompt_tokens"], Decimal(nothing["cost_usd"]), nothing["unpriced_calls"]) == (0, 0, 0)


def test_the_usage_api_sums_the_callers_calls_per_day_and_model(api: APIClient, user: User) -> None:
    mine = ConversationFactory(owner=user)
    run = Run.objects.create(conversation=mine, status="running")
    call(run, cost="0.001")
    call(run, cost="0.002")
    call(run, model="deepseek-chat", cost="0.0005")
    call(run, model="scripted", cost=None, prompt=40)
    call(run, cost="0.004", days_ago=2)
    call(run, cost="9", days_ago=40)  # outside the window
    stranger = UserFactory(username="stranger")
    theirs = Run.objects.create(conversation=ConversationFactory(owner=stranger), status="running")
    call(theirs, cost="5")

    body = api.get("/api/usage/?days=30").json()
    today = timezone.now().date()
    rows = {(row["day"], row["model"]): row for row in body["rows"]}
    assert set(rows) == {
        (str(today - timedelta(days=2)), "gpt-4o-mini"),
        (str(today), "deepseek-chat"),
        (str(today), "gpt-4o-mini"),
        (str(today), "scripted"),
    }
    gpt_today = rows[(str(today), "gpt-4o-mini")]
    assert (gpt_today["calls"], gpt_today["tokens"], Decimal(gpt_today["cost_usd"])) == (2, 2200, Decimal("0.003"))
    assert rows[(str(today), "scripted")]["unpriced_calls"] == 1
    assert Decimal(body["total"]["cost_usd"]) == Decimal("0.0075")
    assert body["total"]["calls"] == 5
    assert body["total"]["unpriced_calls"] == 1
    assert body["since"] == str(today - timedelta(days=29))
    assert body["currency"] == "USD"

    theirs_seen = client_for(stranger).get("/api/usage/").json()
    assert [Decimal(row["cost_usd"]) for row in theirs_seen["rows"]] == [Decimal(5)]


def test_a_teammates_messages_count_to_the_conversations_owner(user: User, conversation: Conversation) -> None:
    teammate = UserFactory(username="teammate")
    share_create(conversation=conversation, username="teammate", role="controller", created_by=user)
    finished_run(conversation, {"cost": "0.25"})
    assert Decimal(client_for(user).get("/api/usage/").json()["total"]["cost_usd"]) == Decimal("0.25")
    assert client_for(teammate).get("/api/usage/").json()["rows"] == []


@pytest.mark.parametrize("days", ["0", "367", "lots"])
def test_the_usage_api_refuses_a_window_it_cannot_answer(api: APIClient, days: str) -> None:
    answer = api.get(f"/api/usage/?days={days}")
    assert answer.status_code == 400
    assert "days" in answer.json()


def test_the_usage_api_needs_a_signed_in_user() -> None:
    assert APIClient().get("/api/usage/").status_code in (401, 403)


def test_a_profiles_own_price_is_used(api: APIClient) -> None:
    created = api.post(
        "/api/model-profiles/",
        {
            "name": "local",
            "provider": "ollama",
            "base_url": "http://127.0.0.1:11434/v1",
            "model": "llama3.1",
            "price_input_per_mtok": "0.5",
            "price_output_per_mtok": "1.5",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    assert Decimal(created.json()["price_input_per_mtok"]) == Decimal("0.5")
    profile = ModelProfile.objects.get(pk=created.json()["id"])
    config = model_config_from_profile(profile)
    assert config.cost(prompt_tokens=2_000_000, completion_tokens=1_000_000) == Decimal("2.5")
    cleared = api.patch(
        f"/api/model-profiles/{profile.pk}/",
        {"price_input_per_mtok": None, "price_output_per_mtok": None},
        format="json",
    )
    assert cleared.status_code == 200
    profile.refresh_from_db()
    assert model_config_from_profile(profile).cost(prompt_tokens=1, completion_tokens=1) is None, "unknown again"


@pytest.mark.parametrize(
    "prices", [{"price_input_per_mtok": "1"}, {"price_input_per_mtok": "-1", "price_output_per_mtok": "1"}]
)
def test_half_a_price_or_a_negative_one_is_refused(api: APIClient, prices: dict[str, str]) -> None:
    body = {"name": "p", "provider": "custom", "base_url": "http://127.0.0.1:9/v1", "model": "m", **prices}
    answer = api.post("/api/model-profiles/", body, format="json")
    assert answer.status_code == 400
    assert ModelProfile.objects.count() == 0


def test_the_operator_prices_the_servers_model(settings: Any) -> None:
    settings.HIVE_LLM_BASE_URL = "http://127.0.0.1:9/v1"
    settings.HIVE_LLM_MODEL = "local-model"
    settings.HIVE_LLM_PRICE_INPUT_PER_MTOK = Decimal("1")
    settings.HIVE_LLM_PRICE_OUTPUT_PER_MTOK = Decimal("3")
    assert server_default_model().cost(prompt_tokens=1_000_000, completion_tokens=1_000_000) == Decimal(4)
    settings.HIVE_LLM_PRICE_OUTPUT_PER_MTOK = None
    assert server_default_model().cost(prompt_tokens=1, completion_tokens=1) is None


def _send(api: APIClient, conversation: Conversation) -> Any:
    return api.post(f"/api/conversations/{conversation.pk}/messages/", {"content": "go"}, format="json")


def test_the_money_quota_refuses_with_a_429(
    api: APIClient, user: User, conversation: Conversation, settings: Any
) -> None:
    settings.HIVE_QUOTA_USD_PER_DAY = Decimal("0.50")
    finished_run(conversation, {"cost": "0.30"})
    assert _send(api, conversation).status_code == 201, "under the limit"
    Run.objects.filter(status="queued").update(status="succeeded")
    finished_run(conversation, {"cost": "0.25"})
    runs = Run.objects.count()
    refused = _send(api, conversation)
    assert refused.status_code == 429
    body = refused.json()
    assert body["limit"] == "usd_per_day"
    assert body["resets_at"]
    assert "$0.55" in body["detail"]
    assert "$0.50" in body["detail"]
    assert Run.objects.count() == runs, "nothing was started"
    own = ModelProfile.objects.create(owner=user, name="mine", base_url="https://api.example.com/v1", model="m")
    mine = ConversationFactory(owner=user, model_profile=own)
    assert _send(api, mine).status_code == 201, "the user's own model is theirs to spend"


def test_the_money_quota_forgets_calls_older_than_a_day(
    api: APIClient, conversation: Conversation, settings: Any
) -> None:
    settings.HIVE_QUOTA_USD_PER_DAY = Decimal("0.50")
    finished_run(conversation, {"cost": "3", "days_ago": 2})
    assert _send(api, conversation).status_code == 201
