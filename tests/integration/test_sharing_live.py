"""A shared conversation's websocket with the real Redis channel layer: who may connect, presence as people
come and go, one holder of the browser's controls whose input alone reaches the worker, and revoking (or a
link expiring) cutting a teammate's socket at once. No worker or browser: the test listens on the session
group in the worker's place."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import EventStream, open_stream
from tests.support.group_listener import GroupListener
from webapp.core import placement
from webapp.core.events import session_group
from webapp.sharing.control import CONTROL_PREFIX
from webapp.sharing.models import Share

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _fresh_live_state() -> None:
    conn = placement.client()
    for key in [*conn.scan_iter(match=CONTROL_PREFIX + "*"), *conn.scan_iter(match=placement.VIEWERS_PREFIX + "*")]:
        conn.delete(key)


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.default_format = "json"
    client.force_login(user)
    return client


@sync_to_async
def call(user: Any, method: str, path: str, body: Any = None) -> Any:
    response = getattr(_api(user), method)(path, body)
    return response.status_code, (response.json() if response.content else None)


class Team:
    def __init__(self) -> None:
        self.conversation = ConversationFactory()
        self.owner = self.conversation.owner
        self.controller = UserFactory(username=f"ctrl{self.conversation.pk}")
        self.viewer = UserFactory(username=f"view{self.conversation.pk}")
        self.stranger = UserFactory()
        self.shares: dict[str, int] = {}
        for teammate, role in ((self.controller, "controller"), (self.viewer, "viewer")):
            response = _api(self.owner).post(
                f"/api/conversations/{self.conversation.pk}/shares/", {"username": teammate.username, "role": role}
            )
            self.shares[role] = response.json()["id"]

    @property
    def cid(self) -> int:
        return int(self.conversation.pk)


@pytest_asyncio.fixture
async def team() -> Team:
    return await sync_to_async(Team)()


class SessionListener(GroupListener):
    """Stands in for the worker holding the session: collects the commands sent to its group."""

    def __init__(self, conversation_id: int) -> None:
        super().__init__(session_group(conversation_id))

    @property
    def commands(self) -> list[dict[str, Any]]:
        return [message["command"] for message in self.messages]

    async def until(self, predicate: Callable[[dict[str, Any]], bool], wait_s: float = 5) -> dict[str, Any]:
        message = await super().until(lambda message: predicate(message["command"]), wait_s)
        return dict(message["command"])

    async def none_of(self, predicate: Callable[[dict[str, Any]], bool], wait_s: float = 0.5) -> None:
        try:
            await self.until(predicate, wait_s)
        except TimeoutError:
            return
        raise AssertionError(f"an unexpected command reached the worker: {self.commands}")


@pytest_asyncio.fixture
async def worker_side(team: Team) -> AsyncIterator[SessionListener]:
    listener = SessionListener(team.cid)
    await listener.start()
    yield listener
    await listener.stop()


async def closed_with(stream: EventStream, wait_s: float = 3) -> int:
    """Wait for the server to close the socket; its close code."""
    while True:
        output = await stream.communicator.receive_output(timeout=wait_s)
        if output["type"] == "websocket.close":
            return int(output.get("code", 1000))
        stream.events.append(json.loads(output["text"]))


async def next_event(stream: EventStream, kind: str, wait_s: float = 5) -> dict[str, Any]:
    """The next event of a kind that arrives from now on (not one received earlier)."""
    while True:
        event = await stream.communicator.receive_json_from(timeout=wait_s)
        stream.events.append(event)
        if event["type"] == kind:
            return event


def presence_of(*names: str) -> Callable[[dict[str, Any]], bool]:
    return lambda e: e["type"] == "presence" and [v["username"] for v in e["viewers"]] == list(names)


async def test_owner_controller_and_viewer_connect_with_their_roles_and_others_are_refused(
    team: Team, stream_factory: Callable[..., Any]
) -> None:
    for user, role in ((team.owner, "owner"), (team.controller, "controller"), (team.viewer, "viewer")):
        stream = await stream_factory(user, team.cid)
        hello = stream.of_type("hello")[0]
        assert (hello["role"], hello["conversation"]["role"], hello["control"]) == (role, role, {"holder": None})
        assert hello["conversation"]["shared"] is (role != "owner")
    await sync_to_async(Share.objects.filter(pk=team.shares["viewer"]).update)(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    for visitor in (team.stranger, team.viewer, None):  # a stranger, an expired share, nobody signed in
        connected, code, stream = await open_stream(visitor, team.cid)
        assert (connected, code) == (False, 4403)
        await stream.communicator.disconnect()


async def test_presence_lists_everyone_watching_as_they_come_and_go(
    team: Team, stream_factory: Callable[..., Any]
) -> None:
    owner = await stream_factory(team.owner, team.cid)
    await owner.until(presence_of(team.owner.username))
    viewer = await stream_factory(team.viewer, team.cid)
    joined = await owner.until(presence_of(team.owner.username, team.viewer.username))
    assert [v["role"] for v in joined["viewers"]] == ["owner", "viewer"]
    assert all(v["since"].endswith("+00:00") for v in joined["viewers"])
    await viewer.until(presence_of(team.owner.username, team.viewer.username))
    second_tab = await stream_factory(team.viewer, team.cid)  # one person, listed once
    await second_tab.until(presence_of(team.owner.username, team.viewer.username))
    await viewer.communicator.disconnect()
    await second_tab.communicator.disconnect()
    await owner.until(presence_of(team.owner.username))


async def test_input_reaches_the_worker_only_from_the_holder_of_the_controls(
    team: Team, stream_factory: Callable[..., Any], worker_side: SessionListener
) -> None:
    owner = await stream_factory(team.owner, team.cid)
    controller = await stream_factory(team.controller, team.cid)
    viewer = await stream_factory(team.viewer, team.cid)
    click = {"type": "input", "kind": "click", "x": 0.5, "y": 0.5}
    is_input = lambda c: c["type"] == "input"  # noqa: E731

    await viewer.communicator.send_json_to(click)
    assert "Viewers cannot use the live browser" in (await next_event(viewer, "error"))["detail"]
    await viewer.communicator.send_json_to({"type": "control.take"})
    assert "not act in it" in (await next_event(viewer, "error"))["detail"]
    await controller.communicator.send_json_to(click)
    assert "Take control" in (await next_event(controller, "error"))["detail"]
    await worker_side.none_of(is_input)

    await controller.communicator.send_json_to({"type": "control.take"})
    for stream in (owner, controller, viewer):
        await stream.until(lambda e: e["type"] == "control.updated" and e["holder"] == team.controller.username)
    paused = await worker_side.until(lambda c: c["type"] == "control.changed")
    assert paused == {
        "type": "control.changed",
        "paused": True,
        "holder": team.controller.username,
        "conversation_id": team.cid,
    }
    await controller.communicator.send_json_to({**click, "x": 0.25})
    relayed = await worker_side.until(is_input)
    assert relayed["input"] == {"kind": "click", "x": 0.25, "y": 0.5}

    await owner.communicator.send_json_to(click)
    assert f"{team.controller.username} has control" in (await next_event(owner, "error"))["detail"]
    await owner.communicator.send_json_to({"type": "control.take"})  # the owner takes over
    await controller.until(lambda e: e["type"] == "control.updated" and e["holder"] == team.owner.username)
    await controller.communicator.send_json_to(click)
    assert f"{team.owner.username} has control" in (await next_event(controller, "error"))["detail"]
    await owner.communicator.send_json_to({**click, "x": 0.75})
    assert (await worker_side.until(lambda c: is_input(c) and c["input"]["x"] == 0.75))["input"]["x"] == 0.75
    assert [c["input"]["x"] for c in worker_side.commands if is_input(c)] == [0.25, 0.75]

    await owner.communicator.send_json_to({"type": "control.release"})
    await viewer.until(lambda e: e["type"] == "control.updated" and e["holder"] is None)
    resumed = await worker_side.until(lambda c: c["type"] == "control.changed" and not c["paused"])
    assert resumed["holder"] is None


async def test_control_is_handed_back_when_its_holder_disconnects(
    team: Team, stream_factory: Callable[..., Any], worker_side: SessionListener
) -> None:
    owner = await stream_factory(team.owner, team.cid)
    controller = await stream_factory(team.controller, team.cid)
    status, body = await call(team.controller, "post", f"/api/conversations/{team.cid}/control/", {"action": "take"})
    assert (status, body) == (200, {"holder": team.controller.username})
    await owner.until(lambda e: e["type"] == "control.updated" and e["holder"] == team.controller.username)
    await controller.communicator.disconnect()
    await owner.until(lambda e: e["type"] == "control.updated" and e["holder"] is None)
    await worker_side.until(lambda c: c["type"] == "control.changed" and not c["paused"])
    assert await call(team.owner, "get", f"/api/conversations/{team.cid}/control/") == (200, {"holder": None})


async def test_revoking_a_share_cuts_the_teammates_socket_at_once(
    team: Team, stream_factory: Callable[..., Any]
) -> None:
    owner = await stream_factory(team.owner, team.cid)
    controller = await stream_factory(team.controller, team.cid)
    await controller.communicator.send_json_to({"type": "control.take"})
    await owner.until(lambda e: e["type"] == "control.updated" and e["holder"] == team.controller.username)
    await owner.until(presence_of(team.owner.username, team.controller.username))

    status, _ = await call(team.owner, "delete", f"/api/conversations/{team.cid}/shares/{team.shares['controller']}/")
    assert status == 204
    assert await closed_with(controller, wait_s=2) == 4403
    await owner.until(lambda e: e["type"] == "control.updated" and e["holder"] is None)
    await owner.until(presence_of(team.owner.username))
    connected, code, again = await open_stream(team.controller, team.cid)
    assert (connected, code) == (False, 4403)
    await again.communicator.disconnect()


async def test_a_changed_role_applies_to_the_open_socket(team: Team, stream_factory: Callable[..., Any]) -> None:
    owner = await stream_factory(team.owner, team.cid)
    viewer = await stream_factory(team.viewer, team.cid)
    path = f"/api/conversations/{team.cid}/shares/{team.shares['viewer']}/"
    assert (await call(team.owner, "patch", path, {"role": "controller"}))[0] == 200
    assert (await viewer.until(lambda e: e["type"] == "access.updated"))["role"] == "controller"
    await owner.until(
        lambda e: e["type"] == "presence" and [v["role"] for v in e["viewers"]] == ["owner", "controller"]
    )
    await viewer.communicator.send_json_to({"type": "control.take"})
    await owner.until(lambda e: e["type"] == "control.updated" and e["holder"] == team.viewer.username)
    assert (await call(team.owner, "patch", path, {"role": "viewer"}))[0] == 200
    await viewer.until(lambda e: e["type"] == "access.updated" and e["role"] == "viewer")
    await owner.until(lambda e: e["type"] == "control.updated" and e["holder"] is None)
    # Settings the owner changes reach the teammate as they see the conversation.
    assert (await call(team.owner, "patch", f"/api/conversations/{team.cid}/", {"title": "Trip"}))[0] == 200
    updated = await viewer.until(lambda e: e["type"] == "conversation.updated")
    assert (updated["conversation"]["title"], updated["conversation"]["role"]) == ("Trip", "viewer")
    assert updated["conversation"]["shared"] is True
    mine = await owner.until(lambda e: e["type"] == "conversation.updated")
    assert (mine["conversation"]["role"], mine["conversation"]["shared"]) == ("owner", False)


async def test_an_expiring_link_cuts_the_guest_when_it_expires(team: Team, stream_factory: Callable[..., Any]) -> None:
    guest = await sync_to_async(UserFactory)()
    status, link = await call(team.owner, "post", f"/api/conversations/{team.cid}/share-links/", {"role": "viewer"})
    assert status == 201
    assert (await call(guest, "post", f"/api/share-links/{link['token']}/accept/"))[0] == 200
    soon = timezone.now() + timedelta(seconds=1.5)
    await sync_to_async(Share.objects.filter(conversation_id=team.cid, token=link["token"]).update)(expires_at=soon)
    await sync_to_async(Share.objects.filter(via_link_id=link["id"]).update)(expires_at=soon)
    owner = await stream_factory(team.owner, team.cid)
    stream = await stream_factory(guest, team.cid)
    await owner.until(presence_of(team.owner.username, guest.username))
    assert await closed_with(stream, wait_s=4) == 4403
    assert timezone.now() - soon < timedelta(seconds=1)
    await owner.until(presence_of(team.owner.username))
    connected, code, again = await open_stream(guest, team.cid)
    assert (connected, code) == (False, 4403)
    await again.communicator.disconnect()
