"""Processes die the hard way (SIGKILL): a worker mid-turn while another worker lives, the browser under a
worker, and the web process while people watch. Nothing stored is lost and the next message works."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.faults.conftest import TERMINAL, Api, FaultStack
from tests.support.browsers import launch_browser
from tests.support.dashboard import sign_up
from tests.support.llm_server import Reply, ScriptedLLM, last_user_text
from tests.support.static_server import serve_directory
from webapp.runs.models import Run
from webapp.runs.services import ORPHANED_RUN_ERROR
from workers.turns import SHUTDOWN_MESSAGE

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

PAGES = Path(__file__).resolve().parents[1] / "integration" / "pages"


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    with serve_directory(PAGES) as url:
        yield url


def _echo(request: dict[str, object]) -> Reply:
    return Reply(content=f"echo: {last_user_text(request)}")


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _browser_processes(worker_pid: int) -> list[int]:
    """The Chromium browser processes (not renderers or helpers) under a worker."""
    main = []
    for pid in _descendants(worker_pid):
        try:
            cmdline = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if (
            cmdline
            and b"chrom" in Path(cmdline[0].decode(errors="replace")).name.encode()
            and not any(arg.startswith(b"--type=") for arg in cmdline)
        ):
            main.append(pid)
    return main


def test_a_worker_killed_mid_turn_fails_its_run_and_the_next_message_restores_the_session(
    fault_stack: FaultStack, script_api: Api, llm: ScriptedLLM, pages: str
) -> None:
    first = fault_stack.add_worker("w1")
    conversation = script_api.new_conversation()
    opened = script_api.action(conversation, "navigate", {"url": f"{pages}/article.html"})
    assert script_api.until_run(opened["id"], TERMINAL)["status"] == "succeeded"
    fault_stack.add_worker("w2")

    llm.script(lambda request: Reply(content="slow " * 1000, chunk_size=5, chunk_delay_s=0.1))
    run = script_api.send(conversation, "a long task")
    script_api.until_run(run["id"], ("running",), timeout=30)
    # The turn goes where the conversation's browser session lives.
    assert Run.objects.get(pk=run["id"]).worker_id.startswith("w1@")
    first.kill()
    killed = time.monotonic()

    failed = script_api.until_run(run["id"], TERMINAL, timeout=60)
    failed_after_s = time.monotonic() - killed
    assert failed["status"] == "failed"
    assert failed["error"] == ORPHANED_RUN_ERROR
    assert [m["content"] for m in script_api.messages(conversation) if m["role"] == "user"] == ["a long task"]

    llm.script(_echo)
    following = script_api.send(conversation, "try again")
    done = script_api.until_run(following["id"], TERMINAL, timeout=60)
    print(
        f"\nworker killed: run failed {failed_after_s:.1f} s after, next message done {time.monotonic() - killed:.1f} s"
    )
    assert done["status"] == "succeeded", done["error"]
    assert Run.objects.get(pk=following["id"]).worker_id.startswith("w2@")
    # The surviving worker restored the browser session from its last save: the page is open again.
    assert [tab["url"] for tab in script_api.tabs(conversation)] == [f"{pages}/article.html"]


def test_a_worker_told_to_stop_ends_its_runs_with_a_reason_and_exits(
    fault_stack: FaultStack, script_api: Api, llm: ScriptedLLM
) -> None:
    worker = fault_stack.add_worker("w1")
    llm.script(lambda request: Reply(content="slow " * 1000, chunk_size=5, chunk_delay_s=0.1))  # 20 s of reply
    conversation = script_api.new_conversation()
    run = script_api.send(conversation, "a long task")
    script_api.until_run(run["id"], ("running",), timeout=30)

    os.kill(worker.pid, signal.SIGTERM)  # what compose and supervisord send first
    stopped = time.monotonic()
    ended = script_api.until_run(run["id"], TERMINAL, timeout=15)
    ended_s = time.monotonic() - stopped

    assert ended["status"] == "failed"
    assert ended["error"] == SHUTDOWN_MESSAGE
    worker.proc.wait(timeout=30)
    print(
        f"\nworker stopped (SIGTERM): run ended {ended_s:.1f} s after, process gone {time.monotonic() - stopped:.1f} s"
    )


def test_a_killed_browser_is_reported_and_the_next_action_gets_a_fresh_one(
    fault_stack: FaultStack, script_api: Api, pages: str
) -> None:
    worker = fault_stack.add_worker("w1")
    conversation = script_api.new_conversation()
    opened = script_api.action(conversation, "navigate", {"url": f"{pages}/article.html"})
    assert script_api.until_run(opened["id"], TERMINAL)["status"] == "succeeded"

    browsers = _browser_processes(worker.pid)
    assert browsers, "no Chromium under the worker"
    gone = 0
    for pid in browsers:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # a short-lived one (a launch's own check) ended by itself meanwhile
            gone += 1
    assert gone < len(browsers), "no Chromium was killed"
    killed = time.monotonic()

    # The next action either fails saying the browser failed, or already runs in a new browser.
    after = script_api.action(conversation, "navigate", {"url": f"{pages}/second.html"})
    first_try = script_api.until_run(after["id"], TERMINAL, timeout=60)
    if first_try["status"] != "succeeded":
        assert "browser" in first_try["error"].lower(), first_try["error"]
        after = script_api.action(conversation, "navigate", {"url": f"{pages}/second.html"})
        assert script_api.until_run(after["id"], TERMINAL, timeout=60)["status"] == "succeeded"
    print(f"\nbrowser killed: a working action {time.monotonic() - killed:.1f} s after ({first_try['status']} first)")
    assert worker.alive()
    assert [tab["url"] for tab in script_api.tabs(conversation)][-1] == f"{pages}/second.html"


@pytest.mark.e2e
@pytest.mark.asyncio
async def test_viewers_reconnect_after_the_web_process_is_killed_and_see_the_stream(
    fault_stack: FaultStack, llm: ScriptedLLM
) -> None:
    fault_stack.add_worker("w1")
    llm.script(
        # About two seconds of streaming, so the viewer is sure to see the reply arrive in pieces.
        lambda request: Reply(
            content=f"Hello again, {last_user_text(request)}. The page kept its place while the web process restarted.",
            chunk_size=3,
            chunk_delay_s=0.08,
        )
    )
    async with launch_browser() as browser:
        page = await (await browser.new_context()).new_page()
        await sign_up(page, fault_stack.base_url, "viewer")
        await page.get_by_test_id("new-conversation").click()
        connection = page.get_by_test_id("connection-status")
        await expect(connection).to_have_text("Live", timeout=15_000)

        fault_stack.daphne.kill()
        await expect(connection).to_have_text("Reconnecting…", timeout=15_000)
        back = fault_stack.restart_daphne()
        await expect(connection).to_have_text("Live", timeout=30_000)
        reconnected_s = time.monotonic() - back

        # The reply streams over the new socket: it is seen while still streaming, then whole.
        await page.get_by_test_id("chat-input").fill("Ada")
        await page.get_by_test_id("send-button").click()
        await expect(page.locator("[data-testid=message][data-streaming=true]")).to_be_visible(timeout=15_000)
        reply = page.locator("[data-testid=message][data-role=assistant]")
        await expect(reply).to_have_text(re.compile("Hello again, Ada. The page kept its place"), timeout=15_000)
        print(f"\nweb process killed: viewer live again {reconnected_s:.1f} s after the restart")
