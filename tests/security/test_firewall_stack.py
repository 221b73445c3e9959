"""The network firewall through the whole stack, with the configuration a host runs: a Celery worker whose
allow-list names one site and nothing else. Manual actions from the REST API, the agent's own steps and a page
tool called from the Tool Inspector all try to reach a counting service on loopback; none gets there."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import mcp_types as types
import pytest
from asgiref.sync import sync_to_async

from tests.agents.support import calls_made, user_request
from tests.conftest import MainWorker, start_ready_worker
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.listeners import CountingListener
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import wait_until
from tests.support.runs import act
from webapp.runs.models import Run
from webapp.workflows.models import WebhookDelivery, Workflow, WorkflowVersion

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def strict_worker(main_worker: MainWorker, services_env: dict[str, str], redis_url: str, site: str) -> Iterator[None]:
    """The only worker: its firewall opens the attack site's origin alone (not loopback, as the suite's does)."""
    main_worker.stop()
    env = {**services_env, "HIVE_EGRESS_ALLOW": site, "HIVE_OWN_ORIGINS": site}
    worker = start_ready_worker("strict", env, redis_url)
    try:
        yield
    finally:
        worker.stop()


def _ended(run: Run, seconds: float = 60) -> Run:
    def done() -> bool:
        run.refresh_from_db()
        return not run.is_active

    wait_until(done, seconds, "the run to end")
    return run


@pytest.mark.usefixtures("strict_worker")
def test_manual_actions_cannot_reach_the_internal_service(site: str, internal: CountingListener) -> None:
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)

    for url in (f"{internal.url}/", f"http://127.1:{internal.port}/", f"http://localhost.:{internal.port}/"):
        run = act(client, conversation.pk, "navigate", url=url)
        step = run.steps.get()
        assert step.status == "failed"
        assert "Blocked by Hive's network firewall" in step.error
    opened = act(client, conversation.pk, "open_tab", url=f"{internal.url}/")
    assert "network firewall" in opened.steps.get().error

    allowed = act(client, conversation.pk, "navigate", url=f"{site}/subresources")
    assert allowed.steps.get().status == "succeeded", allowed.steps.get().error
    fetched = act(
        client, conversation.pk, "execute_js", code=f"return await fetch('{internal.url}/x').then(r => r.status)"
    )
    assert "secret" not in fetched.steps.get().observation
    content = client.get(f"/api/conversations/{conversation.pk}/tabs/")
    assert content.status_code == 200
    assert "secret" not in content.content.decode()
    assert internal.connections == 0


@pytest.mark.usefixtures("strict_worker")
def test_the_agent_and_a_page_tool_cannot_reach_it_either(
    llm: ScriptedLLM, site: str, internal: CountingListener
) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        urls = re.findall(r"http://\S+", user_request(request))
        if len(made) < len(urls):
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": urls[len(made)]}}])
        return Reply(content="Done.")

    llm.script(handler)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    sent = client.post(
        f"/api/conversations/{conversation.pk}/messages/",
        {"content": f"Open {site}/subresources then {internal.url}/admin then http://0x7f000001:{internal.port}/"},
        format="json",
    )
    assert sent.status_code == 201, sent.content
    run = _ended(Run.objects.get(pk=sent.json()["run"]["id"]))
    assert run.status == "succeeded", run.error
    steps = list(run.steps.filter(kind="action").order_by("index"))
    assert [s.action for s in steps] == ["navigate", "navigate", "navigate"]
    assert steps[0].status == "succeeded"
    assert "blocked_requests" in steps[0].observation, "the agent hears what the page's requests ran into"
    assert all(s.status == "failed" for s in steps[1:])

    act(client, conversation.pk, "navigate", url=f"{site}/tool")
    called = client.post(
        f"/api/conversations/{conversation.pk}/tools/call/", {"name": "leak", "arguments": {}}, format="json"
    )
    assert called.status_code == 202, called.content
    tool_run = _ended(Run.objects.get(pk=called.json()["id"]))
    assert "secret" not in json.dumps([s.observation for s in tool_run.steps.all()])
    assert internal.connections == 0


@pytest.mark.asyncio
@pytest.mark.usefixtures("strict_worker")
async def test_an_mcp_client_cannot_reach_it_and_reads_why(
    web_server: str, site: str, internal: CountingListener
) -> None:
    """The MCP endpoint's calls are runs on the same workers: the firewall is where the traffic is, not per path."""
    from tests.mcp.test_mcp_endpoint import mcp_client, text_of, token_for

    user = await sync_to_async(UserFactory)()

    async def approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"approve": True})

    async with mcp_client(web_server, await token_for(user), mode="legacy", elicitation_callback=approve) as client:
        for url in (
            f"{internal.url}/",
            f"http://[::ffff:127.0.0.1]:{internal.port}/",
            f"http://0x7f000001:{internal.port}/",
        ):
            refused = await client.call_tool("navigate", {"url": url})
            assert refused.is_error
            # The safety policy says no before the browser tries; the firewall would refuse the connection anyway.
            assert re.search(r"Blocked by Hive's (safety policy|network firewall)", text_of(refused)), text_of(refused)
        fine = await client.call_tool("navigate", {"url": f"{site}/subresources"})  # the page reaches for it itself
        assert not fine.is_error, text_of(fine)
        leaked = await client.call_tool(
            "execute_js", {"code": f"return await fetch('{internal.url}/x').then(r => r.status)"}
        )
        assert "secret" not in text_of(leaked)
        fetched = await client.call_tool("upload_file", {"selector": "input", "url": f"{internal.url}/file.txt"})
        assert fetched.is_error
        assert "Blocked by Hive's network firewall" in text_of(fetched), text_of(fetched)
    assert internal.connections == 0


@pytest.mark.usefixtures("strict_worker")
def test_a_workflows_webhook_cannot_reach_it(site: str, internal: CountingListener) -> None:
    """The webhook is a request the server makes for a user: it goes through the same firewall."""
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    workflow = Workflow.objects.create(owner=conversation.owner, name="Open")
    steps = [{"action": "navigate", "arguments": {"url": f"{site}/subresources"}, "target": {}, "intent": "open"}]
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=steps, parameters=[])
    assert (
        client.post(f"/api/workflows/{workflow.pk}/webhook/", {"url": internal.url}, format="json").status_code == 201
    )
    started = client.post(f"/api/workflows/{workflow.pk}/runs/", {}, format="json")
    assert started.status_code == 202, started.content
    run = _ended(Run.objects.get(pk=started.json()["id"]))
    assert run.status == "succeeded", run.error

    def given_up() -> bool:
        return WebhookDelivery.objects.filter(run=run, status="failed").exists()

    wait_until(given_up, 60, "the webhook to be given up")
    delivery = WebhookDelivery.objects.get(run=run)
    assert delivery.attempts == 5
    assert all("Blocked by Hive's network firewall" in attempt["error"] for attempt in delivery.log)
    assert internal.connections == 0
