from django.urls import path

from webapp.profiles import apis

urlpatterns = [
    path("profiles/", apis.ProfileListApi.as_view(), name="browser-profile-list"),
    path("profiles/<int:browser_profile_id>/", apis.ProfileDetailApi.as_view(), name="browser-profile-detail"),
    path("profiles/<int:browser_profile_id>/export/", apis.ProfileExportApi.as_view(), name="browser-profile-export"),
    path("profiles/<int:browser_profile_id>/forget/", apis.ProfileForgetApi.as_view(), name="browser-profile-forget"),
    path(
        "profiles/<int:browser_profile_id>/shares/", apis.ProfileShareListApi.as_view(), name="browser-profile-shares"
    ),
    path(
        "profiles/<int:browser_profile_id>/shares/<int:profile_share_id>/",
        apis.ProfileShareDetailApi.as_view(),
        name="browser-profile-share",
    ),
    path(
        "conversations/<int:conversation_id>/profile/",
        apis.ConversationProfileApi.as_view(),
        name="conversation-profile",
    ),
]
