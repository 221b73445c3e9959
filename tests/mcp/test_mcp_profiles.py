"""An MCP client starts its conversation's browser from a browser profile: named by the Hive-Profile header or a
`profile` argument of run_task, the browser is signed in where the profile is; a profile the user may not start
from is refused with a reason the client's model reads, and the conversation keeps the profile it had."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.factories import UserFactory
from tests.mcp.test_mcp_endpoint import _conversation_of, mcp_client, text_of, token_for
from tests.support.login_site import LoginSite, serve_login_site
from webapp.profiles.models import ProfileUse
from webapp.profiles.services import profile_store

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.asyncio,
    pytest.mark.usefixtures("celery_worker"),
]


def _signed_in_profile(owner: Any, site: LoginSite, name: str) -> int:
    host = site.base.split("//")[1].split(":")[0]
    cookie = {"name": "sid", "value": site.sign_in(owner.username), "domain": host, "path": "/", "expires": -1,
              "httpOnly": True, "secure": False, "sameSite": "Lax"}  # fmt: skip
    return profile_store(owner=owner, name=name, state={"cookies": [cookie]}, replace=False).pk


async def test_a_client_names_a_profile_and_its_browser_is_signed_in(web_server: str) -> None:
    user, stranger = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    with serve_login_site() as site:
        mine = await sync_to_async(_signed_in_profile)(user, site, "members")
        await sync_to_async(_signed_in_profile)(stranger, site, "theirs")
        async with mcp_client(web_server, await token_for(user), **{"Hive-Profile": "members"}) as client:
            listed = json.loads(text_of(await client.call_tool("list_profiles", {})))
            origins = ["http://127.0.0.1"]  # a cookie belongs to its host, whatever the port
            assert [(p["id"], p["name"], p["origins"]) for p in listed] == [(mine, "members", origins)]
            opened = await client.call_tool("navigate", {"url": f"{site.base}/members"})
            assert not opened.is_error, text_of(opened)
            assert f"Signed in as {user.username}" in text_of(await client.call_tool("get_content", {}))

        async with mcp_client(web_server, await token_for(user)) as client:  # the same conversation, by recency
            refused = await client.call_tool("run_task", {"task": "look around", "profile": "theirs"})
            assert refused.is_error
            assert "You have no browser profile 'theirs'" in text_of(refused)
            opened = await client.call_tool("navigate", {"url": f"{site.base}/members"})
            assert f"Signed in as {user.username}" in text_of(await client.call_tool("get_content", {}))
            use = await sync_to_async(ProfileUse.objects.get)(conversation_id=_conversation_of(opened))
            assert use.profile_id == mine
