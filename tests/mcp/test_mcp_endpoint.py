"""Hive as a remote MCP server, driven by the official SDK's client over HTTP against a live Daphne and worker.

The client lists tools, navigates the demo site, clicks, reads, sees the flight site's WebMCP tools appear and
calls one, hands a task to Hive's agent (the scripted model) and hears its progress; it speaks both the current
protocol and the older handshake; without a token, or in another user's conversation, it is refused.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from asgiref.sync import sync_to_async
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.agents.support import calls_made
from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.llm_server import Reply, ScriptedLLM
from tests.support.static_server import serve_directory
from tests.support.waiting import until
from tests.support.workflows import parameter, step, workflow_with
from webapp.accounts.services import api_token_rotate
from webapp.conversations.models import Conversation
from webapp.runs.models import Confirmation, Run, Step
from webapp.sharing import control

UPLOAD_PAGES = Path(__file__).resolve().parents[1] / "browser_pool" / "page" / "pages"
WORKFLOW_PAGES = Path(__file__).resolve().parents[1] / "integration" / "pages" / "workflow"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.asyncio,
    pytest.mark.usefixtures("celery_worker"),
]


async def token_for(user: Any) -> str:
    _, key = await sync_to_async(api_token_rotate)(user=user)
    return str(key)


@asynccontextmanager
async def mcp_client(
    url: str,
    token: str,
    *,
    mode: str = "auto",
    elicitation_callback: Any = None,
    message_handler: Any = None,
    **headers: str,
) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}", **headers}, timeout=120)
    transport = streamable_http_client(f"{url}/mcp", http_client=http)
    async with (
        http,
        Client(
            transport, mode=mode, elicitation_callback=elicitation_callback, message_handler=message_handler
        ) as client,
    ):  # type: ignore[arg-type]
        yield client


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(part.text for part in result.content if isinstance(part, types.TextContent))


def _conversation_of(result: types.CallToolResult) -> int:
    assert result.meta is not None
    return int(result.meta["hive/conversation"])


def _actions(conversation: Conversation) -> list[str]:
    return list(
        Step.objects.filter(run__conversation=conversation).order_by("started_at").values_list("action", flat=True)
    )


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_client_browses_reads_and_clicks_and_the_dashboard_sees_each_step(web_server: str, mode: str) -> None:
    user = await sync_to_async(UserFactory)()
    async with mcp_client(web_server, await token_for(user), mode=mode) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"navigate", "click", "type", "observe", "get_content", "screenshot", "run_task"} <= names

        opened = await client.call_tool("navigate", {"url": f"{web_server}/demo/article/"})
        assert not opened.is_error, text_of(opened)
        assert json.loads(text_of(opened))["url"] == f"{web_server}/demo/article/"

        content = await client.call_tool("get_content", {})
        assert "The slow return of the sleeper train" in text_of(content)

        seen = await client.call_tool("observe", {})
        link = re.search(r"\[(\d+)\] a \"Travel\"", text_of(seen))
        assert link is not None, text_of(seen)
        clicked = await client.call_tool("click", {"index": int(link.group(1))})
        assert not clicked.is_error, text_of(clicked)

        picture = await client.call_tool("screenshot", {})
        assert isinstance(picture.content[0], types.ImageContent)
        assert picture.content[0].mime_type == "image/jpeg"

        wrong = await client.call_tool("click", {"index": "first"})
        assert wrong.is_error
        assert "invalid arguments for click" in text_of(wrong)

    conversation = await sync_to_async(Conversation.objects.get)(pk=_conversation_of(opened))
    assert conversation.owner_id == user.pk
    assert conversation.origin == "mcp"
    actions = await sync_to_async(_actions)(conversation)
    assert actions == ["navigate", "get_content", "observe", "click", "screenshot"]


async def test_the_pages_own_tools_are_listed_while_it_is_open_and_can_be_called(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()
    async with mcp_client(web_server, await token_for(user)) as client:
        opened = await client.call_tool("navigate", {"url": f"{web_server}/demo/flights/"})
        assert not opened.is_error, text_of(opened)
        names: set[str] = set()

        async def listed() -> bool:
            names.update(tool.name for tool in (await client.list_tools()).tools)
            return "page_searchFlights" in names

        # The current protocol has no notifications: a client lists the tools again.
        await until(listed, what="the flight site's tools in the list")

        found = await client.call_tool("page_searchFlights", {"from": "PEK", "to": "SHA", "date": "2026-12-01"})
        assert not found.is_error, text_of(found)
        assert "PEK" in text_of(found)

        await client.call_tool("navigate", {"url": f"{web_server}/demo/article/"})
        gone = await client.call_tool("page_searchFlights", {"from": "PEK", "to": "SHA", "date": "2026-12-01"})
        assert gone.is_error
        assert "offers no tool named 'searchFlights'" in text_of(gone)


async def test_run_task_hands_the_task_to_hives_agent_and_reports_its_steps(web_server: str, llm: ScriptedLLM) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not calls_made(request):
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": f"{web_server}/demo/article/"}}])
        return Reply(content="The article is about sleeper trains.")

    llm.script(handler)
    user = await sync_to_async(UserFactory)()
    heard: list[str] = []

    async with mcp_client(web_server, await token_for(user)) as client:

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            heard.append(message or "")

        result = await client.call_tool(
            "run_task", {"task": "What is the article about?"}, progress_callback=on_progress
        )
    assert not result.is_error, text_of(result)
    assert text_of(result) == "The article is about sleeper trains."
    assert any("navigate" in message for message in heard), heard


async def test_no_token_a_bad_one_or_anothers_conversation_is_refused(web_server: str) -> None:
    theirs = await sync_to_async(ConversationFactory)()
    me = await sync_to_async(UserFactory)()
    async with httpx.AsyncClient() as http:
        for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic eDp5"}):
            answer = await http.post(
                f"{web_server}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers
            )
            assert answer.status_code == 401
            assert "API token" in answer.json()["detail"]

    async with mcp_client(web_server, await token_for(me), **{"Hive-Conversation": str(theirs.pk)}) as client:
        refused = await client.call_tool("navigate", {"url": f"{web_server}/demo/article/"})
    assert refused.is_error
    assert "No such conversation" in text_of(refused)
    assert not await sync_to_async(Step.objects.filter(run__conversation=theirs).exists)()


def _active_run_of(user: Any) -> int | None:
    run = Run.objects.filter(conversation__owner=user, status__in=Run.ACTIVE).first()
    return run.pk if run is not None and run.status == Run.Status.RUNNING else None


def _stop_in_dashboard(user: Any, run_id: int) -> int:
    return int(signed_in(user).post(f"/api/runs/{run_id}/abort/").status_code)


async def test_stopping_the_run_in_the_dashboard_ends_the_pending_call(web_server: str, llm: ScriptedLLM) -> None:
    llm.script(lambda request: Reply(content="Too late.", delay_s=30))
    user = await sync_to_async(UserFactory)()
    async with mcp_client(web_server, await token_for(user)) as client:
        call = asyncio.create_task(client.call_tool("run_task", {"task": "Take your time."}))
        running: list[int] = []

        async def started() -> bool:
            found = await sync_to_async(_active_run_of)(user)
            running.extend([found] if found else [])
            return bool(running)

        async with asyncio.timeout(20):
            while not await started():
                assert not call.done(), call.result()
                await asyncio.sleep(0.1)
        stopped = await sync_to_async(_stop_in_dashboard)(user, running[0])
        assert stopped in (200, 202)
        result = await asyncio.wait_for(call, 30)
    assert result.is_error
    assert text_of(result) == "Stopped by the user."


def _notices(conversation_id: int) -> list[str]:
    return list(
        Step.objects.filter(run__conversation_id=conversation_id, action="notice").values_list("observation", flat=True)
    )


async def test_a_call_waits_while_a_person_has_the_browser_and_goes_on_when_they_hand_it_back(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()
    async with mcp_client(web_server, await token_for(user)) as client:
        opened = await client.call_tool("navigate", {"url": f"{web_server}/demo/article/"})
        conversation_id = _conversation_of(opened)
        await sync_to_async(control.control_take)(conversation_id=conversation_id, user=user, access="owner")
        call = asyncio.create_task(client.call_tool("scroll", {"direction": "down"}))
        async with asyncio.timeout(20):
            while not await sync_to_async(_notices)(conversation_id):
                assert not call.done(), call.result()
                await asyncio.sleep(0.1)
        assert (await sync_to_async(_notices)(conversation_id))[0].startswith(f"Paused: {user.username} has taken over")
        assert not call.done()
        await sync_to_async(control.control_release)(conversation_id=conversation_id, user=user, access="owner")
        result = await asyncio.wait_for(call, 30)
    assert not result.is_error, text_of(result)


@pytest.mark.parametrize("approve", [True, False])
async def test_a_confirm_level_call_asks_the_client_through_elicitation(web_server: str, approve: bool) -> None:
    user = await sync_to_async(UserFactory)()
    asked: list[str] = []

    async def elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": approve})

    async with mcp_client(web_server, await token_for(user), mode="legacy", elicitation_callback=elicit) as client:
        await client.call_tool("navigate", {"url": f"{web_server}/demo/article/"})
        result = await client.call_tool("execute_js", {"code": "return document.title.length"})
    assert len(asked) == 1
    assert "run JavaScript in the page" in asked[0]
    if approve:
        assert not result.is_error, text_of(result)
        assert '"data"' in text_of(result)
    else:
        assert result.is_error
        assert text_of(result).startswith("Not done: it needs the user's yes")


def _pending_confirmation(user: Any) -> int | None:
    return (
        Confirmation.objects.filter(run__conversation__owner=user, status="pending")
        .values_list("pk", flat=True)
        .first()
    )


def _approve_in_dashboard(user: Any, confirmation_id: int) -> int:
    answer = signed_in(user).post(f"/api/confirmations/{confirmation_id}/answer/", {"approve": True}, format="json")
    return int(answer.status_code)


async def test_a_client_that_cannot_be_asked_waits_for_the_yes_in_the_dashboard(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()
    async with mcp_client(web_server, await token_for(user)) as client:
        await client.call_tool("navigate", {"url": f"{web_server}/demo/article/"})
        call = asyncio.create_task(client.call_tool("execute_js", {"code": "return 6 * 7"}))
        async with asyncio.timeout(20):
            while (pending := await sync_to_async(_pending_confirmation)(user)) is None:
                assert not call.done(), call.result()
                await asyncio.sleep(0.1)
        assert await sync_to_async(_approve_in_dashboard)(user, pending) == 200
        result = await asyncio.wait_for(call, 30)
    assert not result.is_error, text_of(result)
    assert "42" in text_of(result)


async def test_a_session_is_told_when_the_pages_tools_change(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()
    changed = asyncio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with mcp_client(web_server, await token_for(user), mode="legacy", message_handler=on_message) as client:
        assert not any(t.name.startswith("page_") for t in (await client.list_tools()).tools)
        await client.call_tool("navigate", {"url": f"{web_server}/demo/flights/"})
        await asyncio.wait_for(changed.wait(), 20)
        names: set[str] = set()

        async def listed() -> bool:
            # Told once the tools changed; a page may register its tools in more than one go.
            names.update(tool.name for tool in (await client.list_tools()).tools)
            return {"page_searchFlights", "page_setFilters", "page_listFlights"} <= names

        await until(listed, what="the flight site's tools after the notification")


async def test_a_file_sent_as_bytes_is_put_into_the_pages_file_input(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()

    async def approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"approve": True})

    with serve_directory(UPLOAD_PAGES) as pages:
        async with mcp_client(web_server, await token_for(user), mode="legacy", elicitation_callback=approve) as client:
            await client.call_tool("navigate", {"url": f"{pages}/upload.html"})
            data = base64.b64encode(b"hello world").decode()
            put = await client.call_tool("upload_file", {"selector": "#doc", "name": "note.txt", "data_base64": data})
            assert not put.is_error, text_of(put)
            seen = await client.call_tool("observe", {})
            # The same name again: the page gets the file's own name, not a storage-made one.
            again = await client.call_tool(
                "upload_file", {"selector": "#doc", "name": "note.txt", "data_base64": base64.b64encode(b"hi").decode()}
            )
            assert not again.is_error, text_of(again)
            seen_again = await client.call_tool("observe", {})
            bad = await client.call_tool("upload_file", {"selector": "#doc", "data_base64": "not base64!"})
    assert "got note.txt:11" in text_of(seen)
    assert "got note.txt:2" in text_of(seen_again)
    assert bad.is_error
    assert text_of(bad) == "data_base64 is not valid base64."


def _handmade_workflow(user: Any, url: str) -> int:
    return workflow_with(
        user,
        "Join the club",
        [
            step("navigate", "open the form", url=url),
            step("type", "type the name", tag="input", role="textbox", name="Full name",
                 attributes={"name": "fullname"}, text="{{fullname}}"),
            step("click", "join", tag="button", role="button", name="Join"),
        ],
        [parameter("fullname", "Full name", "Ada")],
    )  # fmt: skip


async def test_a_client_lists_and_runs_a_workflow_with_its_parameters(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()
    with serve_directory(WORKFLOW_PAGES) as pages:
        workflow_id = await sync_to_async(_handmade_workflow)(user, f"{pages}/signup.html")
        async with mcp_client(web_server, await token_for(user)) as client:
            listed = json.loads(text_of(await client.call_tool("list_workflows", {})))
            assert listed == [
                {
                    "id": workflow_id,
                    "name": "Join the club",
                    "parameters": [{"name": "fullname", "type": "string", "default": "Ada", "label": "Full name"}],
                }
            ]
            heard: list[str] = []

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                heard.append(message or "")

            ran = await client.call_tool(
                "run_workflow",
                {"workflow": workflow_id, "parameters": {"fullname": "Grace"}},
                progress_callback=on_progress,
            )
            assert not ran.is_error, text_of(ran)
            assert text_of(ran).startswith("Replayed 3 steps without a model.")
            assert heard == ["Step 1: navigate", "Step 2: type", "Step 3: click"]
            page = await client.call_tool("observe", {})
            assert "Welcome Grace <> on the free plan" in text_of(page)
            unknown = await client.call_tool("run_workflow", {"workflow": workflow_id + 1000})
            assert unknown.is_error
            assert "You have no workflow" in text_of(unknown)


async def test_a_file_at_an_address_is_fetched_by_the_browser_and_put_into_the_input(
    web_server: str, tmp_path: Path
) -> None:
    shutil.copy(UPLOAD_PAGES / "upload.html", tmp_path / "upload.html")
    (tmp_path / "report.csv").write_text("a,b\n1,2\n")
    user = await sync_to_async(UserFactory)()

    async def approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"approve": True})

    with serve_directory(tmp_path) as pages:
        async with mcp_client(web_server, await token_for(user), mode="legacy", elicitation_callback=approve) as client:
            await client.call_tool("navigate", {"url": f"{pages}/upload.html"})
            put = await client.call_tool("upload_file", {"selector": "#doc", "url": f"{pages}/report.csv"})
            assert not put.is_error, text_of(put)
            seen = await client.call_tool("observe", {})
            missing = await client.call_tool("upload_file", {"selector": "#doc", "url": f"{pages}/nothing.csv"})
    assert "got report.csv:8" in text_of(seen)
    assert missing.is_error
    # What went wrong, then what to try, as every tool error tells its caller.
    assert text_of(missing).startswith(f"could not fetch {pages}/nothing.csv: the server answered 404. ")
