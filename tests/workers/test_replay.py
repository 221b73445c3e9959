"""The replay loop in this process: for each step, find it, run it, check it; heal it when it no longer fits. Each
step is recorded through the worker's sink; a secret is typed and never shown; a step that no longer fits is healed
by the agent (the scripted model) or fails with why; a "no" ends the replay without healing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async

from agents.secrets import SECRET_MASK
from browser_pool.session import Session
from tests.agents.support import calls_made, find_index, user_request
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.workflows import parameter, step, workflow_with
from tests.workers.support import reread, running, steps_of
from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, ModelCall, Run
from webapp.workflows.models import WorkflowVersion
from webapp.workflows.services import credential_set
from workers.replay import replay_workflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.asyncio(loop_scope="module")]

SECRET = "correct horse battery staple"


def _sign_up(url: str) -> list[dict[str, Any]]:
    field = {"tag": "input", "role": "textbox"}
    steps = [
        step("navigate", "open the form", url=url),
        step("type", "type the name", **field, name="Full name", attributes={"name": "fullname"}, text="{{fullname}}"),
        step("type", "type the e-mail", **field, name="Email", attributes={"name": "email"}, text="{{email}}"),
        step("select", "choose the plan", tag="select", role="combobox", name="Plan", attributes={"name": "plan"},
             value="{{plan}}"),
        step("click", "join", tag="button", role="button", name="Join"),
    ]  # fmt: skip
    for typed in steps[1:4]:
        typed["checks"] = {"value": True}
    return steps


async def _replay(conversation: Conversation, session: Session, steps: list[dict[str, Any]], parameters: list[Any],
                  values: dict[str, str], **metadata: Any) -> Run:  # fmt: skip
    """The workflow saved with these steps, replayed to its end in this conversation's browser."""

    def saved() -> int:
        workflow_id = workflow_with(conversation.owner, "Flow", steps, parameters)
        return WorkflowVersion.objects.get(workflow_id=workflow_id).pk

    version_id = await database_sync_to_async(saved)()
    run, sink = await running(conversation, Run.Kind.WORKFLOW, version_id=version_id, parameters=values, **metadata)
    await replay_workflow(run, session, sink)
    return await reread(run)


@pytest.fixture
def no_model(settings: Any) -> None:
    settings.HIVE_LLM_BASE_URL = ""
    settings.HIVE_LLM_MODEL = ""


@pytest.mark.usefixtures("no_model")
async def test_each_step_is_found_on_a_redesigned_page_done_checked_and_recorded(
    conversation: Conversation, session: Session, site: tuple[str, Path]
) -> None:
    base, folder = site
    (folder / "signup.html").write_text((folder / "signup_redesigned.html").read_text())
    parameters = [parameter("fullname", "Full name"), parameter("email", "Email"), parameter("plan", "Plan", "pro")]
    values = {"fullname": "Grace Hopper", "email": "grace@example.com", "plan": "free"}
    run = await _replay(conversation, session, _sign_up(f"{base}/signup.html"), parameters, values)
    assert run.status == "succeeded", run.error
    assert (
        await session.active_page.text_content("#result") == "Welcome Grace Hopper <grace@example.com> on the free plan"
    )
    steps = await steps_of(run)
    assert [(s.action, s.status) for s in steps] == [
        ("navigate", "succeeded"), ("type", "succeeded"), ("type", "succeeded"), ("select", "succeeded"),
        ("click", "succeeded"),
    ]  # fmt: skip
    assert [s.arguments for s in steps[1:]] == [{"text": "Grace Hopper"}, {"text": "grace@example.com"},
                                                {"value": "free"}, {}]  # fmt: skip
    assert [(s.target or {}).get("name") for s in steps] == [None, "Full name", "Email", "Plan", "Join"]
    assert all(s.screenshot for s in steps)
    assert run.prompt_tokens == 0


@pytest.mark.usefixtures("no_model")
async def test_a_secret_is_typed_from_the_owners_store_and_shown_masked(
    conversation: Conversation, session: Session, site: tuple[str, Path]
) -> None:
    base, _ = site
    await database_sync_to_async(credential_set)(owner=conversation.owner, name="club", value=SECRET)
    field = {"tag": "input", "role": "textbox"}
    steps = [
        step("navigate", "open", url=f"{base}/login.html"),
        step("type", "type the username", **field, name="Username", attributes={"name": "username"},
             text="{{username}}"),
        step("type", "type the password", **field, name="Password", attributes={"type": "password"},
             text="{{password}}"),
        step("click", "sign in", tag="button", role="button", name="Sign in"),
    ]  # fmt: skip
    for typed in steps[1:3]:  # checked against the value typed, the secret's too (a password field shows dots)
        typed["checks"] = {"value": True}
    parameters = [parameter("username", "Username", "ada"), parameter("password", "Password", secret=True)]
    run = await _replay(conversation, session, steps, parameters, {"username": "ada", "password": "club"})
    assert run.status == "succeeded", run.error
    assert await session.active_page.text_content("#result") == "Hello ada"  # the right password was typed
    recorded = await steps_of(run)
    assert recorded[2].arguments == {"text": SECRET_MASK}
    every = json.dumps([[s.arguments, s.observation, s.error, s.target] for s in recorded], ensure_ascii=False)
    assert SECRET not in every


@pytest.mark.usefixtures("no_model")
async def test_a_step_that_no_longer_fits_fails_with_why_when_no_model_can_heal_it(
    conversation: Conversation, session: Session, site: tuple[str, Path]
) -> None:
    base, folder = site
    (folder / "signup.html").write_text((folder / "signup_gone.html").read_text())
    parameters = [parameter("fullname", "Full name"), parameter("email", "Email"), parameter("plan", "Plan", "pro")]
    run = await _replay(conversation, session, _sign_up(f"{base}/signup.html"), parameters,
                        {"fullname": "Ada", "email": "ada@example.com", "plan": "pro"})  # fmt: skip
    assert run.status == "failed"
    assert run.error.startswith("Step 2 of 5 (type the name): its element is not on")
    assert "; it needs healing, and no model is configured to heal it" in run.error
    steps = await steps_of(run)
    assert [(s.action, s.status) for s in steps if s.kind == "action"] == [("navigate", "succeeded"),
                                                                           ("type", "failed")]  # fmt: skip
    assert steps[1].screenshot  # the page the step did not fit


async def test_a_no_ends_a_replay_without_healing(
    conversation: Conversation, session: Session, site: tuple[str, Path], llm: ScriptedLLM
) -> None:
    base, _ = site
    steps = [step("navigate", "open", url=f"{base}/signup.html"), step("execute_js", "read", code="return 1")]
    run = await _replay(conversation, session, steps, [], {}, schedule=1, confirmations="refuse")
    assert run.status == "failed"
    assert run.error == (
        "Step 2 of 2 (read): Not done: it needs the user's yes (the agent wants to run JavaScript in the page), "
        "and this scheduled replay does not wait for one (its schedule says refuse)."
    )
    assert not await database_sync_to_async(Confirmation.objects.filter(run=run).exists)()
    assert llm.requests == []  # a "no" is an answer, not a page that changed: nothing to heal


def _heals(request: dict[str, Any]) -> Reply:
    """Asked to heal the name step: looks at the page, types the name where the page now asks for it."""
    if not calls_made(request):
        return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}])
    if len(calls_made(request)) > 1:
        return Reply(content="done")
    values = json.loads(re.search(r"The workflow's parameters: (\{.*\})", user_request(request)).group(1))  # type: ignore[union-attr]
    return Reply(tool_calls=[{"name": "type", "arguments": {"index": find_index(request, "Your name"),
                                                               "text": values["fullname"]}}])  # fmt: skip


async def test_a_step_that_no_longer_fits_is_healed_and_the_healed_steps_become_the_next_version(
    conversation: Conversation, session: Session, site: tuple[str, Path], llm: ScriptedLLM
) -> None:
    base, folder = site
    page = (folder / "signup.html").read_text()
    for was, now in (
        ('for="full-name">Full name', 'for="w1">Your name'),
        ('id="full-name" name="fullname"', 'id="w1" name="who"'),
        ("f.fullname.value", "f.who.value"),
    ):
        page = page.replace(was, now)  # fmt: skip
    (folder / "signup.html").write_text(page)
    llm.script(_heals)
    parameters = [parameter("fullname", "Full name"), parameter("email", "Email"), parameter("plan", "Plan", "pro")]
    run = await _replay(conversation, session, _sign_up(f"{base}/signup.html"), parameters,
                        {"fullname": "Grace Hopper", "email": "grace@example.com", "plan": "pro"})  # fmt: skip
    assert run.status == "succeeded", run.error
    assert (
        await session.active_page.text_content("#result") == "Welcome Grace Hopper <grace@example.com> on the pro plan"
    )
    assert run.prompt_tokens > 0
    assert await database_sync_to_async(ModelCall.objects.filter(run=run).count)() == len(llm.requests)

    def newest() -> WorkflowVersion:
        return WorkflowVersion.objects.filter(workflow__owner=conversation.owner).latest("number")

    version = await database_sync_to_async(newest)()
    assert version.number == 2
    assert version.note == f"Healed step 2 in run {run.pk}"
    healed = version.steps[1]
    assert (healed["action"], healed["arguments"], healed["target"]["name"]) == ("type", {"text": "{{fullname}}"},
                                                                                 "Your name")  # fmt: skip
