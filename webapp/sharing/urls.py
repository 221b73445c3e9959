from django.urls import path

from webapp.sharing import apis

urlpatterns = [
    path("conversations/<int:conversation_id>/shares/", apis.ShareListApi.as_view(), name="share-list"),
    path(
        "conversations/<int:conversation_id>/shares/<int:share_id>/",
        apis.ShareDetailApi.as_view(),
        name="share-detail",
    ),
    path(
        "conversations/<int:conversation_id>/share-links/", apis.ShareLinkCreateApi.as_view(), name="share-link-create"
    ),
    path("share-links/<str:token>/", apis.ShareLinkApi.as_view(), name="share-link"),
    path("share-links/<str:token>/accept/", apis.ShareLinkAcceptApi.as_view(), name="share-link-accept"),
    path("conversations/<int:conversation_id>/control/", apis.ControlApi.as_view(), name="control"),
]
