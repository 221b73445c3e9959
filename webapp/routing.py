from django.urls import path

from webapp.accounts.consumers import UserConsumer
from webapp.conversations.consumers import ConversationConsumer

websocket_urlpatterns = [
    path("ws/conversations/<int:conversation_id>/", ConversationConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
