"""What a replay checks around each step, saved from actions done by hand: the page's address before it, its element
ready (there, displayed, enabled), and its effect after it (the value held, the element gone); an extraction step
and what it returns; a scheduled replay that needs a yes."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index
from tests.conftest import PUBLIC_URL
from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import wait_until
from tests.support.runs import act
from tests.support.static_server import serve_directory
from tests.support.workflows import ended, parameter, replay, step, workflow_with
from webapp.runs.models import Confirmation, ModelCall, Run
from webapp.workflows.models import WebhookDelivery, WorkflowSchedule
from webapp.workflows.schedules import schedule_fire

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Checks</title>{head}</head><body>
<div id="banner"><p>We use cookies.</p><button id="dismiss" onclick="{dismiss}">Dismiss</button></div>
<label>Nickname <input id="nick" name="nick" {nick}></label>
<button id="go" {go} onclick="document.getElementById('out').textContent = 'Hello ' + nick.value">Say hello</button>
<p id="out"></p>
</body></html>"""
REMOVE_BANNER = "document.getElementById('banner').remove()"


def page(*, head: str = "", dismiss: str = REMOVE_BANNER, nick: str = "", go: str = "") -> str:
    return PAGE.format(head=head, dismiss=dismiss, nick=nick, go=go)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    (tmp_path / "checks.html").write_text(page())
    (tmp_path / "moved.html").write_text(page())
    with serve_directory(tmp_path) as base:
        yield base, tmp_path


def _index(elements: Run, label: str) -> int:
    listing = json.loads(elements.steps.get().observation)["data"]["elements"]
    match = re.search(r"\[(\d+)\][^\n]*" + re.escape(label), listing)
    assert match, listing
    return int(match.group(1))


def _out_of(client: APIClient, conversation_id: int, element_id: str) -> str:
    code = f"return document.getElementById({element_id!r}).textContent"
    return str(json.loads(act(client, conversation_id, "execute_js", code=code).steps.get().observation)["data"])


def _out(client: APIClient, conversation_id: int) -> str:
    return _out_of(client, conversation_id, "out")


def _cannot(request: dict[str, Any]) -> Reply:
    """Asked to heal: the agent says it cannot, repeating why the replay stopped."""
    asked = json.dumps(request["messages"])
    reason = re.search(r"Why it could not be replayed: ([^\\]*)", asked)
    return Reply(content=f"CANNOT: told that {reason.group(1) if reason else '?'}")


def test_steps_done_by_hand_are_saved_with_their_checks_and_each_failing_check_stops_the_replay(
    llm: ScriptedLLM, site: tuple[str, Path]
) -> None:
    base, folder = site
    llm.script(_cannot)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    first = act(client, conversation.pk, "navigate", url=f"{base}/checks.html")
    elements = act(client, conversation.pk, "get_elements")
    act(client, conversation.pk, "click", index=_index(elements, "Dismiss"))
    elements = act(client, conversation.pk, "get_elements")
    act(client, conversation.pk, "type", index=_index(elements, "Nickname"), text="Ada")
    last = act(client, conversation.pk, "click", index=_index(elements, "Say hello"))
    assert "Hello Ada" in _out(client, conversation.pk)

    saved = client.post(
        f"/api/conversations/{conversation.pk}/workflow/",
        {"name": "Say hello", "first_step": first.steps.get().pk, "last_step": last.steps.get().pk},
        format="json",
    )
    assert saved.status_code == 201, saved.content
    workflow = saved.json()
    assert [(s["action"], s["target"] and s["target"]["name"]) for s in workflow["steps"]] == [
        ("navigate", None), ("click", "Dismiss"), ("type", "Nickname"), ("click", "Say hello"),
    ]  # fmt: skip
    pattern = f"{base}/checks.html*"
    assert [s["checks"] for s in workflow["steps"]] == [
        {}, {"url": pattern, "gone": True}, {"url": pattern, "value": True}, {"url": pattern},
    ]  # fmt: skip
    assert workflow["parameters"][0]["name"] == "nick"

    replayed = replay(client, workflow["id"], nick="Grace")
    assert replayed.status == "succeeded", replayed.error
    assert "Hello Grace" in _out(client, replayed.conversation_id)
    assert not ModelCall.objects.filter(run=replayed).exists()

    for variant, failure in (
        (page(dismiss=""), 'Step 2 of 4 (click "Dismiss"): the element is still there afterwards'),
        (page(nick='oninput="this.value = this.value.toUpperCase()"'), "the field does not hold the value afterwards"),
        (page(go="disabled"), 'Step 4 of 4 (click "Say hello"): its element is not on'),
        (page(head="<script>location.replace('moved.html')</script>"), f"{base}/moved.html, not {pattern}"),
    ):
        (folder / "checks.html").write_text(variant)
        asked = len(llm.requests)
        broken = replay(client, workflow["id"], nick="Grace")
        assert broken.status == "failed"
        assert failure in broken.error
        assert "the agent could not heal it: told that" in broken.error  # the agent was told why, and said so
        assert len(llm.requests) == asked + 1
    assert "but it is there but disabled" in Run.objects.filter(error__contains="Say hello").latest("pk").error


def test_an_extraction_step_keeps_what_it_read_when_it_fits_the_schema(
    llm: ScriptedLLM, site: tuple[str, Path]
) -> None:
    base, _ = site
    answers = iter(['{"title": "Checks", "button": "Say hello"}', '{"title": 7}', '{"title": 7}'])

    def extracts(request: dict[str, Any]) -> Reply:
        assert "Extract: the page's title and main button" in json.dumps(request["messages"])
        return Reply(content=next(answers))

    llm.script(extracts)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    schema = {"type": "object", "properties": {"title": {"type": "string"}, "button": {"type": "string"}},
              "required": ["title", "button"]}  # fmt: skip
    extract = {"action": "extract_data", "arguments": {"instruction": "the page's title and main button"},
               "target": {}, "intent": "read the page", "output": {"name": "page", "schema": schema}}  # fmt: skip
    workflow_id = workflow_with(conversation.owner, "Read", [step("navigate", "open", url=f"{base}/checks.html"),
                                                               extract])  # fmt: skip

    run = replay(client, workflow_id)
    assert run.status == "succeeded", run.error
    history = client.get(f"/api/workflows/{workflow_id}/runs/").json()
    assert history[0]["outputs"] == {"page": {"title": "Checks", "button": "Say hello"}}
    assert ModelCall.objects.filter(run=run).count() == 1  # the extraction is the one step that asks the model

    unfit = replay(client, workflow_id)
    assert unfit.status == "failed"
    assert unfit.error.startswith("Step 2 of 2 (read the page): the extraction failed: the model did not return")
    assert "'button' is a required property" in unfit.error or "is not of type 'string'" in unfit.error


class _Hook(BaseHTTPRequestHandler):
    events: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (the http.server name)
        _Hook.events.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def _mails(folder: Path, to: str) -> list[str]:
    """The e-mails the services wrote to `to` (the file backend: one file per batch)."""
    return [
        m for f in sorted(folder.iterdir()) for m in f.read_text().split("\n" + "-" * 79 + "\n") if f"To: {to}" in m
    ]


def test_a_scheduled_replay_that_needs_a_yes_refuses_or_waits_and_tells_the_owner(
    site: tuple[str, Path], mail_dir: Path
) -> None:
    base, _ = site
    conversation = ConversationFactory()
    owner = conversation.owner
    owner.email = f"owner{owner.pk}@example.com"
    owner.save()
    client = signed_in(owner)
    steps = [step("navigate", "open", url=f"{base}/checks.html"), step("execute_js", "read", code="return 1")]
    workflow_id = workflow_with(owner, "Nightly", steps)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Hook.events = []
    try:
        hook = client.post(f"/api/workflows/{workflow_id}/webhook/",
                           {"url": f"http://127.0.0.1:{server.server_address[1]}/hook"}, format="json")  # fmt: skip
        assert hook.status_code == 201, hook.content
        made = {}
        for mode in ("refuse", "wait"):
            answer = client.post(f"/api/workflows/{workflow_id}/schedules/",
                                 {"cron": "0 3 * * *", "confirmations": mode}, format="json")  # fmt: skip
            assert answer.status_code == 201, answer.content
            assert answer.json()["confirmations"] == mode
            made[mode] = answer.json()["id"]

        refused = schedule_fire(schedule_id=made["refuse"])
        assert refused is not None
        refused = ended(refused.pk)
        assert refused.status == "failed"
        assert "does not wait for one (its schedule says refuse)" in refused.error
        assert not Confirmation.objects.filter(run=refused).exists()
        assert _mails(mail_dir, owner.email) == []

        waiting = schedule_fire(schedule_id=made["wait"])
        assert waiting is not None
        wait_until(lambda: Confirmation.objects.filter(run=waiting, status="pending").exists(), 30, "the question")
        wait_until(lambda: len(_mails(mail_dir, owner.email)) == 1, 10, "the e-mail to the owner")
        message = _mails(mail_dir, owner.email)[0]
        assert "Subject: Hive: the scheduled replay of Nightly waits for your yes" in message
        assert f"{PUBLIC_URL}/c/{waiting.conversation_id}" in message

        def told() -> bool:
            return any(e["event"] == "workflow.run.confirmation_requested" for e in _Hook.events)

        wait_until(told, 30, "the webhook about the question")
        event = next(e for e in _Hook.events if e["event"] == "workflow.run.confirmation_requested")
        assert event["run"]["id"] == waiting.pk
        assert event["confirmation"]["action"] == "execute_js"

        pending = Confirmation.objects.get(run=waiting, status="pending")
        answered = client.post(f"/api/confirmations/{pending.pk}/answer/", {"approve": True}, format="json")
        assert answered.status_code == 200, answered.content
        assert ended(waiting.pk).status == "succeeded"
    finally:
        server.shutdown()
        server.server_close()
    assert WorkflowSchedule.objects.filter(workflow_id=workflow_id).count() == 2
    assert WebhookDelivery.objects.filter(workflow_id=workflow_id, payload__event="workflow.run.finished").count() == 2


LOGIN = Path(__file__).resolve().parent / "pages" / "workflow" / "login.html"


def _heals_the_password_step(request: dict[str, Any]) -> Reply:
    """Asked to heal: looks, then types the secret by its placeholder (it is never shown the value)."""
    made = calls_made(request)
    if not made:
        return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])
    if len(made) == 1:
        index = find_index(request, "Secret phrase")
        return Reply(tool_calls=[{"name": "type", "arguments": {"index": index, "text": "{{password}}"}}])
    return Reply(content="done")


def test_a_step_that_types_a_secret_is_healed_without_the_agent_seeing_the_secret(
    llm: ScriptedLLM, tmp_path: Path
) -> None:
    secret = "correct horse battery staple"
    (tmp_path / "login.html").write_text(LOGIN.read_text())
    llm.script(_heals_the_password_step)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    assert client.post("/api/credentials/", {"name": "club", "value": secret}, format="json").status_code == 201
    with serve_directory(tmp_path) as base:
        steps = [
            step("navigate", "open", url=f"{base}/login.html"),
            step("type", "type the username", tag="input", role="textbox", name="Username",
                 attributes={"name": "username"}, text="{{username}}"),
            step("type", "type the password", tag="input", role="textbox", name="Password",
                 attributes={"type": "password"}, text="{{password}}"),
            step("click", "sign in", tag="button", role="button", name="Sign in"),
        ]  # fmt: skip
        parameters = [parameter("username", "Username", "ada"), parameter("password", "Password", secret=True)]
        workflow_id = workflow_with(conversation.owner, "Sign in", steps, parameters)
        relabelled = LOGIN.read_text().replace(">Password<", ">Secret phrase<").replace('name="password"', 'name="pp"')
        (tmp_path / "login.html").write_text(relabelled.replace("e.target.password.value", "e.target.pp.value"))

        healed = replay(client, workflow_id, password="club")
        assert healed.status == "succeeded", healed.error
        assert "Hello ada" in _out_of(client, healed.conversation_id, "result")
        assert llm.requests, "the agent healed the step"
        assert secret not in json.dumps(llm.requests)  # typed, never shown to the model
        assert secret not in json.dumps(client.get(f"/api/runs/{healed.pk}/").json())
        version = client.get(f"/api/workflows/{workflow_id}/").json()
        assert version["version"] == 2
        assert version["steps"][2]["arguments"] == {"text": "{{password}}"}

        asked = len(llm.requests)
        again = replay(client, workflow_id, password="club")
        assert again.status == "succeeded", again.error
        assert "Hello ada" in _out_of(client, again.conversation_id, "result")
        assert len(llm.requests) == asked
