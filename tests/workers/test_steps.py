"""The step executor through the worker's recorder, in this process: a person's or a script's action is one step
(agents.step.run_step) recorded in the database with its result, its picture and the element it aimed at; an MCP
client's step that needs a yes asks in the dashboard and a no leaves the page untouched; a person's own step is not
asked; secrets are typed at the moment of acting and never recorded."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from agents.secrets import PlaceholderSecrets
from agents.step import StepCall, run_step
from agents.tools.browser import browser_tools
from browser_pool.session import Session
from tests.support.waiting import until
from tests.workers.support import reread, running, steps_of
from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, Run
from webapp.runs.services import confirmation_answer
from workers.manual import manual_action
from workers.steps import worker_step_context
from workers.turns import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.asyncio(loop_scope="module")]


async def by_hand(
    conversation: Conversation, session: Session, action: str, source: str = "", **arguments: object
) -> Run:
    """An action run from the dashboard or the REST API (or, with source "mcp", by an MCP client), to its end."""
    metadata = {"action": action, "arguments": arguments, **({"source": source} if source else {})}
    run, sink = await running(conversation, Run.Kind.ACTION, **metadata)
    await manual_action(run, session, sink)
    return await reread(run)


async def test_an_action_aimed_by_selector_is_recorded_with_its_result_picture_and_element(
    conversation: Conversation, session: Session, site: tuple[str, object]
) -> None:
    base, _ = site
    assert (await by_hand(conversation, session, "navigate", url=f"{base}/signup.html")).status == "succeeded"
    typed = await by_hand(conversation, session, "type", selector="#full-name", text="Ada Lovelace")
    assert typed.status == "succeeded", typed.error
    (step,) = await steps_of(typed)
    assert (step.action, step.status, step.arguments) == ("type", "succeeded", {"selector": "#full-name",
                                                                                 "text": "Ada Lovelace"})  # fmt: skip
    assert json.loads(step.observation)["data"]["value"] == "Ada Lovelace"
    assert step.screenshot  # a picture of the page after it
    assert step.target["name"] == "Full name"
    assert step.target["attributes"]["name"] == "fullname"
    assert await session.active_page.input_value("#full-name") == "Ada Lovelace"

    missed = await by_hand(conversation, session, "click", selector="#no-such-button")
    assert missed.status == "failed"
    assert missed.error == "no element matches the selector '#no-such-button'"
    (step,) = await steps_of(missed)
    assert json.loads(step.observation)["suggestion"] == "use an index from get_elements instead"


async def _answer_when_asked(run_id: int, approve: bool) -> None:
    """The conversation's owner answers the question in the dashboard once it is asked."""
    pending = Confirmation.objects.select_related("run__conversation__owner").filter(
        run_id=run_id, status=Confirmation.Status.PENDING
    )
    await until(database_sync_to_async(pending.exists), what="the question")
    question = await database_sync_to_async(pending.get)()
    owner = question.run.conversation.owner
    await database_sync_to_async(confirmation_answer)(confirmation=question, user=owner, approve=approve)


@pytest.mark.parametrize("approve", [False, True])
async def test_an_mcp_clients_step_that_needs_a_yes_is_asked_and_a_no_leaves_the_page_untouched(
    approve: bool, conversation: Conversation, session: Session, site: tuple[str, object]
) -> None:
    base, _ = site
    await by_hand(conversation, session, "navigate", url=f"{base}/signup.html")
    run, sink = await running(conversation, Run.Kind.ACTION, action="execute_js", source="mcp",
                              arguments={"code": "document.title = 'changed'"})  # fmt: skip
    answering = asyncio.create_task(_answer_when_asked(run.pk, approve))
    await manual_action(run, session, sink)
    await answering
    run = await reread(run)
    assert (run.status == "succeeded") is approve
    assert (await session.active_page.title() == "changed") is approve
    question = await database_sync_to_async(Confirmation.objects.get)(run=run)
    assert question.status == ("approved" if approve else "denied")
    assert question.arguments == {"code": "document.title = 'changed'"}
    if not approve:
        assert run.error.startswith("Not done: it needs the user's yes (the agent wants to run JavaScript")


async def test_a_persons_own_step_is_not_asked(
    conversation: Conversation, session: Session, site: tuple[str, object]
) -> None:
    base, _ = site
    await by_hand(conversation, session, "navigate", url=f"{base}/signup.html")
    run = await by_hand(conversation, session, "execute_js", code="document.title = 'mine'")
    assert run.status == "succeeded", run.error
    assert await session.active_page.title() == "mine"
    assert not await database_sync_to_async(Confirmation.objects.filter(run=run).exists)()


async def test_a_secret_is_typed_at_the_moment_of_acting_and_never_recorded(
    conversation: Conversation, session: Session, site: tuple[str, object]
) -> None:
    base, _ = site
    secret = "correct horse battery staple"
    await by_hand(conversation, session, "navigate", url=f"{base}/signup.html")
    run, sink = await running(conversation, Run.Kind.WORKFLOW)
    context = await worker_step_context(run, session, sink, tools=browser_tools(), judged=True,
                                        secrets=PlaceholderSecrets({"pw": secret}))  # fmt: skip
    outcome = await run_step(StepCall("type", {"selector": "#full-name", "text": "{{pw}}"}), context)
    await finish(run.pk, Run.Status.SUCCEEDED)
    assert outcome.ok, outcome.error
    assert await session.active_page.input_value("#full-name") == secret  # typed into the page
    (step,) = await steps_of(run)
    recorded = json.dumps([step.arguments, step.observation, step.error, step.target], ensure_ascii=False)
    assert secret not in recorded
    assert step.arguments == {"selector": "#full-name", "text": "{{pw}}"}
    assert json.loads(step.observation)["data"]["value"] == "•" * len(secret), "the field reads as a password's"
    assert secret not in outcome.observed.text
