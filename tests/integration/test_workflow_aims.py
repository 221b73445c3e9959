"""Workflows saved from steps done by hand through the API, aimed however a script or an MCP client aims them — by
index, by CSS selector, or at a point of the page: every step records the element it aimed at, the parameters are
named after the fields, and the workflow replays on a changed page (renamed ids, a wrapper, a moved button, a reworded
label) without a model."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import ConversationFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import ScriptedLLM
from tests.support.runs import act, observation
from tests.support.static_server import serve_directory
from tests.support.workflows import replay
from webapp.runs.models import ModelCall

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

PAGES = Path(__file__).resolve().parent / "pages" / "workflow"


def _changed_page() -> str:
    """The redesigned sign-up page (new ids and classes, the button moved first, a new field), with the form in a
    wrapper, the e-mail field's label and the button reworded."""
    page = (PAGES / "signup_redesigned.html").read_text()
    for was, now in (
        ('<form id="f2" class="form-v2">', '<div class="card"><section class="body"><form id="f2" class="form-v2">'),
        ("</form>", "</form></section></div>"),
        ('for="x-mail">Email<', 'for="x-mail">Your e-mail address<'),
        (">Join</button>", ">Join now</button>"),
    ):
        assert was in page
        page = page.replace(was, now)
    return page


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    shutil.copy(PAGES / "signup.html", tmp_path / "signup.html")
    with serve_directory(tmp_path) as base:
        yield base, tmp_path


def _index(listing: str, label: str) -> int:
    match = re.search(r"\[(\d+)\][^\n]*" + re.escape(label), listing)
    assert match, listing
    return int(match.group(1))


def _center(client: APIClient, conversation_id: int, selector: str) -> dict[str, float]:
    code = f"const r = document.querySelector({selector!r}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]"
    x, y = json.loads(observation(act(client, conversation_id, "execute_js", code=code))["data"]["result"])
    return {"x": x, "y": y}


def _sign_up_by_hand(client: APIClient, conversation_id: int, url: str, aim: str) -> tuple[int, int]:
    """The sign-up done through the actions API, each element aimed as `aim` says; the first and last step's ids."""
    act(client, conversation_id, "navigate", url=url)
    join_at = _center(client, conversation_id, "#join-btn")
    first = act(client, conversation_id, "navigate", url=url)  # the steps to save start here
    listing = observation(act(client, conversation_id, "get_elements"))["data"]["elements"]  # looking is not saved
    aims: dict[str, list[dict[str, Any]]] = {
        "index": [{"index": _index(listing, label)} for label in ("Full name", "Email", "Plan", "Join")],
        "selector": [{"selector": s} for s in ("#full-name", "#mail", "select#plan", "form .btn.primary")],
        "point": [{"selector": "#full-name"}, {"selector": "#mail"}, {"selector": "#plan"}, join_at],
    }
    fields = aims[aim]
    act(client, conversation_id, "type", text="Ada Lovelace", **fields[0])
    act(client, conversation_id, "type", text="ada@example.com", **fields[1])
    act(client, conversation_id, "select", value="pro", **fields[2])
    last = act(client, conversation_id, "click", **fields[3])
    assert last.status == "succeeded", last.error
    return first.steps.get().pk, last.steps.get().pk


def _result_text(client: APIClient, conversation_id: int) -> str:
    read = act(client, conversation_id, "execute_js", code="return document.getElementById('result').textContent")
    return str(observation(read)["data"]["result"])


@pytest.mark.parametrize("aim", ["index", "selector", "point"])
def test_steps_aimed_by_index_selector_or_point_replay_on_a_changed_page_without_a_model(
    aim: str, llm: ScriptedLLM, site: tuple[str, Path]
) -> None:
    base, folder = site
    conversation = ConversationFactory()
    client = signed_in(conversation.owner)
    first, last = _sign_up_by_hand(client, conversation.pk, f"{base}/signup.html", aim)
    assert "Welcome Ada Lovelace <ada@example.com> on the pro plan" in _result_text(client, conversation.pk)

    saved = client.post(f"/api/conversations/{conversation.pk}/workflow/",
                        {"name": "Join", "first_step": first, "last_step": last}, format="json")  # fmt: skip
    assert saved.status_code == 201, saved.content
    workflow: dict[str, Any] = saved.json()
    assert [p["name"] for p in workflow["parameters"]] == ["fullname", "email", "plan"]
    assert [p["label"] for p in workflow["parameters"]] == ["Full name", "Email", "Plan"]
    steps = workflow["steps"]
    assert [s["action"] for s in steps] == ["navigate", "type", "type", "select", "click"]
    assert [s["target"] and s["target"]["name"] for s in steps] == [None, "Full name", "Email", "Plan", "Join"]
    # Each step is found by its record on the next visit; how it was first aimed is not kept.
    assert [sorted(s["arguments"]) for s in steps[1:]] == [["text"], ["text"], ["value"], []]

    (folder / "signup.html").write_text(_changed_page())
    replayed = replay(client, workflow["id"], fullname="Grace Hopper", email="grace@example.com", plan="free")
    assert replayed.status == "succeeded", replayed.error
    assert "Welcome Grace Hopper <grace@example.com> on the free plan" in _result_text(client, replayed.conversation_id)
    assert llm.requests == []  # found on the changed page without healing
    assert not ModelCall.objects.filter(run=replayed).exists()
