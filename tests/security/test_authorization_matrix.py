"""Every API endpoint × every kind of caller: owner, controller, viewer, stranger, anonymous, and a teammate whose
share expired. The table below says who may do what (docs/architecture.md); the list of endpoints comes from the
URL resolver, so a new endpoint without a row fails this test until someone decides who may call it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from browser_pool.recording import RecordedFrame
from tests.factories import ConversationFactory, UserFactory
from tests.support.module_world import rolled_back
from webapp.conversations.browser_services import browser_session_save
from webapp.conversations.models import BrowserSession, Conversation, ConversationFile, TabContent
from webapp.llm.models import ModelProfile
from webapp.memory.models import Note, Persona
from webapp.profiles.models import ProfileShare, ProfileUse
from webapp.profiles.services import profile_store
from webapp.runs.models import Confirmation, Run, Step
from webapp.runs.recordings import recording_save
from webapp.sharing.models import Share
from webapp.skills.models import Skill
from webapp.vault.services import vault_credential_create
from webapp.workflows.models import Credential, Workflow, WorkflowSchedule, WorkflowShare, WorkflowVersion

pytestmark = pytest.mark.django_db

ROLES = ("owner", "controller", "viewer", "stranger", "anonymous", "expired")
RANK = {"viewer": 1, "controller": 2, "owner": 3}

# Who may call each endpoint:
#   viewer / controller / owner: the conversation's roles (others with no access get 404, too low a role 403);
#   mine: objects of the caller's own (others get 404); user: any signed-in user; anyone: also signed out.
MATRIX: dict[tuple[str, str], str] = {
    ("GET", "api/auth/csrf/"): "anyone",
    ("POST", "api/auth/signup/"): "anyone",
    ("POST", "api/auth/login/"): "anyone",
    ("POST", "api/auth/logout/"): "anyone",
    ("GET", "api/auth/me/"): "user",
    ("POST", "api/auth/token/"): "user",
    ("DELETE", "api/auth/token/"): "user",
    ("GET", "api/conversations/"): "user",
    ("POST", "api/conversations/"): "user",
    ("GET", "api/conversations/<int:conversation_id>/"): "viewer",
    ("PATCH", "api/conversations/<int:conversation_id>/"): "owner",
    ("DELETE", "api/conversations/<int:conversation_id>/"): "owner",
    ("GET", "api/conversations/<int:conversation_id>/messages/"): "viewer",
    ("POST", "api/conversations/<int:conversation_id>/messages/"): "controller",
    ("GET", "api/conversations/<int:conversation_id>/tabs/"): "viewer",
    ("GET", "api/conversations/<int:conversation_id>/tabs/<str:tab_id>/content/"): "viewer",
    ("POST", "api/conversations/<int:conversation_id>/tabs/<str:tab_id>/content/"): "controller",
    ("DELETE", "api/conversations/<int:conversation_id>/tabs/<str:tab_id>/content/"): "controller",
    ("GET", "api/conversations/<int:conversation_id>/tools/"): "viewer",
    ("POST", "api/conversations/<int:conversation_id>/tools/call/"): "controller",
    ("POST", "api/conversations/<int:conversation_id>/actions/"): "controller",
    ("POST", "api/conversations/<int:conversation_id>/files/"): "owner",
    ("GET", "api/conversations/<int:conversation_id>/files/"): "viewer",
    ("GET", "api/conversations/<int:conversation_id>/files/<int:file_id>/download/"): "viewer",
    ("GET", "api/conversations/<int:conversation_id>/runs/"): "viewer",
    ("GET", "api/runs/<int:run_id>/"): "viewer",
    ("POST", "api/runs/<int:run_id>/abort/"): "controller",
    ("GET", "api/steps/<int:step_id>/screenshot/"): "viewer",
    ("GET", "api/runs/<int:run_id>/debug/"): "owner",
    ("GET", "api/runs/<int:run_id>/trace.zip"): "viewer",
    ("GET", "api/runs/<int:run_id>/recording/"): "viewer",
    ("GET", "api/runs/<int:run_id>/recording/frames/<int:n>/"): "viewer",
    ("POST", "api/confirmations/<int:confirmation_id>/answer/"): "controller",
    ("GET", "api/model-profiles/"): "user",
    ("POST", "api/model-profiles/"): "user",
    ("GET", "api/model-profiles/<int:profile_id>/"): "mine",
    ("PATCH", "api/model-profiles/<int:profile_id>/"): "mine",
    ("DELETE", "api/model-profiles/<int:profile_id>/"): "mine",
    ("POST", "api/model-profiles/<int:profile_id>/test/"): "mine",
    ("GET", "api/model-providers/"): "user",
    ("GET", "api/usage/"): "user",  # each caller's own usage only (tests/webapp/test_usage.py)
    ("GET", "api/notes/"): "user",
    ("POST", "api/notes/"): "user",
    ("GET", "api/notes/<int:note_id>/"): "mine",
    ("PATCH", "api/notes/<int:note_id>/"): "mine",
    ("DELETE", "api/notes/<int:note_id>/"): "mine",
    ("GET", "api/personas/"): "user",
    ("POST", "api/personas/"): "user",
    ("GET", "api/personas/<int:persona_id>/"): "mine",
    ("PATCH", "api/personas/<int:persona_id>/"): "mine",
    ("DELETE", "api/personas/<int:persona_id>/"): "mine",
    ("GET", "api/skills/"): "user",
    ("GET", "api/conversations/<int:conversation_id>/skills/"): "viewer",
    ("POST", "api/conversations/<int:conversation_id>/skills/<int:skill_id>/"): "owner",
    ("GET", "api/conversations/<int:conversation_id>/shares/"): "owner",
    ("POST", "api/conversations/<int:conversation_id>/shares/"): "owner",
    ("PATCH", "api/conversations/<int:conversation_id>/shares/<int:share_id>/"): "owner",
    ("DELETE", "api/conversations/<int:conversation_id>/shares/<int:share_id>/"): "owner",
    ("POST", "api/conversations/<int:conversation_id>/share-links/"): "owner",
    ("GET", "api/share-links/<str:token>/"): "user",
    ("POST", "api/share-links/<str:token>/accept/"): "user",
    ("GET", "api/conversations/<int:conversation_id>/control/"): "viewer",
    ("POST", "api/conversations/<int:conversation_id>/control/"): "controller",
    ("POST", "api/runs/<int:run_id>/workflow/"): "owner",
    ("POST", "api/conversations/<int:conversation_id>/workflow/"): "owner",
    ("GET", "api/workflows/"): "user",
    ("GET", "api/workflows/<int:workflow_id>/"): "viewer",
    ("PATCH", "api/workflows/<int:workflow_id>/"): "owner",
    ("DELETE", "api/workflows/<int:workflow_id>/"): "owner",
    ("POST", "api/workflows/<int:workflow_id>/runs/"): "controller",
    ("GET", "api/workflows/<int:workflow_id>/runs/"): "viewer",
    ("GET", "api/workflows/<int:workflow_id>/versions/"): "viewer",
    ("GET", "api/workflows/<int:workflow_id>/export/"): "viewer",
    ("POST", "api/workflows/<int:workflow_id>/webhook/"): "owner",
    ("DELETE", "api/workflows/<int:workflow_id>/webhook/"): "owner",
    ("GET", "api/workflows/<int:workflow_id>/deliveries/"): "owner",
    ("GET", "api/workflows/<int:workflow_id>/schedules/"): "owner",
    ("POST", "api/workflows/<int:workflow_id>/schedules/"): "owner",
    ("DELETE", "api/workflows/<int:workflow_id>/schedules/<int:schedule_id>/"): "owner",
    ("GET", "api/workflows/<int:workflow_id>/shares/"): "owner",
    ("POST", "api/workflows/<int:workflow_id>/shares/"): "owner",
    ("DELETE", "api/workflows/<int:workflow_id>/shares/<int:workflow_share_id>/"): "owner",
    ("GET", "api/credentials/"): "user",
    ("POST", "api/credentials/"): "user",
    ("DELETE", "api/credentials/<int:credential_id>/"): "mine",
    ("GET", "api/profiles/"): "user",
    ("POST", "api/profiles/"): "user",
    ("GET", "api/profiles/<int:browser_profile_id>/"): "viewer",
    ("PATCH", "api/profiles/<int:browser_profile_id>/"): "owner",
    ("DELETE", "api/profiles/<int:browser_profile_id>/"): "owner",
    ("GET", "api/profiles/<int:browser_profile_id>/export/"): "owner",
    ("POST", "api/profiles/<int:browser_profile_id>/forget/"): "owner",
    ("GET", "api/profiles/<int:browser_profile_id>/shares/"): "owner",
    ("POST", "api/profiles/<int:browser_profile_id>/shares/"): "owner",
    ("DELETE", "api/profiles/<int:browser_profile_id>/shares/<int:profile_share_id>/"): "owner",
    ("GET", "api/vault/"): "user",
    ("POST", "api/vault/"): "user",
    ("GET", "api/vault/<int:vault_credential_id>/"): "mine",
    ("PATCH", "api/vault/<int:vault_credential_id>/"): "mine",
    ("DELETE", "api/vault/<int:vault_credential_id>/"): "mine",
    ("GET", "api/conversations/<int:conversation_id>/profile/"): "viewer",
    ("PUT", "api/conversations/<int:conversation_id>/profile/"): "owner",
    ("DELETE", "api/conversations/<int:conversation_id>/profile/"): "owner",
    ("POST", "api/conversations/<int:conversation_id>/profile/"): "owner",
    ("GET", "api/schema/"): "anyone",
    ("GET", "api/docs/"): "anyone",
    ("GET", "api/redoc/"): "anyone",
}

BODIES: dict[tuple[str, str], Any] = {
    ("POST", "api/auth/signup/"): {"username": "newcomer", "password": "a-long-passphrase"},
    ("POST", "api/auth/login/"): {"username": "nobody", "password": "wrong-passphrase"},
    ("POST", "api/conversations/"): {"title": "mine"},
    ("PATCH", "api/conversations/<int:conversation_id>/"): {"title": "renamed"},
    ("POST", "api/conversations/<int:conversation_id>/messages/"): {"content": "hello"},
    ("POST", "api/conversations/<int:conversation_id>/tools/call/"): {"name": "listFlights", "arguments": {}},
    ("POST", "api/conversations/<int:conversation_id>/actions/"): {"action": "list_tabs", "arguments": {}},
    ("POST", "api/confirmations/<int:confirmation_id>/answer/"): {"approve": False},
    ("POST", "api/model-profiles/"): {"name": "p", "base_url": "https://api.example.com/v1", "model": "m"},
    ("PATCH", "api/model-profiles/<int:profile_id>/"): {"name": "renamed"},
    ("POST", "api/notes/"): {"title": "t", "body": "b"},
    ("PATCH", "api/notes/<int:note_id>/"): {"title": "renamed"},
    ("POST", "api/personas/"): {"name": "p", "voice": "warm"},
    ("PATCH", "api/personas/<int:persona_id>/"): {"name": "renamed"},
    ("POST", "api/conversations/<int:conversation_id>/skills/<int:skill_id>/"): {"enabled": False},
    ("POST", "api/conversations/<int:conversation_id>/shares/"): {"username": "bystander", "role": "viewer"},
    ("PATCH", "api/conversations/<int:conversation_id>/shares/<int:share_id>/"): {"role": "controller"},
    ("POST", "api/conversations/<int:conversation_id>/share-links/"): {"role": "viewer"},
    ("POST", "api/conversations/<int:conversation_id>/control/"): {"action": "take"},
    ("POST", "api/runs/<int:run_id>/workflow/"): {"name": "w"},
    ("POST", "api/conversations/<int:conversation_id>/workflow/"): {"name": "w", "first_step": 1, "last_step": 1},
    ("PATCH", "api/workflows/<int:workflow_id>/"): {"name": "renamed"},
    ("POST", "api/workflows/<int:workflow_id>/runs/"): {"parameters": {}},
    ("POST", "api/workflows/<int:workflow_id>/webhook/"): {"url": "https://hooks.example/done"},
    ("POST", "api/workflows/<int:workflow_id>/schedules/"): {"cron": "0 9 * * *"},
    ("POST", "api/credentials/"): {"name": "c", "value": "v"},
    ("POST", "api/workflows/<int:workflow_id>/shares/"): {"username": "bystander", "role": "viewer"},
    ("POST", "api/profiles/"): {"name": "imported", "content": json.dumps({"cookies": [], "origins": []})},
    ("PATCH", "api/profiles/<int:browser_profile_id>/"): {"name": "renamed"},
    ("POST", "api/profiles/<int:browser_profile_id>/forget/"): {"origin": "https://a.example"},
    ("POST", "api/profiles/<int:browser_profile_id>/shares/"): {"username": "bystander", "role": "viewer"},
    ("PUT", "api/conversations/<int:conversation_id>/profile/"): {"profile": "<browser_profile_id>"},
    ("POST", "api/conversations/<int:conversation_id>/profile/"): {"name": "captured"},
    ("POST", "api/vault/"): {"name": "v", "origins": ["https://a.example"], "password": "p"},
    ("PATCH", "api/vault/<int:vault_credential_id>/"): {"origins": ["https://b.example"]},
}


def _endpoints() -> list[tuple[str, str]]:
    def walk(patterns: list[Any], prefix: str = "") -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                found += walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and (prefix + str(pattern.pattern)).startswith("api/"):
                view = getattr(pattern.callback, "cls", None) or getattr(pattern.callback, "view_class", None)
                for method in ("get", "post", "put", "patch", "delete"):
                    if view is not None and hasattr(view, method):
                        found.append((method.upper(), prefix + str(pattern.pattern)))
        return found

    return walk(get_resolver().url_patterns)


def test_every_endpoint_has_a_row() -> None:
    missing = sorted(set(_endpoints()) - set(MATRIX))
    assert not missing, f"decide who may call these (add them to MATRIX): {missing}"


@dataclass
class World:
    users: dict[str, User]
    conversation: Conversation
    ids: dict[str, Any]


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for the module's few thousand calls."""
    with rolled_back(django_db_blocker):
        yield _world()


def _world() -> World:
    owner = UserFactory(username="owner")
    users = {"owner": owner}
    for role in ("controller", "viewer", "stranger", "expired"):
        users[role] = UserFactory(username=role)
    UserFactory(username="bystander")
    conversation = ConversationFactory(owner=owner)
    for role in ("controller", "viewer"):
        Share.objects.create(conversation=conversation, user=users[role], role=role, created_by=owner)
    Share.objects.create(
        conversation=conversation,
        user=users["expired"],
        role="controller",
        created_by=owner,
        expires_at=timezone.now() - timedelta(minutes=1),
    )
    link = Share.objects.create(
        conversation=conversation,
        token="l" * 40,
        role="viewer",
        created_by=owner,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    run = Run.objects.create(conversation=conversation, status="waiting")
    run.trace.save("trace.zip", ContentFile(b"PK\x05\x06" + b"\0" * 18), save=True)
    recording_save(run_id=run.pk, frames=[RecordedFrame(b"\xff\xd8\xff\xd9", 1, 1, 1_700_000_000_000)])
    step = Step.objects.create(run=run, index=1, kind="action", action="navigate", status="succeeded")
    step.screenshot.save("s.jpg", ContentFile(b"\xff\xd8\xff\xd9"), save=True)
    confirmation = Confirmation.objects.create(
        run=run, step=step, action="execute_js", reason="asks", expires_at=timezone.now() + timedelta(hours=1)
    )
    TabContent.objects.create(conversation=conversation, tab_id="t1", title="T", url="https://a.example/")
    downloaded = ConversationFile(conversation=conversation, name="r.csv", size=4, origin="download", run=run)
    downloaded.file.save("r.csv", ContentFile(b"a,b\n"), save=True)
    BrowserSession.objects.create(
        conversation=conversation, tabs=[{"id": "t1", "title": "T", "url": "https://a.example/", "active": True}]
    )
    ids = {
        "conversation_id": conversation.pk,
        "run_id": run.pk,
        "step_id": step.pk,
        "confirmation_id": confirmation.pk,
        "tab_id": "t1",
        "file_id": downloaded.pk,
        "n": 0,
        "profile_id": ModelProfile.objects.create(owner=owner, name="p", base_url="https://a.example/v1", model="m").pk,
        "note_id": Note.objects.create(owner=owner, title="n", body="b").pk,
        "persona_id": Persona.objects.create(owner=owner, name="p", voice="v").pk,
        "skill_id": Skill.objects.create(name="s", version="1.0.0", match_patterns=["*://*/*"]).pk,
        "share_id": Share.objects.get(conversation=conversation, user=users["viewer"]).pk,
        "token": link.token,
        **_workflow_ids(owner),
        **_profile_ids(owner, conversation),
        "vault_credential_id": vault_credential_create(
            owner=owner, name="members", values=VAULT_VALUES, origins=["https://a.example"]
        ).pk,
    }
    return World(users, conversation, ids)


def _workflow_ids(owner: User) -> dict[str, Any]:
    """A workflow shared with the conversation's controller and viewer in the same roles (the expired teammate has
    no share of it)."""
    workflow = Workflow.objects.create(owner=owner, name="w")
    for role in ("controller", "viewer"):
        WorkflowShare.objects.create(workflow=workflow, user=User.objects.get(username=role), role=role)
    steps = [{"action": "navigate", "arguments": {"url": "https://a.example/"}, "target": {}, "intent": "open"}]
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=steps, parameters=[])
    schedule = WorkflowSchedule.objects.create(workflow=workflow, cron="0 9 * * *")
    credential = Credential.objects.create(owner=owner, name="c0", value="x")
    return {"workflow_id": workflow.pk, "schedule_id": schedule.pk, "credential_id": credential.pk,
            "workflow_share_id": workflow.shares.get(role="viewer").pk}  # fmt: skip


# A browser profile's cookie, in the profile and in the conversation's own saved browser: no endpoint but the owner's
# export of the profile ever answers it.
COOKIE_VALUE = "profile-cookie-9c1e"
PROFILE_STATE = {
    "cookies": [{"name": "sid", "value": COOKIE_VALUE, "domain": "a.example", "path": "/", "expires": -1,
                 "httpOnly": True, "secure": True, "sameSite": "Lax"}],
    "origins": [{"origin": "https://a.example", "localStorage": [{"name": "token", "value": COOKIE_VALUE}]}],
}  # fmt: skip

# A vault credential's values: no endpoint ever answers them, not even to their owner.
VAULT_VALUES = {"username": "vault-user-51ab", "password": "vault-pw-51ab", "otp": "JBSWY3DPEHPK3PXP"}


def _profile_ids(owner: User, conversation: Conversation) -> dict[str, Any]:
    """A browser profile shared with the conversation's controller and viewer in the same roles, that the
    conversation's browser starts from (the expired teammate has no share of it)."""
    profile = profile_store(owner=owner, name="shopping", state=PROFILE_STATE, replace=False)
    for role in ("controller", "viewer"):
        ProfileShare.objects.create(profile=profile, user=User.objects.get(username=role), role=role)
    ProfileUse.objects.create(conversation=conversation, profile=profile, chosen_by=owner, chosen_at=timezone.now())
    browser_session_save(conversation_id=conversation.pk, state={"storage_state": PROFILE_STATE})
    return {"browser_profile_id": profile.pk, "profile_share_id": profile.shares.get(role="viewer").pk}


def _path(template: str, ids: dict[str, Any]) -> str:
    path = template
    for name, value in ids.items():
        for kind in ("int", "str"):
            path = path.replace(f"<{kind}:{name}>", str(value))
    return "/" + path


def _call(client: APIClient, method: str, template: str, ids: dict[str, Any]) -> int:
    path = _path(template, ids)
    if method == "POST" and template.endswith("/files/"):
        upload = SimpleUploadedFile("a.txt", b"hello", content_type="text/plain")
        return client.post(path, {"file": upload}, format="multipart").status_code
    return _answer(client, method, template, ids).status_code


def _answer(client: APIClient, method: str, template: str, ids: dict[str, Any]) -> Any:
    path = _path(template, ids)
    body = BODIES.get((method, template))
    if body is not None:
        body = json.loads(_json(body).replace('"<browser_profile_id>"', str(ids["browser_profile_id"])))
    return client.generic(method, path, *(() if body is None else (_json(body), "application/json")))


def _json(body: Any) -> str:
    return json.dumps(body)


def _expected(rule: str, role: str) -> str:
    if rule == "anyone":
        return "allowed"
    if role == "anonymous":
        return "refused"
    if rule == "user":
        return "allowed"
    if rule == "mine":
        return "allowed" if role == "owner" else "hidden"
    if role in ("stranger", "expired"):
        return "hidden"
    return "allowed" if RANK[role] >= RANK[rule] else "refused"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "template"), sorted(MATRIX), ids=lambda value: str(value))
def test_who_may_call_what(world: World, method: str, template: str, role: str) -> None:
    client = APIClient()
    if role != "anonymous":
        client.force_login(world.users[role])
    status = _call(client, method, template, world.ids)
    expected = _expected(MATRIX[(method, template)], role)
    if expected == "allowed":
        assert status not in (401, 403, 404), f"{role} should be able to {method} {template}: {status}"
    elif expected == "hidden":
        assert status == 404, f"{role} must not see that {template} exists: {status}"
    else:
        assert status in (401, 403), f"{role} must be refused {method} {template}: {status}"
    if expected != "allowed":
        assert Conversation.objects.filter(pk=world.conversation.pk, title=world.conversation.title).exists()
        assert Share.objects.filter(conversation=world.conversation, revoked_at__isnull=True).count() == 4


# A workflow run names the conversation to replay in: the caller must control that conversation, whatever their role
# on the workflow (here a controller of it). The owner's conversation, by each kind of caller:
CONVERSATION_ARGUMENT = {"owner": 202, "controller": 202, "viewer": 403, "stranger": 404, "expired": 404}


@pytest.mark.parametrize(("role", "status"), sorted(CONVERSATION_ARGUMENT.items()))
def test_a_workflow_run_in_a_named_conversation_takes_control_of_that_conversation(
    world: World, role: str, status: int
) -> None:
    Run.objects.filter(conversation=world.conversation).update(status="succeeded")  # the conversation is idle
    caller = world.users[role]
    if role != "owner":
        workflow = Workflow.objects.get(pk=world.ids["workflow_id"])
        WorkflowShare.objects.update_or_create(workflow=workflow, user=caller, defaults={"role": "controller"})
    client = APIClient()
    client.force_login(caller)
    path = f"/api/workflows/{world.ids['workflow_id']}/runs/"
    before = Run.objects.count()
    answer = client.post(path, {"conversation": world.conversation.pk}, format="json")
    assert answer.status_code == status, answer.content
    made = Run.objects.filter(conversation=world.conversation, kind="workflow")
    assert made.count() == (1 if status == 202 else 0)
    assert Run.objects.count() == before + (1 if status == 202 else 0)
    if status == 202:
        assert made.get().started_by == caller


@pytest.mark.parametrize("role", ["owner", "controller", "viewer"])
def test_only_the_owner_reads_a_workflows_webhook_address(world: World, role: str) -> None:
    Workflow.objects.filter(pk=world.ids["workflow_id"]).update(webhook_url="https://hooks.example/T0/B0/secret")
    client = APIClient()
    client.force_login(world.users[role])
    detail = client.get(f"/api/workflows/{world.ids['workflow_id']}/").json()
    listed = client.get("/api/workflows/").json()
    shown = "https://hooks.example/T0/B0/secret" if role == "owner" else None
    assert detail["webhook_url"] == shown
    assert [w["webhook_url"] for w in listed] == [shown]
    if role != "owner":
        assert "hooks.example" not in json.dumps([detail, listed])


@pytest.mark.parametrize("role", ROLES)
def test_no_one_but_the_owner_obtains_a_profiles_cookies_from_any_endpoint(world: World, role: str) -> None:
    """Every endpoint, with the bodies above, by each kind of caller: the cookie's value (and the local storage item
    holding the same text) is in no answer, except the owner's export of their profile."""
    client = APIClient()
    if role != "anonymous":
        client.force_login(world.users[role])
    reads_first = sorted(MATRIX, key=lambda call: (call[0] != "GET", call))  # reads before anything is deleted
    leaked = []
    for method, template in reads_first:
        answer = _answer(client, method, template, world.ids)
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        if COOKIE_VALUE in body.decode(errors="replace"):
            leaked.append((method, template))
    assert leaked == ([("GET", "api/profiles/<int:browser_profile_id>/export/")] if role == "owner" else [])


@pytest.mark.parametrize("role", ROLES)
def test_no_one_obtains_a_vault_value_from_any_endpoint(world: World, role: str) -> None:
    """Every endpoint, with the bodies above, by each kind of caller, the owner included: a vault credential's values
    (its username, password and TOTP secret) are in no answer."""
    client = APIClient()
    if role != "anonymous":
        client.force_login(world.users[role])
    reads_first = sorted(MATRIX, key=lambda call: (call[0] != "GET", call))  # reads before anything is deleted
    leaked = []
    for method, template in reads_first:
        answer = _answer(client, method, template, world.ids)
        body = (b"".join(answer.streaming_content) if answer.streaming else answer.content).decode(errors="replace")
        leaked += [(method, template) for value in VAULT_VALUES.values() if value in body]
    assert leaked == []
