"""Runs recorded as Playwright traces, through the whole stack: a workflow replay keeps its trace, an agent run keeps
one only when it fails (or its conversation asks for every run's), each run's trace holds that run's actions with
screenshots and DOM snapshots, parses as Playwright's trace format, and holds neither a typed secret nor a password
field's value; it is served as `trace.zip` to the owner and a viewer and to nobody else."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index, user_request
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory
from tests.support.traces import Trace, trace_read
from tests.support.workflows import ended, parameter, replay, step, workflow_with
from webapp.conversations.models import Conversation
from webapp.runs.models import Run
from webapp.sharing.models import Share

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

PAGES = Path(__file__).resolve().parent / "pages" / "workflow"
SECRET = "correct horse battery staple"  # the password login.html accepts
TYPED_PASSWORD = "plain-typed-Pa55word"  # typed by the agent itself: known to no secret store, only to the field


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    shutil.copy(PAGES / "login.html", tmp_path / "login.html")
    shutil.copy(PAGES / "signup.html", tmp_path / "signup.html")
    with serve_directory(tmp_path) as base:
        yield base


def _trace_of(client: APIClient, run: Run) -> Trace:
    """The run's trace as its reader downloads it, there as soon as the run is seen ended (its ending decides)."""
    shown = client.get(f"/api/runs/{run.pk}/").json()
    assert shown["trace_url"] == f"/api/runs/{run.pk}/trace.zip"
    got = client.get(shown["trace_url"])
    assert got.status_code == 200
    assert got["Content-Type"] == "application/zip"
    assert got["Content-Disposition"].startswith("attachment")
    assert "trace.zip" in got["Content-Disposition"]
    assert got["X-Content-Type-Options"] == "nosniff"
    return trace_read(b"".join(got.streaming_content))  # type: ignore[attr-defined]


def _assert_a_playwright_trace(trace: Trace, url: str, *, pictures: bool = True) -> None:
    """What the Trace Viewer shows: the run's calls, with the pages' pictures (unless the run typed a secret, which a
    page may show back) and DOM snapshots between them."""
    assert any(name.endswith(".trace") for name in trace.entries)
    assert any(name.endswith(".network") for name in trace.entries)
    assert trace.of_type("context-options"), "a trace opens with its context's options"
    assert ("goto", {"url": url}) in [(m, {"url": p.get("url")}) for m, p in trace.actions()]
    frames = trace.of_type("screencast-frame")
    if not pictures:
        assert frames == []
        assert not [name for name in trace.entries if name.endswith(".jpeg")]
    else:
        assert frames
    assert all(trace.picture(frame).startswith(b"\xff\xd8") for frame in frames)  # JPEG pictures
    assert trace.of_type("frame-snapshot")
    assert any(entry.get("snapshot", {}).get("request", {}).get("url") == url for entry in trace.network)


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


def test_a_replay_keeps_a_trace_without_its_secret_that_readers_download(site: str) -> None:
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    workflow_id = _login_workflow(conversation.owner, f"{site}/login.html")
    stored = owner.post("/api/credentials/", {"name": "club-login", "value": SECRET}, format="json")
    assert stored.status_code == 201, stored.content

    run = replay(owner, workflow_id, password="club-login")
    assert run.status == "succeeded", run.error
    trace = _trace_of(owner, run)
    _assert_a_playwright_trace(trace, f"{site}/login.html", pictures=False)
    assert trace.holds("ada"), "the username is no secret: what was typed is in the trace"
    assert trace.holds(SECRET) == []
    assert trace.holds("••••••••")

    viewer, stranger = UserFactory(), UserFactory()
    # A replay runs in a conversation of its own: shared, its runs' traces are the viewer's to read too.
    Share.objects.create(conversation_id=run.conversation_id, user=viewer, role="viewer", created_by=conversation.owner)
    as_viewer = signed_in(viewer).get(f"/api/runs/{run.pk}/trace.zip")
    assert as_viewer.status_code == 200, as_viewer.content
    assert trace_read(b"".join(as_viewer.streaming_content)).events  # type: ignore[attr-defined]
    assert signed_in(stranger).get(f"/api/runs/{run.pk}/trace.zip").status_code == 404
    assert signed_in(stranger).get(f"/api/runs/{run.pk}/").status_code == 404


def _script(*steps: tuple[str, Callable[[dict[str, Any]], dict[str, Any]]], end: Reply) -> Callable[..., Reply]:
    def answer(request: dict[str, Any]) -> Reply:
        made = calls_made(request)
        if len(made) < len(steps):
            name, arguments = steps[len(made)]
            return Reply(tool_calls=[{"name": name, "arguments": arguments(request)}])
        return end

    return answer


def _goes_to_the_page(end: Reply) -> Callable[..., Reply]:
    return _script(("navigate", lambda r: {"url": user_request(r).split()[-1]}), end=end)


def _types_a_password(end: Reply) -> Callable[..., Reply]:
    return _script(
        ("navigate", lambda r: {"url": user_request(r).split()[-1]}),
        ("get_elements", lambda r: {}),
        ("type", lambda r: {"index": find_index(r, "Password"), "text": TYPED_PASSWORD}),
        end=end,
    )


def _agent_does(client: APIClient, conversation: Conversation, task: str) -> Run:
    sent = client.post(f"/api/conversations/{conversation.pk}/messages/", {"content": task}, format="json")
    assert sent.status_code == 201, sent.content
    return ended(sent.json()["run"]["id"], seconds=90)


def test_an_agent_run_keeps_its_trace_only_when_it_fails(llm: ScriptedLLM, site: str) -> None:
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    assert owner.get(f"/api/conversations/{conversation.pk}/").json()["trace_runs"] is False

    llm.script(_goes_to_the_page(Reply(content="Done.")))
    fine = _agent_does(owner, conversation, f"Open {site}/signup.html")
    assert fine.status == "succeeded", fine.error
    assert owner.get(f"/api/runs/{fine.pk}/").json()["trace_url"] is None
    assert owner.get(f"/api/runs/{fine.pk}/trace.zip").status_code == 404

    llm.script(_types_a_password(Reply(status=400, error="the model refuses")))
    failed = _agent_does(owner, conversation, f"Sign in on {site}/login.html")
    assert failed.status == "failed"
    trace = _trace_of(owner, failed)
    _assert_a_playwright_trace(trace, f"{site}/login.html")
    # Its own chunk: the run before it is not in it.
    assert f"{site}/signup.html" not in [p.get("url") for _, p in trace.actions()]
    assert trace.holds(TYPED_PASSWORD) == [], "a password field's value is masked wherever it appears"
    # By now the run before it has long been decided on: it kept none.
    assert owner.get(f"/api/runs/{fine.pk}/").json()["trace_url"] is None


def test_a_conversation_that_asks_keeps_every_runs_trace(llm: ScriptedLLM, site: str) -> None:
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    switched = owner.patch(f"/api/conversations/{conversation.pk}/", {"trace_runs": True}, format="json")
    assert switched.status_code == 200, switched.content
    assert switched.json()["trace_runs"] is True

    llm.script(_types_a_password(Reply(content="Typed it.")))
    run = _agent_does(owner, conversation, f"Type the password on {site}/login.html")
    assert run.status == "succeeded", run.error
    trace = _trace_of(owner, run)
    _assert_a_playwright_trace(trace, f"{site}/login.html")
    assert trace.holds(TYPED_PASSWORD) == []
    viewer = UserFactory()
    Share.objects.create(conversation=conversation, user=viewer, role="viewer", created_by=conversation.owner)
    refused = signed_in(viewer).patch(f"/api/conversations/{conversation.pk}/", {"trace_runs": False}, format="json")
    assert refused.status_code in (403, 404)


def test_an_action_by_hand_is_traced_only_when_the_conversation_asks(site: str) -> None:
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)

    def by_hand(url: str) -> Run:
        sent = owner.post(
            f"/api/conversations/{conversation.pk}/actions/",
            {"action": "navigate", "arguments": {"url": url}},
            format="json",
        )
        assert sent.status_code == 202, sent.content
        return ended(sent.json()["id"], seconds=60)

    # Nothing listens on port 1: the action fails, with its error and picture.
    failed = by_hand("http://127.0.0.1:1/")
    assert failed.status == "failed"

    switched = owner.patch(f"/api/conversations/{conversation.pk}/", {"trace_runs": True}, format="json")
    assert switched.status_code == 200, switched.content
    kept = by_hand(f"{site}/signup.html")
    assert kept.status == "succeeded", kept.error
    _assert_a_playwright_trace(_trace_of(owner, kept), f"{site}/signup.html")
    # By now the failed action has long been decided on: untraced, it kept none.
    assert owner.get(f"/api/runs/{failed.pk}/").json()["trace_url"] is None
