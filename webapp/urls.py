from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from webapp.core.health import healthz, readyz
from webapp.core.metrics import metrics
from webapp.core.views import dashboard

api_patterns: list[URLPattern | URLResolver] = [
    path("auth/", include("webapp.accounts.urls")),
    path("", include("webapp.conversations.urls")),
    path("", include("webapp.runs.urls")),
    path("", include("webapp.llm.urls")),
    path("", include("webapp.memory.urls")),
    path("", include("webapp.skills.urls")),
    path("", include("webapp.sharing.urls")),
    path("", include("webapp.workflows.urls")),
    path("", include("webapp.usage.urls")),
    path("", include("webapp.profiles.urls")),
    path("", include("webapp.vault.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI and Redoc from drf-spectacular-sidecar (served by Hive, so they work offline); the split view
    # serves Swagger's start-up script as a file, so the Content-Security-Policy needs no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html"), name="api-redoc"),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("demo/", include("webapp.demo.urls")),
    path("", dashboard, name="dashboard"),
    re_path(r"^(?P<path>(?!api/|ws/|admin/|static/|demo/|media/).+)$", dashboard),
]

handler404 = "webapp.core.views.api_aware_404"
handler500 = "webapp.core.views.api_aware_500"
