"""Browser profiles over REST: import a storage state or a cookies.txt (a clear 400 for anything malformed, and
nothing changes), export (the owner's only), rename, forget an origin, share; the state is encrypted at rest and
rotates with the keys; a conversation, a workflow run and a schedule start from a profile; a second writer is refused
with a 409 that names the holder."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.support.workflows import step, workflow_with
from webapp.conversations.models import Conversation
from webapp.profiles.models import BrowserProfile, ProfileShare, ProfileUse
from webapp.profiles.selectors import profile_state
from webapp.runs.models import Run
from webapp.workflows.models import WorkflowSchedule
from webapp.workflows.schedules import schedule_fire

pytestmark = pytest.mark.django_db

IN_A_YEAR = time.time() + 365 * 86400
STATE: dict[str, Any] = {
    "cookies": [
        {"name": "sid", "value": "cookie-plaintext-7f3a", "domain": "shop.example", "path": "/",
         "expires": IN_A_YEAR, "httpOnly": True, "secure": True, "sameSite": "Lax"},
        {"name": "lang", "value": "en", "domain": ".news.example", "path": "/", "expires": -1, "httpOnly": False,
         "secure": False, "sameSite": "Strict"},
    ],
    "origins": [{"origin": "https://shop.example", "localStorage": [{"name": "cart", "value": "3 apples"}]}],
}  # fmt: skip
COOKIES_TXT = (
    "# Netscape HTTP Cookie File\n"
    "# exported from my browser\n\n"
    f"#HttpOnly_.forum.example\tTRUE\t/\tTRUE\t{int(IN_A_YEAR)}\tsession\tabc123\n"
    "forum.example\tFALSE\t/account\tFALSE\t0\ttheme\tdark\n"
    "forum.example\tFALSE\t/\tFALSE\t1000\told\texpired-long-ago\n"
)


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _import(client: APIClient, name: str, content: Any, **extra: Any) -> Any:
    text = content if isinstance(content, str) else json.dumps(content)
    return client.post("/api/profiles/", {"name": name, "content": text, **extra}, format="json")


def test_a_storage_state_comes_in_lists_its_origins_and_goes_out_only_to_its_owner(user: User, api: APIClient) -> None:
    made = _import(api, "shopping", STATE)
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["access"] == "owner"
    assert body["origins"] == [
        {"origin": "http://news.example", "cookies": 1, "local_storage": 0, "indexed_db": 0},
        {"origin": "https://shop.example", "cookies": 1, "local_storage": 1, "indexed_db": 0},
    ]
    assert "cookie-plaintext-7f3a" not in made.content.decode()
    assert "3 apples" not in made.content.decode()
    exported = api.get(f"/api/profiles/{body['id']}/export/")
    assert exported.status_code == 200
    assert exported["Content-Disposition"] == 'attachment; filename="shopping.storage-state.json"'
    assert json.loads(exported.content) == STATE


def test_a_cookies_txt_comes_in_with_httponly_session_cookies_and_without_expired_ones(api: APIClient) -> None:
    made = _import(api, "forum", COOKIES_TXT)
    assert made.status_code == 201, made.content
    cookies = profile_state(profile_id=made.json()["id"])["cookies"]
    assert cookies == [
        {"name": "session", "value": "abc123", "domain": ".forum.example", "path": "/", "expires": float(int(IN_A_YEAR)),
         "httpOnly": True, "secure": True, "sameSite": "Lax"},
        {"name": "theme", "value": "dark", "domain": "forum.example", "path": "/account", "expires": -1.0,
         "httpOnly": False, "secure": False, "sameSite": "Lax"},
    ]  # fmt: skip


def _cookie(**changes: Any) -> dict[str, Any]:
    return {"cookies": [{**STATE["cookies"][0], **changes}]}


MALFORMED: dict[str, tuple[Any, str]] = {
    "not json nor cookies.txt": ("hello world", "Line 1: a cookies.txt line has 7 fields"),
    "a json list": ("[1, 2]", "A storage state is a JSON object"),
    "broken json": ('{"cookies": [', "The file is not valid JSON"),
    "json without cookies or origins": ({"hello": 1}, "has cookies, origins or both"),
    "cookies not a list": ({"cookies": {"sid": "x"}}, "cookies: Input should be a valid list"),
    "a cookie without a value": ({"cookies": [{"name": "sid", "domain": "a.example"}]}, "cookies[0].value: Field required"),
    "a number as a string": (_cookie(expires="tomorrow"), "cookies[0].expires: Input should be a valid number"),
    "a string as a boolean": (_cookie(secure="yes"), "cookies[0].secure: Input should be a valid boolean"),
    "an unknown sameSite": (_cookie(sameSite="Sometimes"), "cookies[0].sameSite: sameSite is Strict, Lax or None"),
    "sameSite None without secure": (_cookie(sameSite="None", secure=False), "needs secure true"),
    "a domain with a path": (_cookie(domain="shop.example/login"), "is not a host name"),
    "a domain with a scheme": (_cookie(domain="https://shop.example"), "is not a host name"),
    "a wildcard domain": (_cookie(domain="*.shop.example"), "is not a host name"),
    "a negative expiry": (_cookie(expires=-5), "expires is -1"),
    "an expiry past the year 9999": (_cookie(expires=1e13), "expires is -1"),
    "a path without a slash": (_cookie(path="account"), "starts with '/'"),
    "a header injected in a value": (_cookie(value="x\r\nSet-Cookie: evil=1"), "no control characters"),
    "a semicolon in a value": (_cookie(value="a; Domain=evil.example"), "no control characters or ';'"),
    "a cookie too large": (_cookie(value="v" * 5000), "at most 4096 characters"),
    "an origin with a path": ({"origins": [{"origin": "https://shop.example/cart", "localStorage": []}]}, "no path"),
    "an origin of another scheme": ({"origins": [{"origin": "file:///etc", "localStorage": []}]}, "is not an origin"),
    "a storage item not text": ({"origins": [{"origin": "https://a.example", "localStorage": [{"name": "n", "value": 3}]}]},
                                "localStorage[0].value: Input should be a valid string"),
    "an IndexedDB store without records": ({"origins": [{"origin": "https://a.example", "localStorage": [], "indexedDB": [
        {"name": "db", "version": 1, "stores": [{"name": "s", "autoIncrement": False, "indexes": []}]}]}]}, "records: Field required"),
    "a cookies.txt line short of fields": ("shop.example\tFALSE\t/\tFALSE\t0\tsid\n", "Line 1: a cookies.txt line has 7 fields"),
    "a cookies.txt flag not TRUE or FALSE": ("shop.example\tyes\t/\tFALSE\t0\tsid\tv\n", "Line 1: the second and fourth"),
    "a cookies.txt expiry not a number": ("# c\nshop.example\tFALSE\t/\tFALSE\tsoon\tsid\tv\n", "Line 2: the expiry 'soon'"),
    "a cookies.txt bad domain": ("shop example\tFALSE\t/\tFALSE\t0\tsid\tv\n", "is not a host name"),
    "a cookies.txt of comments only": ("# Netscape HTTP Cookie File\n# nothing\n", "No cookies in this file"),
    "every cookie expired": ("shop.example\tFALSE\t/\tFALSE\t1000\tsid\tv\n", "every cookie in the file has expired"),
    "a file too large": ("x" * 1_000_001, "larger than 1000 kB"),
}  # fmt: skip


@pytest.mark.parametrize(("case", "content", "says"), [(k, *v) for k, v in MALFORMED.items()], ids=list(MALFORMED))
def test_a_malformed_file_answers_400_saying_why_and_changes_nothing(
    api: APIClient, case: str, content: Any, says: str
) -> None:
    kept = _import(api, "shopping", STATE).json()
    before = list(BrowserProfile.objects.values_list("pk", "name", "state", "origins", "size"))
    answer = _import(api, "shopping", content, replace=True)
    assert answer.status_code == 400, answer.content
    assert says in answer.json()["detail"], answer.json()
    assert list(BrowserProfile.objects.values_list("pk", "name", "state", "origins", "size")) == before
    assert profile_state(profile_id=kept["id"]) == STATE


def test_a_name_in_use_is_replaced_only_when_asked(api: APIClient) -> None:
    first = _import(api, "shopping", STATE).json()
    again = _import(api, "shopping", COOKIES_TXT)
    assert again.status_code == 400
    assert "already have a profile named “shopping”" in again.json()["detail"]
    replaced = _import(api, "shopping", COOKIES_TXT, replace=True)
    assert replaced.status_code == 201
    assert replaced.json()["id"] == first["id"]
    assert [o["origin"] for o in replaced.json()["origins"]] == ["https://forum.example"]


def test_rename_forget_one_origin_and_delete(api: APIClient) -> None:
    made = _import(api, "shopping", STATE).json()
    renamed = api.patch(f"/api/profiles/{made['id']}/", {"name": "groceries"}, format="json")
    assert renamed.json()["name"] == "groceries"
    forgot = api.post(f"/api/profiles/{made['id']}/forget/", {"origin": "https://shop.example"}, format="json")
    assert forgot.status_code == 200, forgot.content
    assert [o["origin"] for o in forgot.json()["origins"]] == ["http://news.example"]
    assert [c["name"] for c in profile_state(profile_id=made["id"])["cookies"]] == ["lang"]
    unknown = api.post(f"/api/profiles/{made['id']}/forget/", {"origin": "https://shop.example"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["detail"] == "The profile holds nothing for https://shop.example."
    assert api.delete(f"/api/profiles/{made['id']}/").status_code == 204
    assert not BrowserProfile.objects.exists()


def test_the_state_is_encrypted_at_rest_and_rotates_with_the_keys(api: APIClient, settings: Any) -> None:
    made = _import(api, "shopping", STATE).json()
    stored = json.dumps(list(BrowserProfile.objects.values_list("state", flat=True)))
    assert "cookie-plaintext-7f3a" not in stored
    assert "3 apples" not in stored
    old = list(settings.HIVE_ENCRYPTION_KEYS)
    new = Fernet.generate_key().decode()
    settings.HIVE_ENCRYPTION_KEYS = [new, *old]
    call_command("rotate_encryption_keys")
    settings.HIVE_ENCRYPTION_KEYS = [new]  # the old key is gone now
    assert profile_state(profile_id=made["id"]) == STATE


def _shared(owner: User) -> tuple[BrowserProfile, dict[str, User]]:
    profile = BrowserProfile.objects.get(pk=_import(_client(owner), "shopping", STATE).json()["id"])
    people = {}
    for role in ("viewer", "controller"):
        people[role] = UserFactory(username=f"{role}-teammate")
        ProfileShare.objects.create(profile=profile, user=people[role], role=role)
    return profile, people


@pytest.mark.parametrize("role", ["viewer", "controller"])
def test_a_teammate_sees_the_name_and_origins_and_never_the_cookies(user: User, role: str) -> None:
    profile, people = _shared(user)
    client = _client(people[role])
    listed = client.get("/api/profiles/")
    detail = client.get(f"/api/profiles/{profile.pk}/")
    assert [p["name"] for p in listed.json()] == ["shopping"]
    assert detail.json()["access"] == role
    assert [o["origin"] for o in detail.json()["origins"]] == ["http://news.example", "https://shop.example"]
    exported = client.get(f"/api/profiles/{profile.pk}/export/")
    assert exported.status_code == 403
    for answer in (listed, detail, exported):
        assert "cookie-plaintext-7f3a" not in answer.content.decode()
    assert client.patch(f"/api/profiles/{profile.pk}/", {"name": "mine"}, format="json").status_code == 403
    assert client.delete(f"/api/profiles/{profile.pk}/").status_code == 403
    assert _client(UserFactory()).get(f"/api/profiles/{profile.pk}/").status_code == 404  # a stranger


def test_a_controller_starts_their_own_conversation_from_it_a_viewer_cannot(user: User) -> None:
    profile, people = _shared(user)
    for role, expected in (("controller", 200), ("viewer", 403)):
        mine = ConversationFactory(owner=people[role])
        answer = _client(people[role]).put(
            f"/api/conversations/{mine.pk}/profile/", {"profile": profile.pk, "mode": "read-only"}, format="json"
        )
        assert answer.status_code == expected, answer.content
    use = ProfileUse.objects.get()
    assert (use.chosen_by, use.writes) == (people["controller"], False)


def test_only_a_conversations_owner_chooses_its_profile(user: User) -> None:
    profile, people = _shared(user)
    conversation = ConversationFactory(owner=user)
    from webapp.sharing.models import Share

    Share.objects.create(conversation=conversation, user=people["controller"], role="controller", created_by=user)
    client = _client(people["controller"])
    answer = client.put(f"/api/conversations/{conversation.pk}/profile/", {"profile": profile.pk}, format="json")
    assert answer.status_code == 403
    assert client.get(f"/api/conversations/{conversation.pk}/profile/").json()["profile"] is None
    assert not ProfileUse.objects.exists()


def _holding(profile: BrowserProfile, conversation: Conversation) -> None:
    """The conversation's session writes the profile now (as a worker's lease says)."""
    ProfileUse.objects.update_or_create(
        conversation=conversation, defaults={"profile": profile, "chosen_by": conversation.owner,
                                             "chosen_at": timezone.now(), "writes": True},
    )  # fmt: skip
    BrowserProfile.objects.filter(pk=profile.pk).update(
        writer=conversation, writer_until=timezone.now() + timedelta(seconds=30)
    )


def test_a_second_writer_is_refused_with_409_naming_the_holder(user: User, api: APIClient) -> None:
    profile = BrowserProfile.objects.get(pk=_import(api, "shopping", STATE).json()["id"])
    first, second = ConversationFactory(owner=user), ConversationFactory(owner=user)
    _holding(profile, first)
    refused = api.put(f"/api/conversations/{second.pk}/profile/", {"profile": profile.pk}, format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        f"The profile “shopping” is in use by {user.username} in conversation {first.pk}, which saves into it until "
        "its browser closes. Start from it read-only, or try again later."
    )
    assert api.get(f"/api/profiles/{profile.pk}/").json()["in_use"] == {"username": user.username,
                                                                         "conversation": first.pk}  # fmt: skip
    read_only = api.put(
        f"/api/conversations/{second.pk}/profile/", {"profile": profile.pk, "mode": "read-only"}, format="json"
    )
    assert read_only.status_code == 200
    assert read_only.json()["mode"] == "read-only"
    ProfileUse.objects.filter(conversation=second).update(writes=True)  # chosen before the other took it
    message = api.post(f"/api/conversations/{second.pk}/messages/", {"content": "hi"}, format="json")
    assert message.status_code == 409
    assert f"in use by {user.username} in conversation {first.pk}" in message.json()["detail"]
    assert not second.runs.exists()
    forget = api.post(f"/api/profiles/{profile.pk}/forget/", {"origin": "https://shop.example"}, format="json")
    assert forget.status_code == 409  # the writer would save it back


def test_a_lease_that_expired_holds_nothing(user: User, api: APIClient) -> None:
    profile = BrowserProfile.objects.get(pk=_import(api, "shopping", STATE).json()["id"])
    first, second = ConversationFactory(owner=user), ConversationFactory(owner=user)
    _holding(profile, first)
    BrowserProfile.objects.filter(pk=profile.pk).update(writer_until=timezone.now() - timedelta(seconds=1))
    answer = api.put(f"/api/conversations/{second.pk}/profile/", {"profile": profile.pk}, format="json")
    assert answer.status_code == 200, answer.content


def test_with_a_wait_the_second_writer_is_queued(user: User, api: APIClient, settings: Any) -> None:
    settings.HIVE_PROFILE_WRITER_WAIT_S = 30
    profile = BrowserProfile.objects.get(pk=_import(api, "shopping", STATE).json()["id"])
    first, second = ConversationFactory(owner=user), ConversationFactory(owner=user)
    _holding(profile, first)
    assert (
        api.put(f"/api/conversations/{second.pk}/profile/", {"profile": profile.pk}, format="json").status_code == 200
    )
    sent = api.post(f"/api/conversations/{second.pk}/messages/", {"content": "hi"}, format="json")
    assert sent.status_code == 201, sent.content


def test_a_workflow_run_and_a_schedule_start_from_a_profile(user: User, api: APIClient) -> None:
    profile_id = _import(api, "shopping", STATE).json()["id"]
    workflow_id = workflow_with(user, "Cart", [step("navigate", "open", url="https://shop.example/")])
    started = api.post(
        f"/api/workflows/{workflow_id}/runs/", {"profile": profile_id, "profile_mode": "read-only"}, format="json"
    )
    assert started.status_code == 202, started.content
    use = ProfileUse.objects.get(conversation_id=started.json()["conversation"])
    assert (use.profile_id, use.writes, use.chosen_by) == (profile_id, False, user)

    made = api.post(f"/api/workflows/{workflow_id}/schedules/", {"cron": "0 9 * * *", "profile": profile_id},
                    format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert (made.json()["profile"], made.json()["profile_mode"]) == (profile_id, "read-write")
    fired = schedule_fire(schedule_id=made.json()["id"])
    assert fired is not None
    use = ProfileUse.objects.get(conversation=fired.conversation)
    assert (use.profile_id, use.writes) == (profile_id, True)


def test_someone_elses_profile_cannot_be_named_for_a_run_or_a_schedule(user: User, api: APIClient) -> None:
    theirs = _import(_client(UserFactory()), "theirs", STATE).json()["id"]
    workflow_id = workflow_with(user, "Cart", [step("navigate", "open", url="https://shop.example/")])
    assert api.post(f"/api/workflows/{workflow_id}/runs/", {"profile": theirs}, format="json").status_code == 404
    made = api.post(f"/api/workflows/{workflow_id}/schedules/", {"cron": "0 9 * * *", "profile": theirs},
                    format="json")  # fmt: skip
    assert made.status_code == 404
    assert not WorkflowSchedule.objects.exists()
    assert not ProfileUse.objects.exists()


def test_the_admin_lists_profiles_by_name_and_owner_and_never_the_state(user: User, api: APIClient) -> None:
    profile_id = _import(api, "shopping", STATE).json()["id"]
    admin = UserFactory(is_staff=True, is_superuser=True)
    client = _client(admin)
    listing = client.get("/admin/profiles/browserprofile/").content.decode()
    change = client.get(f"/admin/profiles/browserprofile/{profile_id}/change/").content.decode()
    assert "shopping" in listing
    assert user.username in listing
    for page in (listing, change):
        for secret in ("cookie-plaintext-7f3a", "3 apples", "shop.example", "news.example", "encrypted"):
            assert secret not in page


def test_the_profile_is_not_changed_under_a_run_in_progress(user: User, api: APIClient) -> None:
    profile_id = _import(api, "shopping", STATE).json()["id"]
    conversation = ConversationFactory(owner=user)
    url = f"/api/conversations/{conversation.pk}/profile/"
    assert api.put(url, {"profile": profile_id, "mode": "read-only"}, format="json").status_code == 200
    Run.objects.create(conversation=conversation, status=Run.Status.RUNNING, started_by=user)
    for answer in (api.put(url, {"profile": profile_id}, format="json"), api.delete(url)):
        assert answer.status_code == 409
        assert "A run is in progress in this conversation" in answer.json()["detail"]
    assert ProfileUse.objects.get(conversation=conversation).writes is False
