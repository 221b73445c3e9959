"""A hand-off to a person through the whole stack (a real worker, Chromium, the scripted model): on a page with a code
drawn in a picture (the model cannot read it), the agent asks a person; the run waits, the owner gets an e-mail and their dashboard hears of it on their own socket; a
viewer can neither answer nor take over; the owner takes control over the live view's websocket, types the code and
hands back; the agent goes on from the page the person left and finishes, and the browser profile the conversation
writes already holds the person's cookie when the agent goes on. Nobody coming gives the agent a readable result
and the run ends."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from tests.agents.support import calls_made, observations, user_request
from tests.conftest import MainWorker, start_ready_worker
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.integration.test_user_channel import own_socket
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.processes import wait_until
from tests.support.static_server import serve_directory
from tests.support.workflows import ended, step, workflow_with
from webapp.conversations.models import Conversation
from webapp.profiles.selectors import profile_state
from webapp.runs.models import Confirmation, Run
from webapp.sharing.models import Share

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.browser]

VIEWPORT = (1280, 800)
CODE = "7351"  # drawn in the page's picture (pages/handoff/captcha.html)
REASON = "Type the code shown in the picture into the field; I cannot read pictures."


@pytest.fixture(scope="module")
def door() -> Iterator[str]:
    with serve_directory(Path(__file__).parent / "pages" / "handoff") as url:
        yield url


class PersonWanted:
    """The scripted model: opens the page, asks a person for the code, then answers from the page it is left on.
    When it reads the hand-back it notes what the conversation's profile holds at that moment."""

    def __init__(self, profile_id: int | None = None) -> None:
        self.profile_id = profile_id
        self.profile_cookies_at_hand_back: list[str] | None = None

    def __call__(self, request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        seen = "\n".join(observations(request))
        if not made:
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": user_request(request).split()[-1]}}])
        if "ask_person" not in made:
            return Reply(tool_calls=[{"name": "ask_person", "arguments": {"reason": REASON}}])
        if "nobody took over the browser" in seen:
            return Reply(content="Nobody came to type the code; a person has to do it.")
        if "handed it back" in seen and self.profile_id is not None and self.profile_cookies_at_hand_back is None:
            state = profile_state(profile_id=self.profile_id)
            self.profile_cookies_at_hand_back = [f"{c['name']}={c['value']}" for c in state["cookies"]]
        if "Welcome, person" in seen:
            return Reply(content="The door is open: the page says Welcome, person.")
        return Reply(tool_calls=[{"name": "get_page_content", "arguments": {}}])


def _mails(folder: Path, to: str) -> list[str]:
    """The e-mails the services wrote to `to` (the file backend: one file per batch)."""
    return [
        m for f in sorted(folder.iterdir()) for m in f.read_text().split("\n" + "-" * 79 + "\n") if f"To: {to}" in m
    ]


def _read_write_profile(client: APIClient, conversation: Conversation, origin: str) -> int:
    host = origin.split("//")[1].split(":")[0]
    cookie = {"name": "visitor", "value": "ada", "domain": host, "path": "/", "expires": -1, "httpOnly": False,
              "secure": False, "sameSite": "Lax"}  # fmt: skip
    made = client.post("/api/profiles/", {"name": "door", "content": json.dumps({"cookies": [cookie]})}, format="json")
    assert made.status_code == 201, made.content
    profile_id = int(made.json()["id"])
    chosen = client.put(f"/api/conversations/{conversation.pk}/profile/", {"profile": profile_id, "mode": "read-write"},
                        format="json")  # fmt: skip
    assert chosen.status_code == 200, chosen.content
    return profile_id


def _send(client: APIClient, conversation: Conversation, text: str) -> int:
    sent = client.post(f"/api/conversations/{conversation.pk}/messages/", {"content": text}, format="json")
    assert sent.status_code == 201, sent.content
    return int(sent.json()["run"]["id"])


def _asked(run_id: int) -> Confirmation:
    wait_until(lambda: Confirmation.objects.filter(run_id=run_id, action="ask_person").exists(), 90, "ask_person")
    return Confirmation.objects.get(run_id=run_id, action="ask_person")


@pytest.mark.asyncio
@pytest.mark.usefixtures("celery_worker")
async def test_the_agent_asks_a_person_who_takes_over_types_the_code_and_hands_back(
    llm: ScriptedLLM, door: str, mail_dir: Path, stream_factory: Callable[..., Any]
) -> None:
    conversation = await sync_to_async(ConversationFactory)(title="Members")
    owner = conversation.owner
    owner.email = f"owner{owner.pk}@example.com"
    await sync_to_async(owner.save)()
    client = await sync_to_async(signed_in)(owner)
    profile_id = await sync_to_async(_read_write_profile)(client, conversation, door)
    script = PersonWanted(profile_id)
    llm.script(script)
    stream = await stream_factory(owner, conversation.pk)
    connected, _, own = await own_socket(owner)
    assert connected

    run_id = await sync_to_async(_send)(client, conversation, f"Open the members' door at {door}/captcha.html")
    asked = await stream.until(
        lambda e: e["type"] == "confirmation.requested" and e["confirmation"]["action"] == "ask_person", 90
    )
    card = asked["confirmation"]
    assert card["reason"] == REASON
    assert card["url"] == f"{door}/captcha.html"
    assert (await sync_to_async(Run.objects.get)(pk=run_id)).status == "waiting"
    mails = await sync_to_async(_mails)(mail_dir, owner.email)
    assert len(mails) == 1, "the owner is e-mailed once"
    assert "Subject: Hive: the agent needs you in Members" in mails[0]
    assert REASON in mails[0]
    assert f"/c/{conversation.pk}" in mails[0]

    told = await own.receive_json_from(timeout=10)
    assert told == {"type": "person.wanted", "conversation": conversation.pk, "title": "Members", "reason": REASON}
    await own.disconnect()

    await sync_to_async(_a_viewer_cannot_answer_or_take_over)(conversation, card["id"])

    send = stream.communicator.send_json_to
    await send({"type": "control.take"})
    await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == owner.username)
    await send({"type": "input", "kind": "click", "x": 200 / VIEWPORT[0], "y": 215 / VIEWPORT[1]})
    await send({"type": "input", "kind": "text", "text": CODE})
    await stream.until(
        lambda e: e["type"] == "tabs.updated" and any(t["url"].endswith("/welcome.html") for t in e["tabs"]), 40
    )
    await send({"type": "control.release"})
    answered = await stream.until(
        lambda e: e["type"] == "confirmation.updated" and e["confirmation"]["id"] == card["id"]
    )
    assert answered["confirmation"]["status"] == "approved"
    assert answered["confirmation"]["decided_by"] == owner.username

    run = await sync_to_async(ended)(run_id, 90)
    assert run.status == "succeeded", run.error
    handed = await sync_to_async(lambda: run.steps.get(action="ask_person"))()
    assert handed.status == "succeeded"
    assert f"{owner.username} did what you asked for in the browser and handed it back" in handed.observation
    reply = await sync_to_async(lambda: run.messages.filter(role="assistant").last())()
    assert reply is not None
    assert "Welcome, person" in reply.content
    assert script.profile_cookies_at_hand_back is not None
    assert "human=yes" in script.profile_cookies_at_hand_back, "the hand-back saved the person's cookie at once"


def _a_viewer_cannot_answer_or_take_over(conversation: Conversation, confirmation_id: int) -> None:
    viewer = UserFactory()
    Share.objects.create(conversation=conversation, user=viewer, role="viewer", created_by=conversation.owner)
    watcher = signed_in(viewer)
    answer = watcher.post(f"/api/confirmations/{confirmation_id}/answer/", {"approve": True}, format="json")
    assert answer.status_code == 403, answer.content
    take = watcher.post(f"/api/conversations/{conversation.pk}/control/", {"action": "take"}, format="json")
    assert take.status_code == 403, take.content
    assert Confirmation.objects.get(pk=confirmation_id).status == "pending"


def test_nobody_coming_gives_the_agent_a_readable_result_and_the_run_ends(
    llm: ScriptedLLM, door: str, main_worker: MainWorker, services_env: dict[str, str], redis_url: str
) -> None:
    main_worker.stop()  # only a worker with a short hand-off wait may take this test's runs
    worker = start_ready_worker("handoff", {**services_env, "HIVE_HANDOFF_TIMEOUT_S": "3"}, redis_url)
    try:
        llm.script(PersonWanted())
        conversation = ConversationFactory()
        client = signed_in(conversation.owner)
        run_id = _send(client, conversation, f"Open the members' door at {door}/captcha.html")
        assert _asked(run_id).reason == REASON
        run = ended(run_id, 90)
        assert run.status == "succeeded", run.error
        asked = Confirmation.objects.get(run=run, action="ask_person")
        assert asked.status == "expired"
        asking = run.steps.get(action="ask_person")
        assert asking.status == "failed"
        assert "nobody took over the browser within 3 s" in asking.error
        assert "Nobody came" in run.messages.get(role="assistant").content

        _a_replay_that_needs_a_person_tells_the_workflows_webhook(llm, client, conversation, door)
    finally:
        worker.stop()


class _Hook(BaseHTTPRequestHandler):
    """A workflow's webhook receiver: keeps every event it is sent."""

    events: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        _Hook.events.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def _heal_asks_a_person(request: dict[str, Any]) -> Reply:
    """Healing a step on the door page: only a person can, so ask one; nobody comes."""
    if "ask_person" not in calls_made(request):
        return Reply(tool_calls=[{"name": "ask_person", "arguments": {"reason": REASON}}])
    return Reply(content="CANNOT: nobody came to type the code in the picture.")


def _a_replay_that_needs_a_person_tells_the_workflows_webhook(
    llm: ScriptedLLM, client: APIClient, conversation: Conversation, door: str
) -> None:
    """A replay whose step no longer fits is healed by the agent; when it asks for a person, the workflow's webhook
    hears of it (nobody watches a scheduled replay)."""
    llm.script(_heal_asks_a_person)
    steps = [step("navigate", "open the door", url=f"{door}/captcha.html"),
             step("click", "press Enter", tag="button", role="button", name="Enter")]  # fmt: skip
    workflow_id = workflow_with(conversation.owner, "Door", steps)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Hook.events = []
    try:
        hook = client.post(f"/api/workflows/{workflow_id}/webhook/",
                           {"url": f"http://127.0.0.1:{server.server_address[1]}/hook"}, format="json")  # fmt: skip
        assert hook.status_code == 201, hook.content
        started = client.post(f"/api/workflows/{workflow_id}/runs/", {"conversation": conversation.pk}, format="json")
        assert started.status_code == 202, started.content
        replay = ended(started.json()["id"], 90)
        assert replay.status == "failed"
        assert "nobody came to type the code" in replay.error

        def told() -> bool:
            return {e["event"] for e in _Hook.events} >= {"workflow.run.person_wanted", "workflow.run.finished"}

        wait_until(told, 30, "the webhook to hear of the hand-off and the end")
    finally:
        server.shutdown()
        server.server_close()
    wanted = [e for e in _Hook.events if e["event"] == "workflow.run.person_wanted"]
    assert len(wanted) == 1
    assert wanted[0]["run"]["id"] == replay.pk
    assert wanted[0]["person_wanted"]["reason"] == REASON
    assert wanted[0]["person_wanted"]["url"] == f"{door}/captcha.html"
    assert wanted[0]["person_wanted"]["dashboard"].endswith(f"/c/{conversation.pk}")
