"""Workflows through the whole stack: the agent signs up on a local form (the scripted model); the run is saved as a
workflow whose typed values are parameters; the workflow replays with other values and no model call, also after
the page was redesigned (ids and classes renamed, the button moved, a field added); on a page without the form it
fails at the step, saying why."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django_celery_beat.models import PeriodicTask
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index, form_filler, user_request
from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import wait_until
from tests.support.runs import act, observation
from tests.support.static_server import serve_directory
from tests.support.workflows import ended, parameter, replay, step, workflow_with
from webapp.core.queue import _app
from webapp.runs.models import Confirmation, ModelCall, Run
from webapp.workflows.models import WebhookDelivery

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

PAGES = Path(__file__).resolve().parent / "pages" / "workflow"
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The sign-up page, served from a folder the test can change between visits."""
    shutil.copy(PAGES / "signup.html", tmp_path / "signup.html")
    with serve_directory(tmp_path) as base:
        yield base, tmp_path


def _heals(request: dict[str, Any]) -> Reply:
    """The agent asked to heal one step: it looks at the page, types the name where the page now asks for it."""
    if not calls_made(request):
        return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])
    if len(calls_made(request)) > 1:
        return Reply(content="done")
    values = json.loads(re.search(r"The workflow's parameters: (\{.*\})", user_request(request)).group(1))  # type: ignore[union-attr]
    try:
        index = find_index(request, "Your name")
    except AssertionError:
        return Reply(content="CANNOT: there is no name field on this page")
    return Reply(tool_calls=[{"name": "type", "arguments": {"index": index, "text": values["fullname"]}}])


def _agent_signs_up(request: dict[str, Any]) -> Reply:
    if "no longer fits the page" in user_request(request):
        return _heals(request)
    made = calls_made(request)
    steps: list[tuple[str, Any]] = [
        ("navigate", lambda: {"url": user_request(request).split()[-1]}),
        ("get_elements", lambda: {}),
        ("type", lambda: {"index": find_index(request, "Full name"), "text": "Ada Lovelace"}),
        ("type", lambda: {"index": find_index(request, "Email"), "text": "ada@example.com"}),
        ("select", lambda: {"index": find_index(request, "Plan"), "value": "pro"}),
        (
            "click",
            lambda: {
                "index": find_index(request, "Join"),
            },
        ),
    ]
    if len(made) < len(steps):
        name, arguments = steps[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments()}])
    return Reply(content="You are signed up.")


def _agent_does(client: APIClient, conversation_id: int, task: str) -> Run:
    """Sends the task to the agent (the scripted model) and waits for its run to succeed."""
    sent = client.post(f"/api/conversations/{conversation_id}/messages/", {"content": task}, format="json")
    assert sent.status_code == 201, sent.content
    run = ended(sent.json()["run"]["id"])
    assert run.status == "succeeded", run.error
    return run


def _saved(client: APIClient, run: Run, name: str) -> dict[str, Any]:
    saved = client.post(f"/api/runs/{run.pk}/workflow/", {"name": name}, format="json")
    assert saved.status_code == 201, saved.content
    return dict(saved.json())


def _result_text(client: APIClient, run: Run) -> str:
    read = act(client, run.conversation_id, "execute_js", code="return document.getElementById('result').textContent")
    return str(observation(read)["data"])


def test_a_saved_run_replays_with_other_values_without_a_model_even_after_a_redesign(
    llm: ScriptedLLM, site: tuple[str, Path]
) -> None:
    base, folder = site
    llm.script(_agent_signs_up)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    agent_run = _agent_does(client, conversation.pk, f"Sign me up at {base}/signup.html")
    assert "Welcome Ada Lovelace <ada@example.com> on the pro plan" in _result_text(client, agent_run)
    workflow = _saved(client, agent_run, "Join the club")
    assert [p["name"] for p in workflow["parameters"]] == ["fullname", "email", "plan"]
    assert [p["default"] for p in workflow["parameters"]] == ["Ada Lovelace", "ada@example.com", "pro"]
    assert [s["action"] for s in workflow["steps"]] == ["navigate", "type", "type", "select", "click"]
    model_requests = len(llm.requests)

    replayed = replay(client, workflow["id"], fullname="Grace Hopper", email="grace@example.com", plan="free")
    assert replayed.status == "succeeded", replayed.error
    assert "Welcome Grace Hopper <grace@example.com> on the free plan" in _result_text(client, replayed)

    (folder / "signup.html").write_text((PAGES / "signup_redesigned.html").read_text())
    healed = replay(client, workflow["id"], fullname="Alan Turing", email="alan@example.com")
    assert healed.status == "succeeded", healed.error
    assert "Welcome Alan Turing <alan@example.com> on the pro plan" in _result_text(client, healed)

    assert len(llm.requests) == model_requests  # not one model call for the replays
    assert not ModelCall.objects.filter(run__in=[replayed, healed]).exists()
    assert replayed.prompt_tokens == healed.prompt_tokens == 0


def test_a_step_that_no_longer_fits_is_healed_by_the_agent_and_the_next_replay_needs_no_model(
    llm: ScriptedLLM, site: tuple[str, Path]
) -> None:
    base, folder = site
    llm.script(_agent_signs_up)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    agent_run = _agent_does(client, conversation.pk, f"Sign me up at {base}/signup.html")
    workflow = _saved(client, agent_run, "Join")

    # The name field is now "Your name", named and identified differently: nothing recorded finds it.
    page = (PAGES / "signup.html").read_text()
    for was, now in (('for="full-name">Full name', 'for="w1">Your name'), ('id="full-name" name="fullname"', 'id="w1" name="who"'),
                     ("f.fullname.value", "f.who.value")):  # fmt: skip
        page = page.replace(was, now)
    (folder / "signup.html").write_text(page)
    before = len(llm.requests)
    healed = replay(client, workflow["id"], fullname="Grace Hopper", email="grace@example.com")
    assert healed.status == "succeeded", healed.error
    assert "Welcome Grace Hopper <grace@example.com> on the pro plan" in _result_text(client, healed)
    assert len(llm.requests) > before
    assert healed.prompt_tokens > 0
    versions = client.get(f"/api/workflows/{workflow['id']}/").json()
    assert versions["version"] == 2
    assert versions["steps"][1]["action"] == "type"
    assert versions["steps"][1]["arguments"] == {"text": "{{fullname}}"}
    history = client.get(f"/api/workflows/{workflow['id']}/versions/").json()
    assert [v["number"] for v in history] == [2, 1]
    assert history[0]["note"] == f"Healed step 2 in run {healed.pk}"
    assert '-type: type "Full name"' in history[0]["changes"]
    assert any(line.startswith('+type: type "Your name" (healed from') for line in history[0]["changes"])

    before = len(llm.requests)
    again = replay(client, workflow["id"], fullname="Alan Turing", email="alan@example.com")
    assert again.status == "succeeded", again.error
    assert "Welcome Alan Turing <alan@example.com> on the pro plan" in _result_text(client, again)
    assert len(llm.requests) == before  # the healed version replays without the model

    (folder / "signup.html").write_text((PAGES / "signup_gone.html").read_text())
    failed = replay(client, workflow["id"])
    assert failed.status == "failed"
    assert failed.error.startswith('Step 2 of 5 (type "Your name"')
    assert failed.error.endswith("the agent could not heal it: there is no name field on this page")
    assert client.get(f"/api/workflows/{workflow['id']}/").json()["version"] == 2


def test_bad_parameters_and_other_users_workflows_are_refused(llm: ScriptedLLM, site: tuple[str, Path]) -> None:
    base, _ = site
    llm.script(_agent_signs_up)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    run = _agent_does(client, conversation.pk, f"Sign me up at {base}/signup.html")
    workflow = _saved(client, run, "Join")

    wrong = client.post(f"/api/workflows/{workflow['id']}/runs/", {"parameters": {"age": "7"}}, format="json")
    assert wrong.status_code == 400
    assert "Unknown parameter(s): age" in wrong.json()["detail"]
    stranger = signed_in(ConversationFactory().owner)
    assert stranger.get(f"/api/workflows/{workflow['id']}/").status_code == 404
    assert stranger.post(f"/api/workflows/{workflow['id']}/runs/", {}, format="json").status_code == 404
    assert stranger.post(f"/api/runs/{run.pk}/workflow/", {"name": "Mine"}, format="json").status_code == 404
    assert stranger.get("/api/workflows/").json() == []


def test_an_exported_script_runs_without_hive_and_finds_moved_elements(
    llm: ScriptedLLM, site: tuple[str, Path], tmp_path: Path
) -> None:
    base, folder = site
    llm.script(_agent_signs_up)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    agent_run = _agent_does(client, conversation.pk, f"Sign me up at {base}/signup.html")
    workflow = _saved(client, agent_run, "Join the club")

    exported = client.get(f"/api/workflows/{workflow['id']}/export/")
    assert exported.status_code == 200
    assert exported["Content-Disposition"] == 'attachment; filename="join_the_club.py"'
    script = tmp_path / "join_the_club.py"
    script.write_bytes(exported.content)

    (folder / "signup.html").write_text((PAGES / "signup_redesigned.html").read_text())
    done = subprocess.run(
        [sys.executable, str(script), "--fullname", "Ada Byron", "--email", "ada@byron.org", "--browser", CHROMIUM],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Welcome Ada Byron <ada@byron.org> on the pro plan" in json.loads(done.stdout)["text"]
    assert "step 5: click" in done.stderr


class _Receiver(BaseHTTPRequestHandler):
    """A webhook receiver on loopback: refuses the first delivery with a 500, takes the next ones."""

    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 - the base class names it so
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(500 if len(self.received) == 1 else 204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


def _one_step_workflow(user: Any, url: str) -> int:
    return workflow_with(user, "Open the form", [step("navigate", "open the form", url=url)])


def test_a_finished_replay_is_posted_to_the_webhook_signed_and_retried(site: tuple[str, Path]) -> None:
    base, _ = site
    _Receiver.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        conversation = ConversationFactory()
        client = signed_in(conversation.owner)
        workflow_id = _one_step_workflow(conversation.owner, f"{base}/signup.html")
        hook = client.post(
            f"/api/workflows/{workflow_id}/webhook/",
            {"url": f"http://127.0.0.1:{server.server_address[1]}/hook"},
            format="json",
        )
        assert hook.status_code == 201, hook.content
        secret = hook.json()["secret"]
        assert client.get(f"/api/workflows/{workflow_id}/").json()["webhook_url"].endswith("/hook")

        run = replay(client, workflow_id)
        assert run.status == "succeeded", run.error

        def delivered() -> bool:
            return WebhookDelivery.objects.filter(run=run, status="delivered").exists()

        wait_until(delivered, 30, "the webhook to be delivered")
    finally:
        server.shutdown()
        server.server_close()
    log = client.get(f"/api/workflows/{workflow_id}/deliveries/").json()
    assert [attempt["status_code"] for attempt in log[0]["log"]] == [500, 204]
    assert log[0]["attempts"] == 2
    headers, body = _Receiver.received[-1]
    assert headers["x-hive-event"] == "workflow.run.finished"
    expected = hmac.new(secret.encode(), headers["x-hive-timestamp"].encode() + b"." + body, hashlib.sha256)
    assert hmac.compare_digest(headers["x-hive-signature-256"], "sha256=" + expected.hexdigest())
    payload = json.loads(body)
    assert payload["run"] == {**payload["run"], "id": run.pk, "status": "succeeded"}
    assert payload["workflow"]["id"] == workflow_id


def test_a_schedule_becomes_a_beat_entry_that_replays_the_workflow_when_it_fires(site: tuple[str, Path]) -> None:
    base, _ = site
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    workflow_id = _one_step_workflow(conversation.owner, f"{base}/signup.html")

    for bad, why in (
        ({"cron": "every day"}, "five cron fields"),
        ({"cron": "61 * * * *"}, "Not a valid cron expression"),
        ({"cron": "0 9 * * 1-5", "timezone": "Mars/Olympus"}, "Unknown time zone"),
        ({"cron": "0 9 * * 1-5", "parameters": {"colour": "red"}}, "Unknown parameter(s): colour"),
    ):
        refused = client.post(f"/api/workflows/{workflow_id}/schedules/", bad, format="json")
        assert refused.status_code == 400, bad
        assert why in refused.json()["detail"]
    assert not PeriodicTask.objects.filter(task="workers.tasks.run_scheduled_workflow").exists()

    made = client.post(
        f"/api/workflows/{workflow_id}/schedules/", {"cron": "30 9 * * 1-5", "timezone": "Europe/Paris"}, format="json"
    )
    assert made.status_code == 201, made.content
    schedule = made.json()
    entry = PeriodicTask.objects.get(name=f"workflow-schedule-{schedule['id']}")
    crontab = entry.crontab
    assert crontab is not None
    assert (crontab.minute, crontab.hour, crontab.day_of_week, str(crontab.timezone)) == (
        "30", "9", "1-5", "Europe/Paris"
    )  # fmt: skip

    # Fire it the way beat does: send the entry's task with its arguments to its queue.
    _app().send_task(entry.task, args=json.loads(entry.args), queue=entry.queue)

    def replayed() -> bool:
        return Run.objects.filter(kind="workflow", conversation__owner=conversation.owner, status="succeeded").exists()

    wait_until(replayed, 30, "the scheduled replay")
    assert client.get(f"/api/workflows/{workflow_id}/schedules/").json()[0]["last_run"] is not None
    assert client.delete(f"/api/workflows/{workflow_id}/schedules/{schedule['id']}/").status_code == 204
    assert not PeriodicTask.objects.filter(pk=entry.pk).exists()


def _login_workflow(user: Any, url: str) -> int:
    return workflow_with(
        user,
        "Sign in",
        [
            step("navigate", "open", url=url),
            step("type", "type the username", tag="input", role="textbox", name="Username",
                 attributes={"name": "username"}, text="{{username}}"),
            step("type", "type the password", tag="input", role="textbox", name="Password",
                 attributes={"type": "password"}, text="{{password}}"),
            step("click", "sign in", tag="button", role="button", name="Sign in"),
        ],
        [parameter("username", "Username", "ada"), parameter("password", "Password", secret=True)],
    )  # fmt: skip


def test_a_secret_comes_from_the_credential_store_and_is_never_shown(site: tuple[str, Path]) -> None:
    base, folder = site
    shutil.copy(PAGES / "login.html", folder / "login.html")
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    workflow_id = _login_workflow(conversation.owner, f"{base}/login.html")
    secret = "correct horse battery staple"

    missing = client.post(f"/api/workflows/{workflow_id}/runs/", {"parameters": {}}, format="json")
    assert missing.status_code == 400
    assert missing.json()["detail"] == "Name a saved credential for: password."
    stored = client.post("/api/credentials/", {"name": "club-login", "value": secret}, format="json")
    assert stored.status_code == 201, stored.content
    assert secret not in json.dumps(client.get("/api/credentials/").json())

    run = replay(client, workflow_id, password="club-login")
    assert run.status == "succeeded", run.error
    assert "Hello ada" in _result_text(client, run)
    shown = json.dumps(client.get(f"/api/runs/{run.pk}/").json(), ensure_ascii=False)
    assert secret not in shown
    assert "••••••••" in shown
    deliveries_and_workflow = json.dumps(client.get(f"/api/workflows/{workflow_id}/").json())
    assert secret not in deliveries_and_workflow

    history = client.get(f"/api/workflows/{workflow_id}/runs/").json()
    assert history[0]["id"] == run.pk
    assert history[0]["parameters"] == {"username": "ada", "password": "••••••••"}
    assert history[0]["url"] == f"{base}/login.html"
    unknown = replay(client, workflow_id, password="no-such-login")
    assert unknown.status == "failed"
    assert unknown.error == (
        f"No credential named 'no-such-login' for the parameter password in {conversation.owner}'s credential store."
    )
    stranger = signed_in(ConversationFactory().owner)
    assert stranger.get("/api/credentials/").json() == []


def _js_workflow(user: Any, url: str) -> int:
    steps = [step("navigate", "open", url=url), step("execute_js", "read", code="return document.title")]
    return workflow_with(user, "Read the title", steps)


def _answer_when_asked(client: APIClient, run_id: int, approve: bool) -> None:
    def asked() -> bool:
        return Confirmation.objects.filter(run_id=run_id, status="pending").exists()

    wait_until(asked, 30, "the replay to ask")
    pending = Confirmation.objects.get(run_id=run_id, status="pending")
    answered = client.post(f"/api/confirmations/{pending.pk}/answer/", {"approve": approve}, format="json")
    assert answered.status_code == 200, answered.content


def test_a_replay_asks_before_a_confirm_level_step_and_a_no_ends_it(site: tuple[str, Path]) -> None:
    base, _ = site
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    workflow_id = _js_workflow(conversation.owner, f"{base}/signup.html")
    for approve in (True, False):
        started = client.post(f"/api/workflows/{workflow_id}/runs/", {}, format="json")
        assert started.status_code == 202, started.content
        _answer_when_asked(client, started.json()["id"], approve)
        run = ended(started.json()["id"])
        if approve:
            assert run.status == "succeeded", run.error
            assert "Join the club" in run.steps.get(action="execute_js").observation
        else:
            assert run.status == "failed"
            assert run.error.startswith("Step 2 of 2 (read): Not done: it needs the user's yes")


def test_a_step_that_no_longer_leads_to_the_next_page_is_caught(llm: ScriptedLLM, tmp_path: Path) -> None:
    order_pages = Path(__file__).resolve().parents[1] / "agents" / "pages"
    for name in ("order.html", "result.html"):
        shutil.copy(order_pages / name, tmp_path / name)
    filler = form_filler("native")

    def agent(request: dict[str, Any]) -> Reply:
        if "no longer fits the page" in user_request(request):
            return Reply(content="CANNOT: the Submit button does not send the form any more")
        return filler(request)

    llm.script(agent)
    with serve_directory(tmp_path) as base:
        conversation = ConversationFactory()
        client = signed_in(conversation.owner)
        agent_run = _agent_does(
            client, conversation.pk, f"Order a flight club card at {base}/order.html for Ada Lovelace, ada@example.com."
        )
        workflow = _saved(client, agent_run, "Order")
        assert replay(client, workflow["id"], name="Grace").status == "succeeded"

        # The button still says Submit but no longer sends the form: the click works, its effect does not.
        page = (tmp_path / "order.html").read_text()
        (tmp_path / "order.html").write_text(page.replace('<button type="submit">', '<button type="button">'))
        broken = replay(client, workflow["id"], name="Grace")
    assert broken.status == "failed"
    assert broken.error.startswith('Step 4 of 4 (click "Submit"')
    assert "it did not lead to another page, as it did when recorded" in broken.error
    assert broken.error.endswith("the agent could not heal it: the Submit button does not send the form any more")


def test_a_shared_workflow_runs_for_a_controller_with_their_own_credentials(site: tuple[str, Path]) -> None:
    base, folder = site
    shutil.copy(PAGES / "login.html", folder / "login.html")
    owner_conversation = ConversationFactory()
    owner = signed_in(owner_conversation.owner)
    workflow_id = _login_workflow(owner_conversation.owner, f"{base}/login.html")
    mate_user, viewer_user = ConversationFactory().owner, ConversationFactory().owner
    for user, role in ((mate_user, "controller"), (viewer_user, "viewer")):
        shared = owner.post(
            f"/api/workflows/{workflow_id}/shares/", {"username": user.username, "role": role}, format="json"
        )
        assert shared.status_code == 201, shared.content
    owner.post("/api/credentials/", {"name": "club-login", "value": "correct horse battery staple"}, format="json")
    hook = owner.post(f"/api/workflows/{workflow_id}/webhook/", {"url": "http://127.0.0.1:9/hook"}, format="json")
    assert hook.status_code == 201, hook.content
    mate, viewer = signed_in(mate_user), signed_in(viewer_user)
    assert mate.get(f"/api/workflows/{workflow_id}/").json()["webhook_url"] is None
    mate.post("/api/credentials/", {"name": "club-login", "value": "my own, wrong, password"}, format="json")

    assert [w["access"] for w in mate.get("/api/workflows/").json()] == ["controller"]
    refused = viewer.post(
        f"/api/workflows/{workflow_id}/runs/", {"parameters": {"password": "club-login"}}, format="json"
    )
    assert refused.status_code == 403
    assert "not run it" in refused.json()["detail"]
    assert mate.patch(f"/api/workflows/{workflow_id}/", {"name": "mine now"}, format="json").status_code == 403

    run = replay(mate, workflow_id, password="club-login")
    assert run.status == "succeeded", run.error
    assert run.conversation.owner_id == mate_user.pk
    assert "Wrong password" in _result_text(mate, run)  # the controller's credential, not the owner's
    assert [r["id"] for r in mate.get(f"/api/workflows/{workflow_id}/runs/").json()] == [run.pk]
    assert viewer.get(f"/api/workflows/{workflow_id}/runs/").json() == []  # not their conversation
    # Nor the owner's: the run, its parameters and where it ended stay the teammate's, in the list of replays and
    # for the owner's webhook alike.
    assert owner.get(f"/api/workflows/{workflow_id}/runs/").json() == []
    assert not WebhookDelivery.objects.filter(run=run).exists()
