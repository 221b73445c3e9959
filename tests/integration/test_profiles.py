"""Browser profiles through the whole stack (a real worker, Chromium, a members' site with a session cookie): a login
done by hand on the live view, saved as a profile, is there in a second conversation, a workflow replay and a
scheduled replay started from it, with its local storage and IndexedDB; a read-write session saves back into the
profile and a second writer is refused naming the first; the lease goes with its session, and with a dead worker."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.conftest import MainWorker, start_ready_worker
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.login_site import PASSWORD, LoginSite, serve_login_site
from tests.support.processes import wait_until
from tests.support.runs import act, observation
from tests.support.workflows import ended, step, workflow_with
from webapp.conversations.models import Conversation
from webapp.profiles.models import BrowserProfile, ProfileShare
from webapp.profiles.selectors import profile_state
from webapp.sharing.models import Share
from webapp.workflows.schedules import schedule_fire

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.browser]

VIEWPORT = (1280, 800)


def _run_js(client: APIClient, conversation_id: int, code: str) -> dict[str, Any]:
    """The action's report: `data.result` holds the script's value as JSON when it ran."""
    return observation(act(client, conversation_id, "execute_js", code=code))


def _js(client: APIClient, conversation_id: int, code: str) -> Any:
    return json.loads(_run_js(client, conversation_id, code)["data"]["result"])


def _text(client: APIClient, conversation_id: int, selector: str) -> str:
    """The element's text; while the page is navigating (a sign-in's redirect) the read fails, as it would for
    anyone, and says why instead: the callers ask again."""
    result = _run_js(client, conversation_id, f"return document.querySelector({selector!r})?.textContent")
    if not result.get("ok", True) or "data" not in result:
        return f"(not read: {result.get('error')})"
    return str(json.loads(result["data"]["result"]))


def _page_says(client: APIClient, conversation_id: int, selector: str, expected: str) -> None:
    seen: list[str] = []

    def said() -> bool:
        seen.append(_text(client, conversation_id, selector))
        return seen[-1] == expected

    try:
        wait_until(said, 40, f"{selector} to say {expected!r}", interval=0.2)
    except TimeoutError as exc:
        page = _js(client, conversation_id, "return location.href + ' ' + document.body.innerText")
        raise AssertionError(f"{exc}; it said {seen[-3:]} on {page}") from None


def _signed_in_everywhere(client: APIClient, conversation_id: int, name: str) -> None:
    """The members page in that conversation's browser: signed in, with the greeting and the badge the first
    sign-in kept in local storage and IndexedDB."""
    _page_says(client, conversation_id, "#who", f"Signed in as {name}")
    _page_says(client, conversation_id, "#greeting", f"greeting: hello {name}")
    _page_says(client, conversation_id, "#badge", "badge: gold")


def _stored_text() -> str:
    """Every row of every table, as the database answers them (whichever engine it is)."""
    rows = io.StringIO()
    call_command("dumpdata", stdout=rows)
    return rows.getvalue()


async def _page_says_soon(client: APIClient, conversation_id: int, selector: str, expected: str) -> None:
    """`_page_says` in short steps: the socket's consumer reads the database on the same thread as this test's
    synchronous calls, so the person's input goes through only between them."""
    deadline = time.monotonic() + 40
    seen = ""
    while seen != expected:
        assert time.monotonic() < deadline, f"{selector} said {seen!r}, not {expected!r}"
        seen = await sync_to_async(_text)(client, conversation_id, selector)


async def _log_in_on_the_live_view(stream: Any, owner: str) -> None:
    """Take the controls and type into the form the way a person does on the live view's picture."""
    send = stream.communicator.send_json_to
    await send({"type": "control.take"})
    await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == owner)
    for x, y, text in ((240, 70, owner), (240, 170, PASSWORD)):
        await send({"type": "input", "kind": "click", "x": x / VIEWPORT[0], "y": y / VIEWPORT[1]})
        await send({"type": "input", "kind": "text", "text": text})
    await send({"type": "input", "kind": "click", "x": 240 / VIEWPORT[0], "y": 270 / VIEWPORT[1]})


@pytest.mark.asyncio
@pytest.mark.usefixtures("celery_worker")
async def test_a_login_by_hand_is_there_in_a_second_conversation_a_replay_and_a_scheduled_replay(
    stream_factory: Callable[..., Any],
) -> None:
    with serve_login_site() as site:
        first = await sync_to_async(ConversationFactory)()
        owner = first.owner
        client = await sync_to_async(signed_in)(owner)
        opened = await sync_to_async(act)(client, first.pk, "navigate", url=f"{site.base}/login")
        assert opened.status == "succeeded", opened.error
        stream = await stream_factory(owner, first.pk)
        await _log_in_on_the_live_view(stream, owner.username)
        await _page_says_soon(client, first.pk, "#badge", "badge: gold")
        await stream.communicator.send_json_to({"type": "control.release"})
        await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] is None)
        await sync_to_async(_signed_in_everywhere)(client, first.pk, owner.username)
        await sync_to_async(_started_from_the_saved_login)(client, first, site)


def _started_from_the_saved_login(client: APIClient, first: Conversation, site: LoginSite) -> None:
    owner = first.owner
    saved = client.post(f"/api/conversations/{first.pk}/profile/", {"name": "members"}, format="json")
    assert saved.status_code == 201, saved.content
    profile = saved.json()
    assert profile["origins"] == [
        {"origin": site.base, "cookies": 1, "local_storage": 1, "indexed_db": 1},
    ]
    (session_cookie,) = list(site.sessions)
    assert session_cookie not in saved.content.decode()

    second = ConversationFactory(owner=owner)
    chosen = client.put(f"/api/conversations/{second.pk}/profile/", {"profile": profile["id"], "mode": "read-only"},
                        format="json")  # fmt: skip
    assert chosen.status_code == 200, chosen.content
    act(client, second.pk, "navigate", url=f"{site.base}/members")
    _signed_in_everywhere(client, second.pk, owner.username)

    workflow_id = workflow_with(
        owner, "Members", [step("navigate", "open the members page", url=f"{site.base}/members")]
    )
    started = client.post(f"/api/workflows/{workflow_id}/runs/", {"profile": profile["id"], "profile_mode": "read-only"},
                          format="json")  # fmt: skip
    assert started.status_code == 202, started.content
    replay = ended(started.json()["id"])
    assert replay.status == "succeeded", replay.error
    _signed_in_everywhere(client, replay.conversation_id, owner.username)

    scheduled = client.post(f"/api/workflows/{workflow_id}/schedules/", {"cron": "0 9 * * *", "profile": profile["id"],
                            "profile_mode": "read-only"}, format="json")  # fmt: skip
    assert scheduled.status_code == 201, scheduled.content
    fired = schedule_fire(schedule_id=scheduled.json()["id"])
    assert fired is not None
    night_run = ended(fired.pk)
    assert night_run.status == "succeeded", night_run.error
    assert night_run.conversation_id not in (first.pk, second.pk, replay.conversation_id)
    _signed_in_everywhere(client, night_run.conversation_id, owner.username)

    assert session_cookie not in _stored_text(), "the session cookie is stored in plain text"
    assert session_cookie in json.dumps(profile_state(profile_id=profile["id"]))  # it is there, encrypted


def _import_signed_in(client: APIClient, site: LoginSite, username: str) -> int:
    """A profile imported from a storage state holding a session of the site (as an export from a browser)."""
    host = site.base.split("//")[1].split(":")[0]
    cookie = {"name": "sid", "value": site.sign_in(username), "domain": host, "path": "/", "expires": -1,
              "httpOnly": True, "secure": False, "sameSite": "Lax"}  # fmt: skip
    made = client.post("/api/profiles/", {"name": "members", "content": json.dumps({"cookies": [cookie]})},
                       format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    return int(made.json()["id"])


def _use(client: APIClient, conversation_id: int, profile_id: int, mode: str = "read-write") -> Any:
    return client.put(f"/api/conversations/{conversation_id}/profile/", {"profile": profile_id, "mode": mode},
                      format="json")  # fmt: skip


@pytest.mark.usefixtures("celery_worker")
def test_a_read_write_session_saves_back_and_a_second_writer_is_refused_until_it_lets_go() -> None:
    with serve_login_site() as site:
        writer = ConversationFactory()
        owner = writer.owner
        client = signed_in(owner)
        profile_id = _import_signed_in(client, site, "grace")
        assert _use(client, writer.pk, profile_id).status_code == 200
        act(client, writer.pk, "navigate", url=f"{site.base}/remember?color=blue")
        _page_says(client, writer.pk, "#who", "Signed in as grace")
        colors = [c["value"] for c in profile_state(profile_id=profile_id)["cookies"] if c["name"] == "color"]
        assert colors == ["blue"], "the run's end saved the new cookie back into the profile"
        shown = client.get(f"/api/profiles/{profile_id}/").json()
        assert shown["in_use"] == {"username": owner.username, "conversation": writer.pk}

        other = ConversationFactory(owner=owner)
        refused = _use(client, other.pk, profile_id)
        assert refused.status_code == 409
        assert f"in use by {owner.username} in conversation {writer.pk}" in refused.json()["detail"]
        assert _use(client, other.pk, profile_id, "read-only").status_code == 200
        act(client, other.pk, "navigate", url=f"{site.base}/members")
        _page_says(client, other.pk, "#color", "color: blue")
        act(client, other.pk, "navigate", url=f"{site.base}/remember?color=red")  # read-only: not saved back

        # The writer lets go (its conversation stops using the profile): its last state is saved, the lease freed.
        assert client.delete(f"/api/conversations/{writer.pk}/profile/").status_code == 204
        wait_until(lambda: BrowserProfile.objects.get(pk=profile_id).writer_id is None, 20, "the writer to let go")
        assert _use(client, other.pk, profile_id).status_code == 200
        act(client, other.pk, "navigate", url=f"{site.base}/members")
        _page_says(client, other.pk, "#color", "color: blue")  # the profile, not the read-only session's red
        assert BrowserProfile.objects.get(pk=profile_id).writer_id == other.pk


def test_the_lease_ends_with_its_idle_session_and_with_a_dead_worker(
    main_worker: MainWorker, services_env: dict[str, str], redis_url: str
) -> None:
    main_worker.stop()  # only a worker with short profile timings may take this test's runs
    worker = start_ready_worker(
        "profiles", {**services_env, "HIVE_PROFILE_WRITER_IDLE_S": "2", "HIVE_PROFILE_LEASE_S": "4"}, redis_url
    )
    try:
        with serve_login_site() as site:
            first = ConversationFactory()
            client = signed_in(first.owner)
            profile_id = _import_signed_in(client, site, "ada")
            assert _use(client, first.pk, profile_id).status_code == 200
            act(client, first.pk, "navigate", url=f"{site.base}/remember?color=green")
            assert BrowserProfile.objects.get(pk=profile_id).writer_id == first.pk
            # Nobody uses or watches it: the session is closed, saved back, and lets go of the profile.
            wait_until(lambda: BrowserProfile.objects.get(pk=profile_id).writer_id is None, 30, "the idle writer")
            assert "green" in json.dumps(profile_state(profile_id=profile_id))

            act(client, first.pk, "navigate", url=f"{site.base}/members")  # opened again, from the profile
            _page_says(client, first.pk, "#color", "color: green")
            assert BrowserProfile.objects.get(pk=profile_id).writer_id == first.pk
            worker.kill()  # its lease is not released and not renewed any more
            second = ConversationFactory(owner=first.owner)
            assert _use(client, second.pk, profile_id).status_code == 409
            wait_until(lambda: _use(client, second.pk, profile_id).status_code == 200, 15, "the dead worker's lease")
    finally:
        worker.stop()


@pytest.mark.usefixtures("celery_worker")
def test_a_teammates_run_draws_on_a_profile_only_when_it_is_shared_with_them() -> None:
    """A run uses its starter's stores: a controller of the owner's conversation starts from the owner's profile only
    once the profile itself is shared with them as controller; before that their run fails saying so."""
    with serve_login_site() as site:
        conversation = ConversationFactory()
        owner = conversation.owner
        mate = UserFactory()
        Share.objects.create(conversation=conversation, user=mate, role="controller", created_by=owner)
        profile_id = _import_signed_in(signed_in(owner), site, owner.username)
        assert _use(signed_in(owner), conversation.pk, profile_id, "read-only").status_code == 200

        theirs = signed_in(mate)
        refused = act(theirs, conversation.pk, "navigate", url=f"{site.base}/members")
        assert refused.status == "failed"
        assert "“members”, which is not shared with the person who started this run" in refused.error
        assert not refused.steps.exists()

        ProfileShare.objects.create(profile_id=profile_id, user=mate, role="controller")
        allowed = act(theirs, conversation.pk, "navigate", url=f"{site.base}/members")
        assert allowed.status == "succeeded", allowed.error
        _page_says(theirs, conversation.pk, "#who", f"Signed in as {owner.username}")
