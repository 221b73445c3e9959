"""What the browser downloads reaches programs too: an MCP client gets a resource link to each file a call or a
workflow replay downloaded (fetched with its API token), and a replay's downloads are in its history and in the
payload its webhook receives."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import httpx
import mcp_types as types
import pytest
from asgiref.sync import sync_to_async

from tests.conftest import PUBLIC_URL
from tests.factories import UserFactory
from tests.integration.conftest import signed_in
from tests.mcp.test_mcp_endpoint import mcp_client, text_of, token_for
from tests.support.downloads import CSV, DownloadSite, download_site
from tests.support.waiting import eventually
from tests.support.workflows import step, workflow_with
from webapp.workflows.models import WebhookDelivery

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.asyncio,
    pytest.mark.usefixtures("celery_worker"),
]


@pytest.fixture
def site() -> Iterator[DownloadSite]:
    with download_site() as served:
        yield served


class _Receiver(BaseHTTPRequestHandler):
    bodies: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 - the base class names it so
        self.bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


@pytest.fixture
def receiver() -> Iterator[str]:
    _Receiver.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def _links(result: types.CallToolResult) -> list[types.ResourceLink]:
    return [part for part in result.content if isinstance(part, types.ResourceLink)]


async def _fetched(web_server: str, token: str, link: types.ResourceLink) -> httpx.Response:
    """The file behind a link, from this test's server (the link names the site's public address)."""
    assert str(link.uri).startswith(f"{PUBLIC_URL}/api/conversations/")
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        return await http.get(web_server + urlsplit(str(link.uri)).path)


def _report_workflow(user: Any, url: str, hook: str) -> int:
    workflow_id = workflow_with(
        user,
        "Fetch the report",
        [
            step("navigate", "open the reports", url=url),
            step("click", "download the CSV", tag="a", role="link", name="Download CSV"),
        ],
    )
    answer = signed_in(user).post(f"/api/workflows/{workflow_id}/webhook/", {"url": hook}, format="json")
    assert answer.status_code == 201, answer.content
    return workflow_id


async def test_a_click_that_downloads_answers_with_a_link_to_the_file(web_server: str, site: DownloadSite) -> None:
    user = await sync_to_async(UserFactory)()
    token = await token_for(user)
    async with mcp_client(web_server, token) as client:
        await client.call_tool("navigate", {"url": f"{site.url}/"})
        clicked = await client.call_tool("click", {"selector": "#csv"})
        looked = await client.call_tool("observe", {})
    assert not clicked.is_error, text_of(clicked)
    assert "report.csv (text/csv" in text_of(clicked)
    (link,) = _links(clicked)
    assert (link.name, link.mime_type, link.size) == ("report.csv", "text/csv", len(CSV))
    assert _links(looked) == []  # a call that downloaded nothing links nothing
    got = await _fetched(web_server, token, link)
    assert got.status_code == 200
    assert got.content == CSV
    stranger = await token_for(await sync_to_async(UserFactory)())
    assert (await _fetched(web_server, stranger, link)).status_code == 404


async def test_a_replays_downloads_are_in_its_answer_its_history_and_its_webhook(
    web_server: str, site: DownloadSite, receiver: str
) -> None:
    user = await sync_to_async(UserFactory)()
    token = await token_for(user)
    workflow_id = await sync_to_async(_report_workflow)(user, f"{site.url}/", receiver)
    async with mcp_client(web_server, token) as client:
        ran = await client.call_tool("run_workflow", {"workflow": workflow_id, "parameters": {}})
    assert not ran.is_error, text_of(ran)
    (link,) = _links(ran)
    assert link.name == "report.csv"
    assert (await _fetched(web_server, token, link)).content == CSV

    history = await sync_to_async(lambda: signed_in(user).get(f"/api/workflows/{workflow_id}/runs/").json())()
    (downloaded,) = history[0]["downloads"]
    assert (downloaded["name"], downloaded["content_type"], downloaded["size"]) == ("report.csv", "text/csv", len(CSV))
    assert downloaded["source_url"] == f"{site.url}/report.csv"

    await eventually(lambda: bool(_Receiver.bodies), 30, "the webhook to be delivered")
    payload = json.loads(_Receiver.bodies[-1])
    (sent,) = payload["downloads"]
    assert sent["name"] == "report.csv"
    assert sent["url"] == str(link.uri)
    stored = await sync_to_async(lambda: WebhookDelivery.objects.get(workflow_id=workflow_id).payload)()
    assert stored["downloads"] == payload["downloads"]
