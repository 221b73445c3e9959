"""Sharing a conversation: shares by username and by expiring link, and who may do what with a shared
conversation (owner, controller, viewer, a stranger, a teammate whose link expired) on every endpoint."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.support.module_world import rolled_back
from tests.support.skills import DOCUMENT, empty_library
from webapp.conversations.models import BrowserSession, Conversation, Message, TabContent
from webapp.core import placement
from webapp.runs.models import Confirmation, Run, Step
from webapp.runs.services import step_finish
from webapp.sharing.control import CONTROL_PREFIX, control_holder
from webapp.sharing.models import Share
from webapp.skills.models import Skill
from webapp.skills.services import skill_import

pytestmark = pytest.mark.django_db

JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.default_format = "json"
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _fresh_live_state(settings: Any, tmp_path: Any) -> None:
    """Ids repeat between tests (their rows are rolled back): forget control holders and viewers of old ones."""
    settings.MEDIA_ROOT = str(tmp_path)
    conn = placement.client()
    for key in [*conn.scan_iter(match=CONTROL_PREFIX + "*"), *conn.scan_iter(match=placement.VIEWERS_PREFIX + "*")]:
        conn.delete(key)


@dataclass
class World:
    conversation: Conversation
    users: dict[str, Any]
    clients: dict[str, APIClient]
    ids: dict[str, Any]


@pytest.fixture
def world(user: Any, conversation: Conversation) -> World:
    return _world(user, conversation)


@pytest.fixture(scope="module")
def shared_world(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[World, str]]:
    """One world for the role-by-endpoint calls; its files stay in a folder of its own."""
    media = str(tmp_path_factory.mktemp("sharing-media"))
    with override_settings(MEDIA_ROOT=media), rolled_back(django_db_blocker):
        owner = UserFactory()
        yield _world(owner, ConversationFactory(owner=owner)), media


def _world(user: Any, conversation: Conversation) -> World:
    """A conversation with something behind every endpoint, shared with a controller, a viewer and (through
    a link that expired) a former guest; plus a stranger."""
    owner_api = client_for(user)
    controller, viewer, stranger, guest = (UserFactory() for _ in range(4))
    for teammate, role in ((controller, "controller"), (viewer, "viewer")):
        created = owner_api.post(
            f"/api/conversations/{conversation.pk}/shares/", {"username": teammate.username, "role": role}
        )
        assert created.status_code == 201, created.content
    link = owner_api.post(f"/api/conversations/{conversation.pk}/share-links/", {"role": "controller"}).json()
    assert client_for(guest).post(f"/api/share-links/{link['token']}/accept/").status_code == 200
    Share.objects.filter(pk=link["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    Share.objects.filter(via_link_id=link["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    spare_link = owner_api.post(f"/api/conversations/{conversation.pk}/share-links/", {"role": "viewer"}).json()

    run = Run.objects.create(conversation=conversation, status=Run.Status.SUCCEEDED, finished_at=timezone.now())
    step = Step.objects.create(run=run, index=0, kind="action", action="click")
    step_finish(step_id=step.pk, status="succeeded", screenshot=JPEG)
    confirmation = Confirmation.objects.create(
        run=run, action="click", reason="Pay", expires_at=timezone.now() + timedelta(hours=1)
    )
    BrowserSession.objects.create(
        conversation=conversation, tabs=[{"id": "t1", "title": "A", "url": "https://a.test/"}]
    )
    TabContent.objects.create(conversation=conversation, tab_id="t1", title="A", content="text")
    empty_library()
    skill_import(document=[DOCUMENT])
    users = {"owner": user, "controller": controller, "viewer": viewer, "stranger": stranger, "expired link": guest}
    return World(
        conversation=conversation,
        users=users,
        clients={role: owner_api if role == "owner" else client_for(someone) for role, someone in users.items()},
        ids={
            "cid": conversation.pk,
            "run": run.pk,
            "step": step.pk,
            "confirmation": confirmation.pk,
            "skill": Skill.objects.get(name="weather").pk,
            "link": spare_link["id"],
        },
    )


# (need, method, path, body, status when allowed)
ENDPOINTS: list[tuple[str, str, str, Any, int]] = [
    ("viewer", "get", "/api/conversations/{cid}/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/messages/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/runs/", None, 200),
    ("viewer", "get", "/api/runs/{run}/", None, 200),
    ("owner", "get", "/api/runs/{run}/debug/", None, 200),
    ("viewer", "get", "/api/steps/{step}/screenshot/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/tabs/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/tabs/t1/content/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/skills/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/control/", None, 200),
    ("viewer", "get", "/api/conversations/{cid}/tools/", None, 200),
    ("controller", "post", "/api/conversations/{cid}/messages/", {"content": "hello"}, 201),
    ("controller", "post", "/api/confirmations/{confirmation}/answer/", {"approve": True}, 200),
    ("controller", "post", "/api/runs/{run}/abort/", None, 202),
    ("controller", "post", "/api/conversations/{cid}/actions/", {"action": "go_back", "arguments": {}}, 202),
    ("controller", "post", "/api/conversations/{cid}/tabs/t1/content/", None, 202),
    ("controller", "delete", "/api/conversations/{cid}/tabs/t1/content/", None, 204),
    ("controller", "post", "/api/conversations/{cid}/control/", {"action": "take"}, 200),
    ("controller", "post", "/api/conversations/{cid}/control/", {"action": "release"}, 200),
    ("owner", "patch", "/api/conversations/{cid}/", {"title": "Renamed", "confirm_mode": "confirm"}, 200),
    ("owner", "delete", "/api/conversations/{cid}/", None, 204),
    ("owner", "post", "/api/conversations/{cid}/files/", "file", 201),
    ("owner", "post", "/api/conversations/{cid}/skills/{skill}/", {"enabled": False}, 200),
    ("owner", "get", "/api/conversations/{cid}/shares/", None, 200),
    ("owner", "post", "/api/conversations/{cid}/shares/", "new teammate", 201),
    ("owner", "post", "/api/conversations/{cid}/share-links/", {"role": "viewer", "expires_in_minutes": 60}, 201),
    ("owner", "patch", "/api/conversations/{cid}/shares/{link}/", {"role": "controller"}, 200),
    ("owner", "delete", "/api/conversations/{cid}/shares/{link}/", None, 204),
]
RANK = {"viewer": 1, "controller": 2, "owner": 3}
ROLES = ["owner", "controller", "viewer", "stranger", "expired link"]


def _expected(need: str, role: str, allowed: int) -> int:
    if role not in RANK:
        return 404
    return allowed if RANK[role] >= RANK[need] else 403


def _body(body: Any) -> tuple[Any, str]:
    if body == "file":
        return {"file": SimpleUploadedFile("notes.txt", b"hello")}, "multipart"
    if body == "new teammate":
        return {"username": UserFactory().username, "role": "viewer"}, "json"
    return body, "json"


def test_a_viewer_changes_nothing(world: World) -> None:
    viewer = world.clients["viewer"]
    cid = world.ids["cid"]
    viewer.post(f"/api/conversations/{cid}/messages/", {"content": "hi"}, format="json")
    viewer.post(f"/api/confirmations/{world.ids['confirmation']}/answer/", {"approve": True}, format="json")
    viewer.patch(f"/api/conversations/{cid}/", {"title": "Mine now"}, format="json")
    viewer.post(f"/api/conversations/{cid}/control/", {"action": "take"}, format="json")
    assert not Message.objects.filter(conversation_id=cid).exists()
    assert Confirmation.objects.get(pk=world.ids["confirmation"]).status == "pending"
    assert Conversation.objects.get(pk=cid).title != "Mine now"
    assert control_holder(conversation_id=cid) is None


def test_a_controller_sends_a_message_and_answers_a_confirmation(world: World) -> None:
    controller = world.clients["controller"]
    cid = world.ids["cid"]
    sent = controller.post(f"/api/conversations/{cid}/messages/", {"content": "Book it"}, format="json")
    assert sent.status_code == 201
    assert Run.objects.get(pk=sent.json()["run"]["id"]).conversation_id == cid
    answered = controller.post(
        f"/api/confirmations/{world.ids['confirmation']}/answer/", {"approve": False}, format="json"
    ).json()
    assert answered["status"] == "denied"
    assert answered["decided_by"] == world.users["controller"].username


def test_shared_conversations_are_listed_for_the_teammate_marked_as_shared(world: World, user: Any) -> None:
    viewer = world.users["viewer"]
    elsewhere = ConversationFactory()
    client_for(elsewhere.owner).post(
        f"/api/conversations/{elsewhere.pk}/shares/", {"username": viewer.username, "role": "controller"}
    )
    own = ConversationFactory(owner=viewer)
    listed = {c["id"]: c for c in world.clients["viewer"].get("/api/conversations/").json()}
    assert set(listed) == {world.ids["cid"], elsewhere.pk, own.pk}
    mark = {cid: (c["shared"], c["role"], c["owner"]) for cid, c in listed.items()}
    assert mark == {
        world.ids["cid"]: (True, "viewer", user.username),
        elsewhere.pk: (True, "controller", elsewhere.owner.username),
        own.pk: (False, "owner", viewer.username),
    }
    controller_view = world.clients["controller"].get(f"/api/conversations/{world.ids['cid']}/").json()
    assert (controller_view["shared"], controller_view["role"]) == (True, "controller")
    assert world.clients["expired link"].get("/api/conversations/").json() == []
    assert world.clients["stranger"].get("/api/conversations/").json() == []
    owner_view = world.clients["owner"].get("/api/conversations/").json()
    assert [(c["shared"], c["role"]) for c in owner_view] == [(False, "owner")]


def test_sharing_by_username_explains_what_is_wrong(api: APIClient, user: Any, conversation: Conversation) -> None:
    url = f"/api/conversations/{conversation.pk}/shares/"
    unknown = api.post(url, {"username": "nobody-here", "role": "viewer"}, format="json")
    assert unknown.status_code == 400
    assert "no user named 'nobody-here'" in unknown.json()["detail"]
    yourself = api.post(url, {"username": user.username}, format="json")
    assert yourself.status_code == 400
    assert "You own this conversation" in yourself.json()["detail"]
    bad_role = api.post(url, {"username": UserFactory().username, "role": "admin"}, format="json")
    assert bad_role.status_code == 400
    assert "role" in bad_role.json()
    assert not Share.objects.exists()


def test_sharing_again_changes_the_role_and_revoking_ends_the_access(
    api: APIClient, conversation: Conversation
) -> None:
    teammate = UserFactory()
    teammate_api = client_for(teammate)
    url = f"/api/conversations/{conversation.pk}/shares/"
    first = api.post(url, {"username": teammate.username, "role": "viewer"}, format="json")
    assert first.status_code == 201
    assert first.json() | {"id": 0, "created_at": ""} == {
        "id": 0,
        "conversation": conversation.pk,
        "kind": "user",
        "user": teammate.username,
        "role": "viewer",
        "token": None,
        "via_link": None,
        "expires_at": None,
        "expired": False,
        "created_by": conversation.owner.username,
        "created_at": "",
    }
    again = api.post(url, {"username": teammate.username, "role": "controller"}, format="json")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert teammate_api.get(f"/api/conversations/{conversation.pk}/").json()["role"] == "controller"
    share_url = f"{url}{first.json()['id']}/"
    assert api.patch(share_url, {"role": "viewer"}, format="json").json()["role"] == "viewer"
    assert api.patch(share_url, {"role": "owner"}, format="json").status_code == 400
    assert api.delete(share_url).status_code == 204
    assert teammate_api.get(f"/api/conversations/{conversation.pk}/").status_code == 404
    assert api.get(url).json() == []
    assert api.delete(share_url).status_code == 404
    assert Share.objects.get(pk=first.json()["id"]).revoked_at is not None


def test_another_conversations_share_is_not_found(api: APIClient, conversation: Conversation, user: Any) -> None:
    other = ConversationFactory(owner=user)
    share = client_for(user).post(
        f"/api/conversations/{other.pk}/shares/", {"username": UserFactory().username}, format="json"
    )
    path = f"/api/conversations/{conversation.pk}/shares/{share.json()['id']}/"
    assert api.patch(path, {"role": "controller"}, format="json").status_code == 404
    assert api.delete(path).status_code == 404


def test_a_link_grants_access_until_it_expires(api: APIClient, conversation: Conversation) -> None:
    made = api.post(
        f"/api/conversations/{conversation.pk}/share-links/",
        {"role": "controller", "expires_in_minutes": 90},
        format="json",
    )
    assert made.status_code == 201
    link = made.json()
    assert (link["kind"], link["role"], link["user"], link["expired"]) == ("link", "controller", None, False)
    assert len(link["token"]) >= 32
    expires_at = Share.objects.get(pk=link["id"]).expires_at
    assert expires_at is not None
    lifetime = expires_at - timezone.now()
    assert timedelta(minutes=89) < lifetime <= timedelta(minutes=90)

    guest = UserFactory()
    guest_api = client_for(guest)
    preview = guest_api.get(f"/api/share-links/{link['token']}/").json()
    assert (preview["conversation"], preview["owner"], preview["role"]) == (
        conversation.pk,
        conversation.owner.username,
        "controller",
    )
    accepted = guest_api.post(f"/api/share-links/{link['token']}/accept/")
    assert accepted.status_code == 200
    assert (accepted.json()["id"], accepted.json()["role"], accepted.json()["shared"]) == (
        conversation.pk,
        "controller",
        True,
    )
    assert guest_api.post(f"/api/share-links/{link['token']}/accept/").status_code == 200  # again: no second share
    joined = Share.objects.get(user=guest)
    assert (joined.via_link_id, joined.expires_at) == (link["id"], Share.objects.get(pk=link["id"]).expires_at)
    assert [
        (s["kind"], s["user"], s["via_link"]) for s in api.get(f"/api/conversations/{conversation.pk}/shares/").json()
    ] == [
        ("link", None, None),
        ("user", guest.username, link["id"]),
    ]

    Share.objects.filter(conversation=conversation).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert guest_api.get(f"/api/conversations/{conversation.pk}/").status_code == 404
    late = client_for(UserFactory()).post(f"/api/share-links/{link['token']}/accept/")
    assert late.status_code == 410
    assert "expired" in late.json()["detail"]
    assert all(s["expired"] for s in api.get(f"/api/conversations/{conversation.pk}/shares/").json())


def test_changing_or_revoking_a_link_reaches_everyone_who_joined_through_it(
    api: APIClient, conversation: Conversation
) -> None:
    link = api.post(f"/api/conversations/{conversation.pk}/share-links/", {"role": "viewer"}, format="json").json()
    guests = [client_for(UserFactory()) for _ in range(2)]
    for guest in guests:
        guest.post(f"/api/share-links/{link['token']}/accept/")
    link_url = f"/api/conversations/{conversation.pk}/shares/{link['id']}/"
    api.patch(link_url, {"role": "controller"}, format="json")
    assert [g.get(f"/api/conversations/{conversation.pk}/").json()["role"] for g in guests] == ["controller"] * 2
    assert api.delete(link_url).status_code == 204
    assert [g.get(f"/api/conversations/{conversation.pk}/").status_code for g in guests] == [404, 404]
    refused = client_for(UserFactory()).post(f"/api/share-links/{link['token']}/accept/")
    assert refused.status_code == 410
    assert "revoked" in refused.json()["detail"]


def test_link_lifetimes_are_bounded_and_unknown_tokens_are_404(api: APIClient, conversation: Conversation) -> None:
    url = f"/api/conversations/{conversation.pk}/share-links/"
    assert api.post(url, {"expires_in_minutes": 0}, format="json").status_code == 400
    assert api.post(url, {"expires_in_minutes": 31 * 24 * 60}, format="json").status_code == 400
    assert api.post("/api/share-links/not-a-token/accept/").status_code == 404
    assert APIClient().post("/api/share-links/not-a-token/accept/").status_code == 403  # signed out


def test_the_owner_opening_their_own_link_stays_the_owner(api: APIClient, conversation: Conversation) -> None:
    link = api.post(f"/api/conversations/{conversation.pk}/share-links/", {}, format="json").json()
    opened = api.post(f"/api/share-links/{link['token']}/accept/").json()
    assert (opened["role"], opened["shared"]) == ("owner", False)
    assert Share.objects.filter(user__isnull=False).count() == 0


def test_the_strongest_valid_share_wins(api: APIClient, conversation: Conversation) -> None:
    teammate = UserFactory()
    teammate_api = client_for(teammate)
    api.post(f"/api/conversations/{conversation.pk}/shares/", {"username": teammate.username}, format="json")
    link = api.post(f"/api/conversations/{conversation.pk}/share-links/", {"role": "controller"}, format="json").json()
    teammate_api.post(f"/api/share-links/{link['token']}/accept/")
    assert teammate_api.get(f"/api/conversations/{conversation.pk}/").json()["role"] == "controller"
    api.delete(f"/api/conversations/{conversation.pk}/shares/{link['id']}/")
    assert teammate_api.get(f"/api/conversations/{conversation.pk}/").json()["role"] == "viewer"


def test_one_person_holds_control_and_the_owner_can_take_it(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    url = f"/api/conversations/{world.ids['cid']}/control/"
    owner, controller, viewer = (world.clients[r] for r in ("owner", "controller", "viewer"))
    controller_name = world.users["controller"].username
    assert controller.post(url, {"action": "take"}, format="json").json() == {"holder": controller_name}
    assert viewer.get(url).json() == {"holder": controller_name}
    another_user = UserFactory()
    another = client_for(another_user)
    share = owner.post(
        f"/api/conversations/{world.ids['cid']}/shares/",
        {"username": another_user.username, "role": "controller"},
        format="json",
    ).json()
    refused = another.post(url, {"action": "take"}, format="json")
    assert refused.status_code == 409
    assert f"{controller_name} has control" in refused.json()["detail"]
    assert another.post(url, {"action": "release"}, format="json").status_code == 409
    owner_name = world.users["owner"].username
    assert owner.post(url, {"action": "take"}, format="json").json() == {"holder": owner_name}
    assert controller.post(url, {"action": "take"}, format="json").status_code == 409
    assert owner.post(url, {"action": "release"}, format="json").json() == {"holder": None}
    assert another.post(url, {"action": "take"}, format="json").status_code == 200
    # Losing the controller role hands the controls back.
    with django_capture_on_commit_callbacks(execute=True):
        owner.patch(f"/api/conversations/{world.ids['cid']}/shares/{share['id']}/", {"role": "viewer"}, format="json")
    assert owner.get(url).json() == {"holder": None}
    assert owner.post(url, {"action": "steal"}, format="json").status_code == 400


def test_a_guest_removed_by_the_owner_cannot_come_back_through_the_same_link(
    api: APIClient, conversation: Conversation
) -> None:
    link = api.post(f"/api/conversations/{conversation.pk}/share-links/", {}, format="json").json()
    guest = client_for(UserFactory())
    guest.post(f"/api/share-links/{link['token']}/accept/")
    joined = Share.objects.get(via_link_id=link["id"])
    assert api.delete(f"/api/conversations/{conversation.pk}/shares/{joined.pk}/").status_code == 204
    again = guest.post(f"/api/share-links/{link['token']}/accept/")
    assert again.status_code == 403
    assert "removed your access" in again.json()["detail"]
    assert guest.get(f"/api/conversations/{conversation.pk}/").status_code == 404
    assert client_for(UserFactory()).post(f"/api/share-links/{link['token']}/accept/").status_code == 200


# Last in the module: its world lives until the module ends, and no other test should see its rows.
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("need", "method", "path", "body", "allowed"), ENDPOINTS)
def test_every_endpoint_answers_each_role_as_its_access_allows(
    shared_world: tuple[World, str],
    settings: Any,
    role: str,
    need: str,
    method: str,
    path: str,
    body: Any,
    allowed: int,
) -> None:
    world, settings.MEDIA_ROOT = shared_world
    data, fmt = _body(body)
    url = path.format(**world.ids)
    response = getattr(world.clients[role], method)(url, data, format=fmt)
    expected = _expected(need, role, allowed)
    assert response.status_code == expected, (role, method, url, response.content[:300])
    if expected == 403:
        assert "owner" in response.json()["detail"]
