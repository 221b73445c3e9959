"""The README's Python examples run as printed against a live Hive (only its address and a real token swapped in)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.factories import UserFactory
from tests.support.llm_server import Reply, ScriptedLLM
from webapp.accounts.services import api_token_rotate

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.usefixtures("celery_worker"),
]

README = Path(__file__).resolve().parents[2] / "README.md"


def _examples() -> dict[str, str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    return {("mcp" if "from mcp import" in block else "rest"): block for block in blocks}


def _run(code: str, web_server: str, user: Any) -> str:
    _, token = api_token_rotate(user=user)
    code = code.replace("http://localhost:8000", web_server).replace("<your token>", token)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env={**os.environ})
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_rest_and_websocket_example_prints_the_steps_and_the_answer(web_server: str, llm: ScriptedLLM) -> None:
    def handler(request: dict[str, Any]) -> Reply:
        if not any(m.get("role") == "tool" for m in request["messages"]):
            return Reply(tool_calls=[{"name": "navigate", "arguments": {"url": f"{web_server}/demo/article/"}}])
        return Reply(content="It is called The slow return of the sleeper train.")

    llm.script(handler)
    printed = _run(_examples()["rest"], web_server, UserFactory())
    assert "step: navigate" in printed
    assert printed.strip().endswith("It is called The slow return of the sleeper train.")


def test_the_mcp_example_reads_the_article(web_server: str) -> None:
    printed = _run(_examples()["mcp"], web_server, UserFactory())
    assert "The slow return of the sleeper train" in printed
    assert "hive/conversation" in printed


def test_both_examples_are_found() -> None:
    assert set(_examples()) == {"rest", "mcp"}
