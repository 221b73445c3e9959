"""ASGI entry point: HTTP through Django, websockets through Channels (session cookie, or an API token)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings.local")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from webapp.conversations.ws_auth import TokenAuthMiddleware  # noqa: E402
from webapp.routing import websocket_urlpatterns  # noqa: E402

websocket_router = URLRouter(websocket_urlpatterns)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": TokenAuthMiddleware(
            token_app=websocket_router,
            cookie_app=AllowedHostsOriginValidator(AuthMiddlewareStack(websocket_router)),
        ),
    }
)
