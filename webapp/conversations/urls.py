from django.urls import path

from webapp.conversations import apis, browser_apis, file_apis, tool_apis

urlpatterns = [
    path("conversations/", apis.ConversationListApi.as_view(), name="conversation-list"),
    path("conversations/<int:conversation_id>/", apis.ConversationDetailApi.as_view(), name="conversation-detail"),
    path("conversations/<int:conversation_id>/messages/", apis.MessageListApi.as_view(), name="message-list"),
    path("conversations/<int:conversation_id>/tabs/", browser_apis.TabListApi.as_view(), name="tab-list"),
    path(
        "conversations/<int:conversation_id>/tabs/<str:tab_id>/content/",
        browser_apis.TabContentApi.as_view(),
        name="tab-content",
    ),
    path("conversations/<int:conversation_id>/tools/", tool_apis.ToolListApi.as_view(), name="tool-list"),
    path("conversations/<int:conversation_id>/tools/call/", tool_apis.ToolCallApi.as_view(), name="tool-call"),
    path("conversations/<int:conversation_id>/actions/", browser_apis.ActionApi.as_view(), name="action-run"),
    path("conversations/<int:conversation_id>/files/", file_apis.FileListApi.as_view(), name="file-list"),
    path(
        "conversations/<int:conversation_id>/files/<int:file_id>/download/",
        file_apis.FileDownloadApi.as_view(),
        name="file-download",
    ),
]
