"""The vault through the whole stack (a real worker, Chromium, a site with a password, a TOTP second factor and a
session cookie; the scripted model reads what it is sent): the agent signs in writing only placeholders, and the
password and every one-time code used appear in no model request and no stored byte (the database, the media folder,
the logs); on a page of another origin, even one reached through a redirect, the credential is refused with a reason
the agent reads, and the look-alike site receives nothing of it."""

from __future__ import annotations

import io
import json
import logging
import re
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.agents.support import calls_made, find_index, last_observation, observations, user_request
from tests.conftest import MainWorker
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.otp_site import PASSWORD, USERNAME, OtpSite, serve_otp_site
from tests.support.processes import wait_until
from tests.support.workflows import ended
from webapp.conversations.models import BrowserSession, Conversation
from webapp.runs.models import Run, Step

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]


@pytest.fixture
def site() -> Iterator[OtpSite]:
    with serve_otp_site() as served:
        yield served


@pytest.fixture
def look_alike() -> Iterator[OtpSite]:
    """The same pages on another port: another origin, as a phishing copy of the site would be."""
    with serve_otp_site() as served:
        yield served


def _type(label: str, text: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda request: {"index": find_index(request, label), "text": text}


def _click(label: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda request: {"index": find_index(request, label)}


SIGN_IN: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
    ("navigate", lambda request: {"url": user_request(request).split()[-1]}),
    ("get_elements", lambda request: {}),
    ("type", _type("Username", "{{members.username}}")),
    ("type", _type("Password", "{{members.password}}")),
    ("click", _click("Continue")),
    ("type", _type("Code", "{{members.otp}}")),
    ("click", _click("Verify")),
]


# Asked after signing in: the page still shows a value typed in the turn before.
FOLLOW_UP = "Look at the members page again and tell me what it says."


def _signs_in(request: dict[str, Any]) -> Reply:
    """Sign in with the vault's placeholders only; then say what the last page showed. Asked again, look again."""
    made = calls_made(request)
    if user_request(request) == FOLLOW_UP:
        if "get_page_content" not in made:
            return Reply(tool_calls=[{"name": "get_page_content", "arguments": {}}])
        return Reply(content="It says: " + last_observation(request)[-300:])
    if len(made) < len(SIGN_IN):
        name, arguments = SIGN_IN[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments(request)}])
    return Reply(content="Done. The page says: " + last_observation(request)[-300:])


def _save_credential(client: APIClient, site: OtpSite) -> None:
    saved = client.post(
        "/api/vault/",
        {"name": "members", "origins": [site.base], "username": USERNAME, "password": PASSWORD,
         "totp_secret": site.totp_secret},
        format="json",
    )  # fmt: skip
    assert saved.status_code == 201, saved.content


def _agent_does(client: APIClient, conversation: Conversation, task: str) -> Run:
    sent = client.post(f"/api/conversations/{conversation.pk}/messages/", {"content": task}, format="json")
    assert sent.status_code == 201, sent.content
    run = ended(sent.json()["run"]["id"], seconds=120)
    assert run.status == "succeeded", run.error
    return run


def _system_prompt(request: dict[str, Any]) -> str:
    return str(request["messages"][0]["content"])


def _file_bytes(path: Path) -> bytes:
    """A file as stored, and a zip's (a run's trace) every entry uncompressed, where a value would be readable."""
    stored = path.read_bytes()
    if not zipfile.is_zipfile(path):
        return stored
    with zipfile.ZipFile(path) as archive:
        return stored + b"".join(archive.read(name) for name in archive.namelist())


def _stored_bytes(since: float) -> bytes:
    """Every row of every table as the database gives them, and every file written to the media folder since `since`
    (the folder also keeps what earlier tests of this process stored: their traces' timestamps hold hundreds of
    thousands of six-digit runs, where a one-time code would be found by chance)."""
    rows = io.StringIO()
    call_command("dumpdata", stdout=rows)
    media = Path(settings.MEDIA_ROOT)
    written = [path for path in media.rglob("*") if path.is_file() and path.stat().st_mtime >= since]
    return rows.getvalue().encode() + b"".join(_file_bytes(path) for path in written)


def _saved_after(conversation: Conversation, run: Run) -> bool:
    saved = BrowserSession.objects.filter(conversation=conversation).values_list("saved_at", flat=True).first()
    run.refresh_from_db()
    return saved is not None and run.finished_at is not None and saved > run.finished_at


def _holds(stored: bytes, value: str) -> bool:
    """Whether a value is in the stored bytes; a one-time code as a number of its own, not inside a longer one (a
    timestamp such as 967832.326 or 1795842242826)."""
    if not value.isdigit():
        return value.encode() in stored
    return re.search(rb"(?<![0-9.])" + value.encode() + rb"(?![0-9.])", stored) is not None


def test_the_agent_signs_in_with_placeholders_and_never_sees_a_value(
    llm: ScriptedLLM, site: OtpSite, main_worker: MainWorker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    began = time.time() - 1  # a file's time is kept to the filesystem's precision
    llm.script(_signs_in)
    conversation = ConversationFactory(trace_runs=True)  # its runs' Playwright traces are stored bytes too
    client = signed_in(conversation.owner)
    _save_credential(client, site)
    run = _agent_does(client, conversation, f"Sign in to the members area at {site.base}/")

    # The site let the agent in: the password step, then a fresh one-time code, then the session cookie.
    assert list(site.sessions.values()) == [USERNAME]
    assert len(site.codes_accepted) == 1
    assert site.requests[-1] == "/members"
    assert "Signed in as" in run.steps.order_by("-index").first().observation  # type: ignore[union-attr]

    # It was told which placeholders it may use on that page, and only once it was there.
    assert "{{members.password}}" not in _system_prompt(llm.requests[0])
    told = _system_prompt(llm.requests[-1])
    assert "{{members.username}}, {{members.password}}, {{members.otp}}" in told
    assert site.base in told

    # The steps keep the placeholders the agent wrote, never the values typed.
    typed = [step.arguments["text"] for step in run.steps.filter(action="type").order_by("index")]
    assert typed == ["{{members.username}}", "{{members.password}}", "{{members.otp}}"]

    # The one-time code went into a plain text field, which was then hidden as a password field is (in every picture
    # of the page, tests/browser_pool/pool/test_step_picture.py): it reads as a dot per digit.
    code_typed = run.steps.filter(action="type").order_by("index").last()
    assert code_typed is not None
    assert '"value": "••••••"}' in code_typed.observation, code_typed.observation

    # The worker dies once the browser is saved (a crash, an out-of-memory kill): the next one restores the page
    # from that save, showing the username back.
    wait_until(lambda: _saved_after(conversation, run), 30, "the browser's save after the sign-in")
    assert main_worker.worker is not None
    earlier_log = main_worker.worker.log_path.read_text(errors="replace")
    main_worker.worker.kill()
    main_worker.stop()
    main_worker.ensure()

    # A later turn, and a step by hand, still find the page showing the username back: they mask it too (checked
    # with everything else sent and stored, below).
    again = _agent_does(client, conversation, FOLLOW_UP)
    assert "Signed in as ••••••••" in again.steps.get().observation
    by_hand = client.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "execute_js", "arguments": {"code": "document.body.innerText"}},
        format="json",
    )
    assert by_hand.status_code == 202, by_hand.content
    read = ended(by_hand.json()["id"], seconds=60)
    assert read.status == "succeeded", read.error
    assert "Signed in as ••••••••" in read.steps.get().observation
    # Saved as a workflow, the steps keep their placeholders, and a replay fills them from the starter's vault.
    saved = client.post(f"/api/runs/{run.pk}/workflow/", {"name": "Sign in"}, format="json")
    assert saved.status_code == 201, saved.content
    assert "{{members.password}}" in json.dumps(saved.json())
    started = client.post(f"/api/workflows/{saved.json()['id']}/runs/", {}, format="json")
    assert started.status_code == 202, started.content
    replayed = ended(started.json()["id"], seconds=120)
    assert replayed.status == "succeeded", replayed.error
    assert list(site.sessions.values()) == [USERNAME, USERNAME]

    secrets = [PASSWORD, USERNAME, site.totp_secret, *site.codes_accepted]
    sent = json.dumps(llm.requests)
    # The sign-in's trace, the next turn's, the step by hand's and the replay's (each kept once its run has ended).
    traced = Run.objects.exclude(trace="")
    wait_until(lambda: traced.count() == 4, 30, "every run's trace")
    stored = _stored_bytes(since=began)
    # Each run typed a secret or came after one in its browser: its trace keeps no picture of a page, which would
    # draw a value the page shows back.
    for run_traced in traced:
        with zipfile.ZipFile(run_traced.trace.path) as archive:
            assert not [name for name in archive.namelist() if name.endswith(".jpeg")], run_traced
    assert b'"frame-snapshot"' in stored  # and read uncompressed, where a typed value would be readable
    worker_log = earlier_log + (main_worker.worker.log_path.read_text(errors="replace") if main_worker.worker else "")
    for value in secrets:
        assert value not in sent, f"{value!r} was sent to the model"
        assert not _holds(stored, value), f"{value!r} is stored in plain text"
        assert value not in worker_log, f"{value!r} is in the worker's log"
        assert value not in caplog.text, f"{value!r} is in the log"
    # What the page echoed back of a value is masked too.
    assert "Signed in as ••••••••" in "\n".join(observations(llm.requests[-1]))


# A frame of another origin is not observed, so its fields have no index: aimed at by a selector into the frame.
IN_FRAME = "iframe >> internal:control=enter-frame >> "
INTO_THE_FRAME: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
    *SIGN_IN[:2],
    ("type", lambda request: {"selector": IN_FRAME + "[name=username]", "text": "{{members.username}}"}),
    ("type", lambda request: {"selector": IN_FRAME + "[name=password]", "text": "{{members.password}}"}),
    ("click", lambda request: {"selector": IN_FRAME + "button"}),
]


def _tries_the_look_alike(request: dict[str, Any]) -> Reply:
    """Open the address given (it may redirect elsewhere, or show the look-alike in a frame), type the credential,
    submit anyway; then report."""
    steps = INTO_THE_FRAME if user_request(request).endswith("/framed") else SIGN_IN[:5]
    made = calls_made(request)
    if len(made) < len(steps):
        name, arguments = steps[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments(request)}])
    return Reply(content="I could not sign in: " + " | ".join(observations(request))[-600:])


@pytest.mark.parametrize("way", ["typed-address", "redirected", "framed"])
def test_on_another_origin_the_credential_is_refused_and_nothing_reaches_it(
    llm: ScriptedLLM, site: OtpSite, look_alike: OtpSite, way: str
) -> None:
    llm.script(_tries_the_look_alike)
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    _save_credential(client, site)
    site.moved_to = f"{look_alike.base}/"
    # The look-alike's address itself; the site's address that redirects there; the site's page showing it in a frame.
    address = {"typed-address": f"{look_alike.base}/", "redirected": f"{site.base}/moved",
               "framed": f"{site.base}/framed"}[way]  # fmt: skip
    run = _agent_does(client, conversation, f"Sign in to the members area at {address}")

    refused = list(run.steps.filter(action="type").order_by("index"))
    assert [step.status for step in refused] == [Step.Status.FAILED, Step.Status.FAILED]
    for step in refused:
        assert f"may only be typed on {site.base}, and this page is {look_alike.base}" in step.error
    told = "\n".join(observations(llm.requests[-1]))
    assert f"the credential 'members' may only be typed on {site.base}" in told
    if way != "framed":  # the framing page is the credential's own origin: offered there, refused in the frame
        assert "{{members" not in _system_prompt(llm.requests[-1])

    # The look-alike got the form, submitted empty: none of the values reached it.
    assert "/" in look_alike.requests
    assert look_alike.received == ["", ""]
    assert not site.received


READ_FIELDS = "[...document.querySelectorAll('input')].map((field) => field.name + '=' + field.value).join(' | ')"


def _types_then_asks(request: dict[str, Any]) -> Reply:
    """Type the username and the password, then ask before submitting: the values wait in the page's fields."""
    made = calls_made(request)
    if len(made) < 4:
        name, arguments = SIGN_IN[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments(request)}])
    return Reply(content="I filled the form in. Shall I submit it?")


def _read_fields(client: APIClient, conversation: Conversation) -> Step:
    made = client.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "execute_js", "arguments": {"code": READ_FIELDS}},
        format="json",
    )
    assert made.status_code == 202, made.content
    return ended(made.json()["id"], seconds=60).steps.get()


def test_a_teammate_may_not_read_back_what_the_owners_run_typed_into_the_shared_browser(
    llm: ScriptedLLM, site: OtpSite
) -> None:
    began = time.time() - 1
    llm.script(_types_then_asks)
    conversation = ConversationFactory()
    owner = signed_in(conversation.owner)
    teammate = UserFactory(username=f"teammate{conversation.pk}")
    shared = owner.post(
        f"/api/conversations/{conversation.pk}/shares/", {"username": teammate.username, "role": "controller"},
        format="json",
    )  # fmt: skip
    assert shared.status_code in (200, 201), shared.content
    _save_credential(owner, site)
    _agent_does(owner, conversation, f"Sign in to the members area at {site.base}/")

    # The owner's own script reads the fields back masked.
    mine = _read_fields(owner, conversation)
    assert mine.status == Step.Status.SUCCEEDED, mine.error
    assert "password=••••••••" in mine.observation, mine.observation
    # The teammate's, in the same browser, is refused: their steps do not mask the owner's values.
    theirs = _read_fields(signed_in(teammate), conversation)
    assert theirs.status == Step.Status.FAILED
    assert "another person's run typed secrets from their vault into this browser" in theirs.error

    stored = _stored_bytes(since=began)
    for value in (PASSWORD, USERNAME):
        assert value not in theirs.observation + theirs.error
        assert not _holds(stored, value), f"{value!r} is stored in plain text"
