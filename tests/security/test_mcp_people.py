"""MCP's entry points under the same rules as REST, through a live Daphne and worker with the official SDK's client:

- `run_workflow` in a conversation named by `Hive-Conversation:` or `?conversation=`, by each kind of caller; in the
  owner's conversation a teammate's replay is filled in from the teammate's credentials only;
- an MCP session id is the SDK's and its user's: another user who sends it (with the current protocol, where no
  session is checked) works in their own conversation, and made-up ids name nothing;
- `upload_file` with bytes or an address adds a file to the conversation, which takes its owner, as REST does.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from asgiref.sync import sync_to_async
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.factories import ConversationFactory, UserFactory
from tests.integration.conftest import signed_in
from tests.support.recording import RecordingSite, recording_site
from tests.support.workflows import parameter, step, workflow_with
from webapp.accounts.services import api_token_rotate
from webapp.conversations.models import Conversation, ConversationFile
from webapp.runs.models import Run
from webapp.sharing.models import Share
from webapp.workflows.models import WorkflowShare

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.asyncio,
    pytest.mark.usefixtures("celery_worker"),
]

OWNER_SECRET = "owner-secret-51c0aa"
UPLOAD_PAGE = (Path(__file__).resolve().parents[1] / "browser_pool" / "page" / "pages" / "upload.html").read_text()
FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Team form</title></head><body>
<form method="post" action="/collect">
  <p><label for="pw">Password</label> <input id="pw" name="pw" type="password"></p>
  <p><button type="submit">Send</button></p>
</form></body></html>"""
PAGES = {"/form.html": FORM, "/collect": "<title>Thanks</title>", "/upload.html": UPLOAD_PAGE, "/report.csv": "a,b\n"}
LEGACY = "2025-06-18"


@pytest.fixture
def site() -> Iterator[RecordingSite]:
    with recording_site(PAGES) as recording:
        yield recording


@asynccontextmanager
async def connect(
    server: str, user: Any, *, query: str = "", mode: str = "auto", elicit: Any = None, **headers: str
) -> AsyncIterator[Client]:
    _, token = await sync_to_async(api_token_rotate)(user=user)
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}", **headers}, timeout=120)
    transport = streamable_http_client(f"{server}/mcp{query}", http_client=http)
    async with http, Client(transport, mode=mode, elicitation_callback=elicit) as client:  # type: ignore[arg-type]
        yield client


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(part.text for part in result.content if isinstance(part, types.TextContent))


def conversation_of(result: types.CallToolResult) -> int | None:
    return int(result.meta["hive/conversation"]) if result.meta and result.meta.get("hive/conversation") else None


class World:
    """The owner's conversation, shared with a controller and a viewer (and an expired controller), and a stranger."""

    def __init__(self) -> None:
        self.owner = UserFactory(username="owner")
        self.users = {"owner": self.owner}
        self.conversation = ConversationFactory(owner=self.owner)
        for role in ("controller", "viewer", "stranger", "expired"):
            self.users[role] = UserFactory(username=role)
        for role in ("controller", "viewer"):
            Share.objects.create(
                conversation=self.conversation, user=self.users[role], role=role, created_by=self.owner
            )
        Share.objects.create(conversation=self.conversation, user=self.users["expired"], role="controller",
                             created_by=self.owner, expires_at=timezone.now() - timedelta(minutes=1))  # fmt: skip


def _world() -> World:
    world = World()
    signed_in(world.owner).post("/api/credentials/", {"name": "bank", "value": OWNER_SECRET}, format="json")
    return world


def _shared_workflow(owner: Any, base: str, teammates: list[Any], *, secret: bool) -> int:
    steps = [step("navigate", "open the form", url=f"{base}/form.html")]
    parameters = []
    if secret:
        steps += [
            step("type", "type the password", tag="input", role="textbox", name="Password",
                 attributes={"name": "pw", "type": "password"}, text="{{pw}}"),
            step("click", "send it", tag="button", role="button", name="Send"),
        ]  # fmt: skip
        parameters = [parameter("pw", "Password", secret=True)]
    workflow_id = workflow_with(owner, "Send the password", steps, parameters)
    for teammate in teammates:
        WorkflowShare.objects.create(workflow_id=workflow_id, user=teammate, role="controller")
    return workflow_id


@pytest.mark.parametrize("how", ["header", "query"])
async def test_a_teammates_run_workflow_in_the_owners_conversation_never_types_the_owners_secret(
    web_server: str, site: RecordingSite, how: str
) -> None:
    world = await sync_to_async(_world)()
    mate = world.users["controller"]
    workflow_id = await sync_to_async(_shared_workflow)(mate, site.url, [], secret=True)  # the teammate's own
    named = str(world.conversation.pk)
    where: dict[str, Any] = {"query": f"?conversation={named}"} if how == "query" else {"Hive-Conversation": named}
    async with connect(web_server, mate, **where) as client:
        ran = await client.call_tool("run_workflow", {"workflow": workflow_id, "parameters": {"pw": "bank"}})
    assert ran.is_error
    assert text_of(ran) == "No credential named 'bank' for the parameter pw in controller's credential store."
    assert conversation_of(ran) == world.conversation.pk
    assert site.requests() == []
    assert not site.got(OWNER_SECRET)


ALLOWED = {"owner": True, "controller": True, "viewer": False, "stranger": False, "expired": False}


@pytest.mark.parametrize("how", ["header", "query"])
@pytest.mark.parametrize("role", sorted(ALLOWED))
async def test_run_workflow_in_a_named_conversation_takes_control_of_it(
    web_server: str, site: RecordingSite, role: str, how: str
) -> None:
    world = await sync_to_async(World)()
    caller = world.users[role]
    teammates = [user for name, user in world.users.items() if name != "owner"]
    workflow_id = await sync_to_async(_shared_workflow)(world.owner, site.url, teammates, secret=False)
    named = str(world.conversation.pk)
    where: dict[str, Any] = {"query": f"?conversation={named}"} if how == "query" else {"Hive-Conversation": named}
    async with connect(web_server, caller, **where) as client:
        ran = await client.call_tool("run_workflow", {"workflow": workflow_id})
    if ALLOWED[role]:
        assert not ran.is_error, text_of(ran)
        # Recorded as the caller's run, in the owner's conversation.
        assert await sync_to_async(_starters)(world.conversation) == [caller.pk]
    else:
        assert ran.is_error
        assert await sync_to_async(Run.objects.filter(conversation=world.conversation).count)() == 0
        expected = "You can watch this conversation" if role == "viewer" else "No such conversation"
        assert text_of(ran).startswith(expected), text_of(ran)


def _starters(conversation: Conversation) -> list[int | None]:
    return list(Run.objects.filter(conversation=conversation).values_list("started_by", flat=True))


def _owners(conversations: set[int]) -> set[int]:
    return set(Conversation.objects.filter(pk__in=conversations).values_list("owner_id", flat=True))


def _legacy_session(server: str, token: str) -> str:
    """A session of the older handshake, opened by hand: its id, as the SDK made it for this token's user."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    opened = httpx.post(f"{server}/mcp", headers=headers, timeout=30, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    })  # fmt: skip
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    headers |= {"Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY}
    ready = httpx.post(f"{server}/mcp", headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert ready.status_code == 202, ready.text
    return session


def _legacy_call(server: str, token: str, session: str, name: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
               "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY}  # fmt: skip
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": {}}}
    return httpx.post(f"{server}/mcp", headers=headers, json=body, timeout=60)


def _result(answer: httpx.Response) -> dict[str, Any]:
    data = [line[5:] for line in answer.text.splitlines() if line.startswith("data:")]
    return dict(json.loads(data[-1])["result"])


async def test_another_users_session_id_names_nothing(web_server: str) -> None:
    alice, bob = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    _, alice_token = await sync_to_async(api_token_rotate)(user=alice)
    _, bob_token = await sync_to_async(api_token_rotate)(user=bob)
    session = await sync_to_async(_legacy_session)(web_server, str(alice_token))
    listed = _result(await sync_to_async(_legacy_call)(web_server, str(alice_token), session, "list_workflows"))
    alices = int(listed["_meta"]["hive/conversation"])
    assert (await sync_to_async(Conversation.objects.get)(pk=alices)).owner_id == alice.pk

    # Bob with Alice's session id, with the older handshake: the SDK knows it is not his.
    taken = await sync_to_async(_legacy_call)(web_server, str(bob_token), session, "list_workflows")
    assert taken.status_code == 404
    # With the current protocol, which has no sessions: the id names nothing, Bob works in his own conversation.
    mine: set[int | None] = set()
    for sent in (session, "0" * 32, "f" * 32, session + "x"):
        async with connect(web_server, bob, **{"Mcp-Session-Id": sent}) as client:
            result = await client.call_tool("list_workflows", {})
        assert not result.is_error, text_of(result)
        mine.add(conversation_of(result))
    assert alices not in mine
    assert len(mine) == 1  # made-up ids make no conversation each
    assert await sync_to_async(_owners)({pk for pk in mine if pk is not None}) == {bob.pk}
    # Alice's session still has her conversation.
    again = _result(await sync_to_async(_legacy_call)(web_server, str(alice_token), session, "list_workflows"))
    assert int(again["_meta"]["hive/conversation"]) == alices


async def _approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"approve": True})


def _files(conversation: Conversation) -> int:
    return ConversationFile.objects.filter(conversation=conversation).count()


def _rest_upload(user: Any, conversation: Conversation) -> int:
    upload = SimpleUploadedFile("a.txt", b"hello", content_type="text/plain")
    answer = signed_in(user).post(f"/api/conversations/{conversation.pk}/files/", {"file": upload}, format="multipart")
    return int(answer.status_code)


@pytest.mark.parametrize("way", ["data_base64", "url"])
@pytest.mark.parametrize("role", ["owner", "controller", "viewer"])
async def test_an_upload_through_mcp_takes_the_role_a_rest_upload_takes(
    web_server: str, site: RecordingSite, role: str, way: str
) -> None:
    world = await sync_to_async(World)()
    caller = world.users[role]
    rest_allowed = await sync_to_async(_rest_upload)(caller, world.conversation) == 201
    before = await sync_to_async(_files)(world.conversation)
    where = {"Hive-Conversation": str(world.conversation.pk)}
    sent: dict[str, Any] = (
        {"data_base64": base64.b64encode(b"hello world").decode(), "name": "note.txt"}
        if way == "data_base64"
        else {"url": f"{site.url}/report.csv"}
    )
    async with connect(web_server, caller, mode="legacy", elicit=_approve, **where) as client:
        if role == "owner":
            opened = await client.call_tool("navigate", {"url": f"{site.url}/upload.html"})
            assert not opened.is_error, text_of(opened)
        put = await client.call_tool("upload_file", {"selector": "#doc", **sent})
    after = await sync_to_async(_files)(world.conversation)
    assert rest_allowed == (role == "owner")
    if role == "owner":
        assert not put.is_error, text_of(put)
        assert after == before + 1
    else:
        assert put.is_error
        assert after == before
        assert not site.got("/report.csv")  # an address is not even fetched
        if role == "controller":
            assert text_of(put).startswith("Only the conversation's owner can add a file to it"), text_of(put)
