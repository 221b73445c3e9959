"""A field's whole value within reach of an MCP client, as of Hive's own agent: observe keeps a long value short and
says where the rest is, get_element_details gives it whole in parts (value_from), and a password stays masked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from tests.factories import UserFactory
from tests.mcp.test_mcp_endpoint import mcp_client, text_of, token_for
from tests.support.static_server import serve_directory

VALUE_PAGES = Path(__file__).resolve().parents[1] / "agents" / "pages" / "values"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.asyncio,
    pytest.mark.usefixtures("celery_worker"),
]


def index_in(seen: str, tag: str, name: str) -> int:
    found = re.search(rf'^\[(\d+)\] {tag}(?: type=\w+)? "{name}"', seen, re.MULTILINE)
    assert found is not None, seen
    return int(found.group(1))


async def test_a_client_reads_a_50000_character_value_in_parts_and_copies_it_exactly(web_server: str) -> None:
    user = await sync_to_async(UserFactory)()
    with serve_directory(VALUE_PAGES) as pages:
        async with mcp_client(web_server, await token_for(user)) as client:
            opened = await client.call_tool("navigate", {"url": f"{pages}/copy.html?chars=50000"})
            assert not opened.is_error, text_of(opened)
            seen = text_of(await client.call_tool("observe", {}))
            source, copy = index_in(seen, "textarea", "Source"), index_in(seen, "textarea", "Copy")
            pin, check = index_in(seen, "input", "PIN"), index_in(seen, "button", "Check")
            parts, start = [], 1
            while True:
                answer = await client.call_tool("get_element_details", {"indices": [source], "value_from": start})
                assert not answer.is_error, text_of(answer)
                element = json.loads(text_of(answer))["data"]["elements"][0]
                parts.append(element["value"])
                typed = await client.call_tool(
                    "type", {"index": copy, "text": element["value"], "clear": len(parts) == 1}
                )
                assert not typed.is_error, text_of(typed)
                following = re.search(r"and value_from (\d+)$", element["value_part"])
                if following is None:
                    break
                start = int(following.group(1))
            secret = text_of(await client.call_tool("get_element_details", {"indices": [pin]}))
            await client.call_tool("click", {"index": check})
            after = text_of(await client.call_tool("observe", {}))

    assert "(50000 chars; get_element_details shows all)" in seen
    assert len(parts) > 1
    assert element["value_part"].endswith("of 50000 (the end)")
    assert "Result: exact copy of 50000 characters" in after
    assert "hunter2" not in seen + secret
    assert json.loads(secret)["data"]["elements"][0]["value"] == "•••"
