"""Two people on one path: an owner, and a teammate who controls one of the owner's conversations and has workflows
of their own. Through the whole stack (REST, a live worker, Chromium), with a site on loopback that keeps every
request it gets (the teammate's page, which collects what is typed into it, and a webhook receiver):

- a replay the teammate starts in the owner's conversation is filled in from the teammate's credentials only; with a
  name only the owner has, it types nothing and fails exactly as with a name nobody has; healing it too;
- the owner's webhook and delivery log hear of a teammate's replay only when the owner may see it, and never show a
  secret parameter's value (the name of the starter's credential).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import wait_until
from tests.support.recording import RecordingSite, recording_site
from tests.support.workflows import ended, parameter, step, workflow_with
from webapp.conversations.models import Conversation
from webapp.runs.models import Run
from webapp.sharing.models import Share
from webapp.workflows.models import WebhookDelivery, WorkflowShare

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

OWNER_SECRET = "owner-secret-7d41e0"
MATE_SECRET = "mate-secret-93ab12"
FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Team form</title></head><body>
<form method="post" action="/collect">
  <p><label for="pw">Password</label> <input id="pw" name="pw" type="password"></p>
  <p><button type="submit">Send</button></p>
</form></body></html>"""
PAGES = {"/form.html": FORM, "/collect": "<!doctype html><title>Thanks</title><p>Thanks", "/leak": "<title>ok</title>"}


@pytest.fixture
def site() -> Iterator[RecordingSite]:
    with recording_site(PAGES) as recording:
        yield recording


class People:
    def __init__(self) -> None:
        self.owner, self.mate = UserFactory(username="owner"), UserFactory(username="mate")
        self.conversation = ConversationFactory(owner=self.owner)  # the owner's, shared with the teammate
        Share.objects.create(conversation=self.conversation, user=self.mate, role="controller", created_by=self.owner)
        self.owner_api, self.mate_api = signed_in(self.owner), signed_in(self.mate)
        stored = self.owner_api.post("/api/credentials/", {"name": "bank", "value": OWNER_SECRET}, format="json")
        assert stored.status_code == 201, stored.content


def _collecting_workflow(owner: User, base: str, *, field: str = "Password", field_name: str = "pw") -> int:
    """Type the secret parameter into a page's field, send the form, then open an address with it in the query."""
    return workflow_with(
        owner,
        "Send the password",
        [
            step("navigate", "open the form", url=f"{base}/form.html"),
            step("type", "type the password", tag="input", role="textbox", name=field,
                 attributes={"name": field_name, "type": "password"}, text="{{pw}}"),
            step("click", "send it", tag="button", role="button", name="Send"),
            step("navigate", "open the address", url=f"{base}/leak?pw={{{{pw}}}}"),
        ],
        [parameter("pw", "Password", secret=True)],
    )  # fmt: skip


def _start(api: APIClient, workflow_id: int, conversation_id: int | None, credential: str) -> Run:
    body: dict[str, Any] = {"parameters": {"pw": credential}}
    if conversation_id is not None:
        body["conversation"] = conversation_id
    started = api.post(f"/api/workflows/{workflow_id}/runs/", body, format="json")
    assert started.status_code == 202, started.content
    return ended(started.json()["id"])


def test_a_teammates_replay_in_the_owners_conversation_is_filled_from_the_teammates_own_credentials(
    site: RecordingSite,
) -> None:
    people = People()
    workflow_id = _collecting_workflow(people.mate, site.url)  # saved from the teammate's own page

    named_like_the_owners = _start(people.mate_api, workflow_id, people.conversation.pk, "bank")
    assert named_like_the_owners.status == "failed"
    assert named_like_the_owners.conversation_id == people.conversation.pk
    assert site.requests() == []  # nothing was typed anywhere, nothing reached the teammate's page
    assert not site.got(OWNER_SECRET)

    # The answer to a name the owner has is the answer to a name nobody has: no credential names to guess.
    named_like_nothing = _start(people.mate_api, workflow_id, people.conversation.pk, "no-such-name")
    assert named_like_nothing.status == "failed"
    assert named_like_the_owners.error.replace("'bank'", "'?'") == named_like_nothing.error.replace(
        "'no-such-name'", "'?'"
    )
    assert named_like_the_owners.error == "No credential named 'bank' for the parameter pw in mate's credential store."

    # With a credential of their own by that name, the teammate's secret is typed, in the owner's conversation.
    stored = people.mate_api.post("/api/credentials/", {"name": "bank", "value": MATE_SECRET}, format="json")
    assert stored.status_code == 201, stored.content
    theirs = _start(people.mate_api, workflow_id, people.conversation.pk, "bank")
    assert theirs.status == "succeeded", theirs.error
    assert theirs.conversation_id == people.conversation.pk
    assert site.got(MATE_SECRET)
    assert not site.got(OWNER_SECRET)
    # The owner sees the run in their conversation, the secret masked.
    shown = json.dumps(people.owner_api.get(f"/api/runs/{theirs.pk}/").json(), ensure_ascii=False)
    assert MATE_SECRET not in shown
    assert "••••••••" in shown


def _heals_by_typing_the_placeholder(request: dict[str, Any]) -> Reply:
    """Asked to heal the step that types the password: looks, types `{{pw}}` (never the value), says done."""
    made = calls_made(request)
    if not made:
        return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])
    if len(made) == 1:
        index = find_index(request, "Password")
        return Reply(tool_calls=[{"name": "type", "arguments": {"index": index, "text": "{{pw}}"}}])
    return Reply(content="done")


def test_a_healing_turn_of_a_teammates_replay_types_the_teammates_secret_never_the_owners(
    site: RecordingSite, llm: ScriptedLLM
) -> None:
    llm.script(_heals_by_typing_the_placeholder)
    people = People()
    people.mate_api.post("/api/credentials/", {"name": "bank", "value": MATE_SECRET}, format="json")
    # Recorded on a field that is no longer there: the agent heals the step.
    workflow_id = _collecting_workflow(people.mate, site.url, field="Passphrase", field_name="passphrase")

    run = _start(people.mate_api, workflow_id, people.conversation.pk, "bank")
    assert run.status == "succeeded", run.error
    assert llm.requests, "the step was healed by the agent"
    assert site.got(MATE_SECRET)
    assert not site.got(OWNER_SECRET)
    asked = json.dumps(llm.requests)
    assert MATE_SECRET not in asked
    assert OWNER_SECRET not in asked


def _owners_workflow_with_a_webhook(people: People, base: str, hook: str) -> int:
    workflow_id = _collecting_workflow(people.owner, base)
    WorkflowShare.objects.create(workflow_id=workflow_id, user=people.mate, role="controller")
    made = people.owner_api.post(f"/api/workflows/{workflow_id}/webhook/", {"url": hook}, format="json")
    assert made.status_code == 201, made.content
    return workflow_id


def test_the_owners_webhook_hears_only_of_replays_the_owner_may_see_and_masks_secret_parameters(
    site: RecordingSite,
) -> None:
    people = People()
    people.mate_api.post("/api/credentials/", {"name": "mate-bank-login", "value": MATE_SECRET}, format="json")
    with recording_site({}) as receiver:
        workflow_id = _owners_workflow_with_a_webhook(people, site.url, f"{receiver.url}/hook")

        # In the teammate's own conversation: the owner does not see that run, and their webhook is not told of it.
        own = _start(people.mate_api, workflow_id, None, "mate-bank-login")
        assert own.status == "succeeded", own.error
        assert Conversation.objects.get(pk=own.conversation_id).owner == people.mate
        assert not WebhookDelivery.objects.filter(run=own).exists()
        assert people.owner_api.get(f"/api/workflows/{workflow_id}/runs/").json() == []

        # In the owner's conversation: the owner sees it, and is told, with the secret parameter masked.
        shared = _start(people.mate_api, workflow_id, people.conversation.pk, "mate-bank-login")
        assert shared.status == "succeeded", shared.error
        wait_until(lambda: receiver.got(f'"id":{shared.pk}'), 30, "the webhook of the run in the owner's conversation")
        log = people.owner_api.get(f"/api/workflows/{workflow_id}/deliveries/").json()
    assert [delivery["run"] for delivery in log] == [shared.pk]
    assert log[0]["payload"]["parameters"] == {"pw": "••••••••"}
    bodies = [request.text() for request in receiver.requests()]
    assert len(bodies) == 1
    assert json.loads(bodies[0].split("\n", 1)[1])["parameters"] == {"pw": "••••••••"}
    assert all("mate-bank-login" not in body and MATE_SECRET not in body for body in bodies)
    assert "mate-bank-login" not in json.dumps(log)
    history = people.owner_api.get(f"/api/workflows/{workflow_id}/runs/").json()
    assert [(r["id"], r["parameters"]) for r in history] == [(shared.pk, {"pw": "••••••••"})]
