"""Redis goes away and comes back empty (no persistence), while a run streams and while a run waits in the
queue. Nothing stored is lost, no run stays queued or running, and the next message works."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.faults.conftest import TERMINAL, Api, FaultStack
from tests.support.llm_server import Reply, ScriptedLLM, last_user_text
from tests.support.processes import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


def _redis_down(stack: FaultStack) -> bool:
    """The web process itself says Redis is away (its readiness check)."""
    try:
        response = httpx.get(f"{stack.base_url}/readyz", timeout=5)
    except httpx.HTTPError:
        return False
    return response.status_code == 503 and response.json()["checks"]["redis"]["ok"] is False


def _echo(request: dict[str, object]) -> Reply:
    return Reply(content=f"echo: {last_user_text(request)}")


def test_redis_restarted_mid_run_the_run_ends_and_the_next_message_works(
    fault_stack: FaultStack, script_api: Api, llm: ScriptedLLM
) -> None:
    # Two workers: after the restart each sees the other's heartbeat gone until it is written again, and must not
    # take that for a dead worker.
    fault_stack.add_worker("w1")
    fault_stack.add_worker("w2")
    llm.script(lambda request: Reply(content="word " * 60, chunk_size=5, chunk_delay_s=0.1))
    conversation = script_api.new_conversation()
    run = script_api.send(conversation, "a slow answer")
    script_api.until_run(run["id"], ("running",), timeout=30)

    fault_stack.redis.kill()
    wait_until(lambda: _redis_down(fault_stack), 15, "the web process to see Redis gone")
    back = fault_stack.restart_redis()

    ended = script_api.until_run(run["id"], TERMINAL, timeout=60)
    run_recovered_s = time.monotonic() - back
    # The reply was written to the database as it streamed: losing the live channel loses none of it.
    assert ended["status"] == "succeeded", ended["error"]
    replies = [m["content"] for m in script_api.messages(conversation) if m["role"] == "assistant"]
    assert replies == [("word " * 60).strip()]

    llm.script(_echo)
    following = script_api.send(conversation, "still there?")
    done = script_api.until_run(following["id"], TERMINAL, timeout=60)
    next_message_s = time.monotonic() - back
    assert done["status"] == "succeeded", done["error"]
    assert script_api.messages(conversation)[-1]["content"] == "echo: still there?"
    print(
        f"\nredis restart mid-run: run ended {run_recovered_s:.1f} s (its reply streams 6 s), next done {next_message_s:.1f} s"
    )


def test_a_run_sent_while_redis_is_away_is_dispatched_when_it_is_back(
    fault_stack: FaultStack, script_api: Api, llm: ScriptedLLM
) -> None:
    fault_stack.add_worker("w1")
    llm.script(_echo)
    conversation = script_api.new_conversation()
    fault_stack.redis.kill()
    wait_until(lambda: _redis_down(fault_stack), 15, "the web process to see Redis gone")

    # The message is accepted and stored; its run waits, queued, for Redis.
    run = script_api.send(conversation, "sent in the dark")
    assert script_api.run(run["id"])["status"] == "queued"
    back = fault_stack.restart_redis()

    done = script_api.until_run(run["id"], TERMINAL, timeout=60)
    print(f"\nredis away at send: run done {time.monotonic() - back:.1f} s after Redis came back")
    assert done["status"] == "succeeded", done["error"]
    assert script_api.messages(conversation)[-1]["content"] == "echo: sent in the dark"


def test_a_queued_run_whose_message_redis_lost_is_sent_again(
    fault_stack: FaultStack, script_api: Api, llm: ScriptedLLM
) -> None:
    llm.script(_echo)
    conversation = script_api.new_conversation()
    # No worker yet: the message waits in Redis's queue, and Redis loses it.
    run = script_api.send(conversation, "lost in the queue")
    fault_stack.redis.kill()
    back = fault_stack.restart_redis()
    fault_stack.add_worker("w1")

    done = script_api.until_run(run["id"], TERMINAL, timeout=60)
    print(f"\nqueued message lost: run done {time.monotonic() - back:.1f} s after Redis came back")
    assert done["status"] == "succeeded", done["error"]
    assert script_api.messages(conversation)[-1]["content"] == "echo: lost in the queue"
