from django.apps import AppConfig


class ProfilesConfig(AppConfig):
    name = "webapp.profiles"
    label = "profiles"
    verbose_name = "Browser profiles"
