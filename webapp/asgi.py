"""ASGI entry point: HTTP through Django (and `/mcp` through the MCP SDK), websockets through Channels (session
cookie, or an API token)."""

import asyncio
import importlib
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings.local")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from webapp.conversations.ws_auth import TokenAuthMiddleware  # noqa: E402
from webapp.core.types import Scope  # noqa: E402
from webapp.mcp_server import is_mcp_path  # noqa: E402
from webapp.routing import websocket_urlpatterns  # noqa: E402

websocket_router = URLRouter(websocket_urlpatterns)
_mcp_endpoint: Any = None


async def http(scope: Scope, receive: Any, send: Any) -> None:
    """`/mcp` is the MCP endpoint (the SDK's streamable HTTP transport); everything else is Django."""
    if is_mcp_path(scope["path"]):
        await (_mcp_endpoint or await _load_mcp_endpoint())(scope, receive, send)
    else:
        await django_asgi_app(scope, receive, send)


async def _load_mcp_endpoint() -> Any:
    """The MCP SDK loads with the first MCP request, in a thread while the server goes on answering: a second of
    imports and 30 MB that a web process serving only the dashboard never needs."""
    global _mcp_endpoint
    module = await asyncio.to_thread(importlib.import_module, "webapp.mcp_server.asgi")
    _mcp_endpoint = module.endpoint
    return _mcp_endpoint


application = ProtocolTypeRouter(
    {
        "http": http,
        "websocket": TokenAuthMiddleware(
            token_app=websocket_router,
            cookie_app=AllowedHostsOriginValidator(AuthMiddlewareStack(websocket_router)),
        ),
    }
)
