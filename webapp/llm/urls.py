from django.urls import path

from webapp.llm import apis

urlpatterns = [
    path("model-profiles/", apis.ModelProfileListApi.as_view(), name="model-profile-list"),
    path("model-profiles/<int:profile_id>/", apis.ModelProfileDetailApi.as_view(), name="model-profile-detail"),
    path("model-profiles/<int:profile_id>/test/", apis.ModelProfileTestApi.as_view(), name="model-profile-test"),
    path("model-providers/", apis.ProviderListApi.as_view(), name="model-provider-list"),
]
