from django.urls import path

from webapp.usage import apis

urlpatterns = [
    path("usage/", apis.UsageApi.as_view(), name="usage"),
]
