from django.urls import path

from webapp.conversations import apis

urlpatterns = [
    path("conversations/", apis.ConversationListApi.as_view(), name="conversation-list"),
    path("conversations/<int:conversation_id>/", apis.ConversationDetailApi.as_view(), name="conversation-detail"),
    path("conversations/<int:conversation_id>/messages/", apis.MessageListApi.as_view(), name="message-list"),
]
