"""A browser profile shared as controller lends its sign-ins to a teammate's browser, and they stay the owner's
(through the whole stack: a real worker and Chromium). The teammate cannot save that browser as a profile of their
own (whose export would hand over the owner's HttpOnly cookies); the lent cookies are kept in no save of the
teammate's conversation, and leave the teammate's browser once the profile no longer applies (dropped, or its share
taken back); and a teammate whose share was taken back while a run went on writes nothing more into the profile."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.processes import wait_until
from tests.support.runs import act, observation
from tests.support.static_server import serve_directory
from webapp.conversations.browser_selectors import browser_session_state
from webapp.conversations.models import Conversation
from webapp.profiles.models import BrowserProfile, ProfileShare
from webapp.profiles.selectors import profile_state
from webapp.profiles.services import profile_store
from webapp.runs.models import Run

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

SESSION = "owner-httponly-session-7f3a91"  # the owner's sign-in: no script of the page reads it
VISIBLE = "owner-visible-pref-52c1"
LATE = "set-after-revoke-4d2e"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """The signed-in site's pages, served from `tmp_path`."""
    (tmp_path / "index.html").write_text("<!doctype html><title>shop</title><p>shop</p>")
    with serve_directory(tmp_path) as base:
        yield base


def _lent(site: str, *, mode: str) -> tuple[BrowserProfile, ProfileShare, Conversation, APIClient, APIClient]:
    """The owner's profile, signed in to the site, shared with a teammate as controller and chosen for a conversation
    of the teammate's."""
    owner, teammate = UserFactory(username="profile-owner"), UserFactory(username="teammate")
    cookie = {"domain": "127.0.0.1", "path": "/", "expires": -1, "secure": False, "sameSite": "Lax"}
    state = {
        "cookies": [{**cookie, "name": "sid", "value": SESSION, "httpOnly": True},
                    {**cookie, "name": "pref", "value": VISIBLE, "httpOnly": False}],
        "origins": [],
    }  # fmt: skip
    profile = profile_store(owner=owner, name="shop", state=state, replace=False)
    share = ProfileShare.objects.create(profile=profile, user=teammate, role="controller")
    conversation = ConversationFactory(owner=teammate)
    client = signed_in(teammate)
    chosen = client.put(
        f"/api/conversations/{conversation.pk}/profile/", {"profile": profile.pk, "mode": mode}, format="json"
    )
    assert chosen.status_code == 200, chosen.content
    return profile, share, conversation, client, signed_in(owner)


def _cookies_seen(client: APIClient, conversation: Conversation, site: str) -> str:
    """What the site's page reads of its cookies in the conversation's browser."""
    assert act(client, conversation.pk, "navigate", url=f"{site}/index.html").status == "succeeded"
    read = act(client, conversation.pk, "execute_js", code="document.cookie")
    assert read.status == "succeeded", read.error
    return json.dumps(observation(read))


@pytest.mark.parametrize("mode", ["read-only", "read-write"])
def test_a_lent_profiles_sign_ins_stay_its_owners_and_leave_with_the_profile(site: str, mode: str) -> None:
    profile, _share, conversation, client, _owners = _lent(site, mode=mode)

    assert VISIBLE in _cookies_seen(client, conversation, site), "the teammate's browser starts signed in"
    captured = client.post(f"/api/conversations/{conversation.pk}/profile/", {"name": "copy"}, format="json")
    assert captured.status_code == 409, captured.content
    assert "cannot be saved as a profile of yours" in captured.json()["detail"]
    assert not BrowserProfile.objects.filter(name="copy").exists()
    # The conversation's own save keeps the tabs, none of the lent cookies.
    wait_until(lambda: browser_session_state(conversation_id=conversation.pk) is not None, 30, "the browser's save")
    own = json.dumps(browser_session_state(conversation_id=conversation.pk))
    assert f"{site}/index.html" in own
    assert SESSION not in own
    assert VISIBLE not in own

    dropped = client.delete(f"/api/conversations/{conversation.pk}/profile/")
    assert dropped.status_code == 204, dropped.content
    assert VISIBLE not in _cookies_seen(client, conversation, site), "the lent sign-in left with the profile"
    captured = client.post(f"/api/conversations/{conversation.pk}/profile/", {"name": "copy"}, format="json")
    assert captured.status_code == 201, captured.content
    exported = client.get(f"/api/profiles/{captured.json()['id']}/export/")
    assert exported.status_code == 200, exported.content
    assert SESSION not in exported.content.decode()
    assert VISIBLE not in exported.content.decode()
    assert SESSION in json.dumps(profile_state(profile_id=profile.pk)), "the owner's profile is as it was"


def test_a_teammate_whose_share_is_taken_back_mid_run_writes_nothing_more_into_the_profile(
    site: str, tmp_path: Path
) -> None:
    profile, share, conversation, client, owners = _lent(site, mode="read-write")
    assert act(client, conversation.pk, "navigate", url=f"{site}/index.html").status == "succeeded"

    # A script of the page sets a cookie once the share is gone: it waits for go.txt, written after the revocation.
    code = (
        "new Promise((done) => { const waiting = setInterval(async () => {"
        " if (!(await fetch('go.txt')).ok) return; clearInterval(waiting);"
        f" document.cookie = 'late={LATE}; path=/; max-age=3600'; done(document.cookie); }}, 100); }})"
    )
    started = client.post(
        f"/api/conversations/{conversation.pk}/actions/",
        {"action": "execute_js", "arguments": {"code": code}},
        format="json",
    )
    assert started.status_code == 202, started.content
    run = Run.objects.get(pk=started.json()["id"])
    wait_until(lambda: Run.objects.get(pk=run.pk).status == "running", 30, "the action to start")
    revoked = owners.delete(f"/api/profiles/{profile.pk}/shares/{share.pk}/")
    assert revoked.status_code == 204, revoked.content
    (tmp_path / "go.txt").write_text("go")
    wait_until(lambda: not Run.objects.get(pk=run.pk).is_active, 60, "the action to end")
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    assert LATE in json.dumps(observation(run)), "the page set it after the revocation"

    def saved_back_or_let_go() -> bool:
        """The save after the action has reached the profile: written into it, or refused and its lease let go."""
        written = LATE in json.dumps(profile_state(profile_id=profile.pk))
        return written or BrowserProfile.objects.get(pk=profile.pk).writer_id is None

    wait_until(saved_back_or_let_go, 30, "the save after the action to reach the profile")
    assert LATE not in json.dumps(profile_state(profile_id=profile.pk)), "written into the owner's profile"
    # And the teammate's browser no longer holds the owner's sign-in.
    assert VISIBLE not in _cookies_seen(client, conversation, site)
