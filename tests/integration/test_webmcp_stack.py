"""WebMCP through the whole stack: the agent drives the demo flight site through its tools, a SKILL's
consequential tool waits for the user's yes in confirm mode, tools registered late reach a websocket client,
and SKILL health checks and name clashes show in the Tool Inspector's data."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from tests.agents.support import calls_made, last_observation, user_request
from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import wait_until
from tests.support.runs import act, observation
from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, Run
from webapp.skills.models import Skill, SkillTool

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]


def _send(client: APIClient, conversation_id: int, text: str) -> Run:
    response = client.post(f"/api/conversations/{conversation_id}/messages/", {"content": text}, format="json")
    assert response.status_code == 201, response.content
    return Run.objects.get(pk=response.json()["run"]["id"])


def _ended(run: Run, seconds: float = 60) -> Run:
    def done() -> bool:
        run.refresh_from_db()
        return not run.is_active

    wait_until(done, seconds, "the run to end")
    return run


def _tool_names(request: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in request.get("tools", [])]


def test_the_agent_searches_filters_and_lists_flights_through_the_sites_tools(
    llm: ScriptedLLM, web_server: str
) -> None:
    """The scripted model only calls tools it finds in the tool list it was sent."""

    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        offered = _tool_names(request)
        if not made:
            url = re.search(r"http://\S+", user_request(request))
            assert url is not None
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": url.group(0)}}])
        for step, arguments in (
            ("searchFlights", {"from": "PEK", "to": "SHA", "date": "2026-12-01"}),
            ("setFilters", {"maxPrice": 200, "maxStops": 0}),
            ("listFlights", {}),
        ):
            name = next((n for n in offered if n.endswith("__" + step)), None)
            if name is not None and name not in made:
                return Reply(tool_calls=[{"name": name, "arguments": arguments}])
        return Reply(content="Flights: " + last_observation(request)[:2000])

    llm.script(handler)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    run = _ended(
        _send(client, conversation.pk, f"Find nonstop flights PEK to SHA under $200 at {web_server}/demo/flights/")
    )
    assert run.status == "succeeded", run.error
    actions = list(run.steps.filter(kind="action").values_list("action", "status"))
    assert actions == [
        ("navigate", "succeeded"),
        ("page__searchFlights", "succeeded"),
        ("page__setFilters", "succeeded"),
        ("page__listFlights", "succeeded"),
    ]
    listed = run.steps.get(action="page__listFlights").observation
    assert '"maxPrice": 200' in listed or '"maxPrice":200' in listed
    # The page itself shows the filtered results the tools produced.
    shown = act(client, conversation.pk, "execute_js", code="document.body.innerText")
    text = json.dumps(observation(shown))
    assert "PEK" in text
    assert "SHA" in text


def _skill(name: str, pattern: str, *, health: str = "return true;", tools: list[dict[str, Any]]) -> Skill:
    skill = Skill.objects.create(
        name=name, version="1.0.0", description=name, match_patterns=[pattern], health_check=health
    )
    for tool in tools:
        SkillTool.objects.create(skill=skill, **tool)
    return skill


def test_a_consequential_skill_tool_waits_for_the_users_yes_in_confirm_mode(llm: ScriptedLLM, web_server: str) -> None:
    from django.apps import apps

    call_shipped = importlib.import_module("webapp.skills.migrations.0002_shipped_demo_shop")
    Skill.objects.filter(name="demo-shop").delete()
    call_shipped.load(apps, None)

    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        offered = _tool_names(request)
        if not made:
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": f"{web_server}/demo/shop/"}}])
        add = next((n for n in offered if n.endswith("__addToCart")), None)
        assert add is not None, offered
        if add not in made:
            return Reply(tool_calls=[{"name": add, "arguments": {"productId": "p101", "quantity": 2}}])
        view = next(n for n in offered if n.endswith("__viewCart"))
        if view not in made:
            return Reply(tool_calls=[{"name": view, "arguments": {}}])
        return Reply(content="Cart: " + last_observation(request)[:1000])

    llm.script(handler)
    conversation = ConversationFactory()
    Conversation.objects.filter(pk=conversation.pk).update(confirm_mode="confirm")
    client = signed_in(conversation.owner)
    run = _send(client, conversation.pk, "Put two of p101 in my cart")

    def asked() -> bool:
        return Confirmation.objects.filter(run=run, status="pending").exists()

    wait_until(asked, 45, "the confirmation to be asked")
    run.refresh_from_db()
    assert run.status == "waiting"
    confirmation = Confirmation.objects.get(run=run)
    assert confirmation.action == "skill__addToCart"
    assert not run.steps.filter(action="skill__addToCart", status="succeeded").exists()
    answer = client.post(f"/api/confirmations/{confirmation.pk}/answer/", {"approve": True}, format="json")
    assert answer.status_code == 200
    run = _ended(run)
    assert run.status == "succeeded", run.error
    cart = run.steps.get(action="skill__viewCart").observation
    assert "p101" in cart
    assert '"quantity": 2' in cart or '"quantity":2' in cart


async def test_a_tool_registered_late_reaches_a_websocket_client_and_goes_away(
    pages: str, stream_factory: Callable[..., Any]
) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    client = await sync_to_async(signed_in)(conversation.owner)
    stream = await stream_factory(conversation.owner, conversation.pk)
    opened = await sync_to_async(act)(client, conversation.pk, "navigate", url=f"{pages}/late_tool.html")
    assert opened.status == "succeeded"
    added = await stream.until(
        lambda e: e["type"] == "tools.updated" and any(t["name"] == "lateGreeting" for t in e["tools"]), wait_s=20
    )
    tool = next(t for t in added["tools"] if t["name"] == "lateGreeting")
    assert tool["source"] == "page"
    assert tool["annotations"]["readOnlyHint"] is True
    removed = await sync_to_async(act)(client, conversation.pk, "execute_js", code="window.removeLateTool()")
    assert removed.status == "succeeded"
    await stream.until(
        lambda e: e["type"] == "tools.updated" and not any(t["name"] == "lateGreeting" for t in e["tools"]),
        wait_s=20,
    )


test_a_tool_registered_late_reaches_a_websocket_client_and_goes_away = pytest.mark.asyncio(
    test_a_tool_registered_late_reaches_a_websocket_client_and_goes_away
)


def test_skill_health_failure_and_name_clash_show_in_the_inspector(pages: str) -> None:
    tool = {
        "name": "viewCart",
        "description": "The SKILL's cart.",
        "input_schema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
        "handler": "return {from: 'skill'};",
    }
    _skill("clashing", f"{pages}/clash.html", tools=[tool])
    _skill(
        "unhealthy",
        f"{pages}/clash.html",
        health="throw new Error('the shop widget is missing');",
        tools=[{**tool, "name": "otherTool"}],
    )
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    assert act(client, conversation.pk, "navigate", url=f"{pages}/clash.html").status == "succeeded"

    def inspected() -> bool:
        body = client.get(f"/api/conversations/{conversation.pk}/tools/").json()
        return len(body["skills"]) == 2

    wait_until(inspected, 20, "the SKILLs to be injected")
    body = client.get(f"/api/conversations/{conversation.pk}/tools/").json()
    skills = {s["name"]: s for s in body["skills"]}
    assert skills["clashing"]["status"] == "ok"
    assert skills["unhealthy"]["status"] == "failed"
    assert "the shop widget is missing" in skills["unhealthy"]["error"]
    by_source = {(t["name"], t["source"]): t for t in body["tools"]}
    assert by_source[("viewCart", "page")]["shadowed"] is False
    assert by_source[("viewCart", "skill")]["shadowed"] is True
    assert ("otherTool", "skill") not in by_source
    # Calling the tool by hand reaches the page's own tool, which wins the clash.
    call = client.post(
        f"/api/conversations/{conversation.pk}/tools/call/", {"name": "viewCart", "arguments": {}}, format="json"
    )
    assert call.status_code == 202, call.content
    run = _ended(Run.objects.get(pk=call.json()["id"]))
    step = run.steps.get()
    assert step.status == "succeeded", step.error
    assert '"from": "page"' in step.observation or '"from":"page"' in step.observation
    assert step.screenshot
