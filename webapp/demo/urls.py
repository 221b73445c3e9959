from django.urls import path

from webapp.demo import views

urlpatterns = [
    path("", views.demo_file, name="demo-index"),
    path("<path:path>", views.demo_file, name="demo-file"),
]
