"""The tab limit through the whole stack, with a worker configured from the environment as an operator would: a page
opening popups in a loop never holds more tabs than HIVE_SESSION_MAX_TABS; the dashboard hears it on the
conversation's websocket (`session.notice`) and the next action's result says it to whoever acts (`notices`)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from asgiref.sync import sync_to_async

from tests.conftest import MainWorker, start_ready_worker
from tests.factories import ConversationFactory
from tests.integration.conftest import open_stream, signed_in
from tests.security.test_session_bounds import PAGES
from tests.support.runs import act, observation
from tests.support.static_server import serve_directory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.asyncio,
    pytest.mark.timeout(240),
]
MAX_TABS = 3


@pytest.fixture(scope="module")
def popups_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("bounds-stack-pages")
    for name, body in PAGES.items():
        (folder / name).write_text(body)
    with serve_directory(folder) as base:
        yield base


@pytest.fixture
def bounded_worker(main_worker: MainWorker, services_env: dict[str, str], redis_url: str) -> Iterator[None]:
    """The only worker, with a tab limit of its own."""
    main_worker.stop()
    worker = start_ready_worker("bounded", {**services_env, "HIVE_SESSION_MAX_TABS": str(MAX_TABS)}, redis_url)
    try:
        yield
    finally:
        worker.stop()


@pytest.mark.usefixtures("bounded_worker")
async def test_a_popup_loop_is_held_to_the_tab_limit_and_the_dashboard_and_the_agent_hear_it(popups_site: str) -> None:
    conversation = await sync_to_async(ConversationFactory)()
    client = await sync_to_async(signed_in)(conversation.owner)
    opened = await sync_to_async(act)(client, conversation.pk, "navigate", url=f"{popups_site}/popups.html")
    assert opened.status == "succeeded", opened.error
    connected, code, dashboard = await open_stream(conversation.owner, conversation.pk)
    assert connected, f"websocket refused with code {code}"
    try:
        started = await sync_to_async(act)(client, conversation.pk, "click", selector="#start")
        assert started.status == "succeeded", started.error
        notice = await dashboard.until(lambda e: e["type"] == "session.notice", wait_s=30)
        assert notice["kind"] == "tabs"
        assert f"({MAX_TABS})" in notice["text"]
        assert all(len(e["tabs"]) <= MAX_TABS for e in dashboard.of_type("tabs.updated"))
    finally:
        await dashboard.communicator.disconnect()

    listed = await sync_to_async(act)(client, conversation.pk, "list_tabs")
    said = await sync_to_async(observation)(listed)
    assert any("tried to open more tabs" in text for text in said["notices"])
    assert len(said["data"]["tabs"]) <= MAX_TABS
    tabs = await sync_to_async(client.get)(f"/api/conversations/{conversation.pk}/tabs/")
    assert len(tabs.json()) <= MAX_TABS, json.dumps(tabs.json())
